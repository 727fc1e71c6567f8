/**
 * The committed list of plugins (conformance/plugins/plugins.json: the official plugins under `plugins`, community
 * plugins under `community`) and the per-plugin lists beside it: the tests known to fail on Enclave
 * (expectations.txt for the official plugins, community-expectations.txt for the community ones), the tests skipped
 * on both targets (skipped-tests.txt) and the flaky tests (flaky-tests.txt). Entries name a test file by the
 * plugin's name and the file's path in its package, `@fastify/etag/test/basic.test.js`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEntries, indexEntries, holdsOnThisNode } from '../../lib/entry-lines.mjs'

export const pluginsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The expectations file of each group of plugins. */
export const EXPECTATIONS_FILES = {
  official: path.join(pluginsDir, 'expectations.txt'),
  community: path.join(pluginsDir, 'community-expectations.txt')
}
export const GROUPS = { official: 'the official plugins', community: 'the community plugins' }
const SKIPPED_FILE = path.join(pluginsDir, 'skipped-tests.txt')
const FLAKY_FILE = path.join(pluginsDir, 'flaky-tests.txt')

/** The id of one test file in the lists and reports. */
export const fileId = (plugin, file) => `${plugin.name}/${file}`

/** `@fastify/etag` → `fastify-etag`: a folder name. */
export const slug = (plugin) => plugin.name.replace(/^@/, '').replace('/', '-')

/**
 * `{ dependenciesBefore, omitEverywhere, plugins }`: the official plugins, then the community ones, each with its
 * `group`, filtered by `pattern` (a regex on the name) and `group` (official or community, or both when absent).
 */
export function loadPluginList (pattern, group) {
  const list = JSON.parse(readFileSync(path.join(pluginsDir, 'plugins.json'), 'utf8'))
  const matcher = pattern ? new RegExp(pattern) : null
  const all = [
    ...list.plugins.map((plugin) => ({ ...plugin, group: 'official' })),
    ...(list.community ?? []).map((plugin) => ({ ...plugin, group: 'community' }))
  ]
  const plugins = all.filter((plugin) => (!matcher || matcher.test(plugin.name)) && (!group || plugin.group === group))
  if (plugins.length === 0) throw new Error(`--plugin ${pattern}: no plugin in conformance/plugins/plugins.json matches`)
  return { ...list, plugins }
}

/** skipped-tests.txt: (`plugin`, `file`) → (`test name` → reason), for the preload; `node>=N:` entries from Node N on. */
export function loadSkippedTests () {
  const byFile = indexEntries(readEntries(SKIPPED_FILE).filter(holdsOnThisNode))
  return (plugin, file) => Object.fromEntries([...(byFile.get(fileId(plugin, file)) ?? new Map())].map(([name, entry]) => [name, entry.reason]))
}

/**
 * flaky-tests.txt: (`plugin`, `file`) → (`test name` → evidence). A flaky test fails now and then on fastify 4.29.1
 * too; its outcome is recorded but counted neither as passed nor as failed, and never gates.
 */
export function loadFlakyTests () {
  const byFile = indexEntries(readEntries(FLAKY_FILE))
  return (fileIdentifier) => byFile.get(fileIdentifier) ?? new Map()
}
