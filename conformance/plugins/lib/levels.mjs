/**
 * The plugin suites of each Fastify level (`--fastify 4`, the default, or `--fastify 5`): which committed list of
 * plugins runs (the Fastify 4 releases of plugins.json, or the Fastify 5 releases of plugins-5.json), the lists kept
 * beside it (expectations per group, skipped and flaky tests), the folder of its test trees, and the Fastify level it
 * runs on (conformance/lib/levels.mjs: the pinned fastify for --self, its test dependencies and cache folder, the
 * Enclave entry). Every difference between the two plugin runs is here; the runner's modules take a level.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { levelOf } from '../../lib/levels.mjs'

export const pluginsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function pluginLevel (fastify, { list, suffix, groups }) {
  const file = (name) => path.join(pluginsDir, `${name}${suffix}.txt`)
  return {
    fastify,
    list: path.join(pluginsDir, list),
    /** The expectations file of each group of plugins the list holds. */
    expectations: Object.fromEntries(groups.map((group) => [group, file(group === 'official' ? 'expectations' : `${group}-expectations`)])),
    skipped: file('skipped-tests'),
    flaky: file('flaky-tests'),
    /** Appended to the test trees' folder, so that runs of the two levels never share a tree. */
    treesSuffix: suffix
  }
}

const PLUGIN_LEVELS = {
  4: pluginLevel(levelOf('4'), { list: 'plugins.json', suffix: '', groups: ['official', 'community'] }),
  5: pluginLevel(levelOf('5'), { list: 'plugins-5.json', suffix: '-5', groups: ['official', 'community'] })
}

/** The plugin level of `--fastify <major>` (`4`, `5`, or a full version such as `5.12.8`). */
export function pluginLevelOf (value = '4') {
  return PLUGIN_LEVELS[levelOf(value).major]
}
