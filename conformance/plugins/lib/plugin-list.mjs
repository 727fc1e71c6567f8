/**
 * The committed list of plugins (conformance/plugins/plugins.json) and the per-plugin lists beside it: the tests
 * known to fail on Enclave (expectations.txt) and the tests skipped on both targets (skipped-tests.txt). Entries
 * name a test file by the plugin's name and the file's path in its package, `@fastify/etag/test/basic.test.js`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEntries, indexEntries } from '../../lib/entry-lines.mjs'

export const pluginsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const EXPECTATIONS_FILE = path.join(pluginsDir, 'expectations.txt')
const SKIPPED_FILE = path.join(pluginsDir, 'skipped-tests.txt')

/** The id of one test file in the lists and reports. */
export const fileId = (plugin, file) => `${plugin.name}/${file}`

/** `@fastify/etag` → `fastify-etag`: a folder name. */
export const slug = (plugin) => plugin.name.replace(/^@/, '').replace('/', '-')

/** `{ dependenciesBefore, omitEverywhere, plugins }`, the plugins filtered by `pattern` (a regex on the name). */
export function loadPluginList (pattern) {
  const list = JSON.parse(readFileSync(path.join(pluginsDir, 'plugins.json'), 'utf8'))
  const matcher = pattern ? new RegExp(pattern) : null
  const plugins = list.plugins.filter((plugin) => !matcher || matcher.test(plugin.name))
  if (plugins.length === 0) throw new Error(`--plugin ${pattern}: no plugin in conformance/plugins/plugins.json matches`)
  return { ...list, plugins }
}

/** skipped-tests.txt: (`plugin`, `file`) → (`test name` → reason), for the preload. */
export function loadSkippedTests () {
  const byFile = indexEntries(readEntries(SKIPPED_FILE))
  return (plugin, file) => Object.fromEntries([...(byFile.get(fileId(plugin, file)) ?? new Map())].map(([name, entry]) => [name, entry.reason]))
}
