/**
 * The committed list of plugins of a level (conformance/plugins/plugins.json for Fastify 4: the official plugins
 * under `plugins`, community plugins under `community`; plugins-5.json for Fastify 5) and the per-plugin lists beside
 * it (lib/levels.mjs names them): the tests known to fail on Enclave (expectations.txt for the official plugins,
 * community-expectations.txt for the community ones), the tests skipped on both targets (skipped-tests.txt) and the
 * flaky tests (flaky-tests.txt). Entries name a test file by the plugin's name and the file's path in its package,
 * `@fastify/etag/test/basic.test.js`.
 */
import { readFileSync } from 'node:fs'
import { readEntries, indexEntries, holdsOnThisNode } from '../../lib/entry-lines.mjs'

export const GROUPS = { official: 'the official plugins', community: 'the community plugins' }

/** The id of one test file in the lists and reports. */
export const fileId = (plugin, file) => `${plugin.name}/${file}`

/** `@fastify/etag` → `fastify-etag`: a folder name. */
export const slug = (plugin) => plugin.name.replace(/^@/, '').replace('/', '-')

/**
 * `{ dependenciesBefore, omitEverywhere, plugins }` of `level`'s list: the official plugins, then the community ones,
 * each with its `group` (and the list's `runner` when it names none), filtered by `pattern` (a regex on the name)
 * and `group` (official or community, or both when absent).
 */
export function loadPluginList (level, pattern, group) {
  const list = JSON.parse(readFileSync(level.list, 'utf8'))
  const matcher = pattern ? new RegExp(pattern) : null
  const inGroup = (name) => (plugin) => ({ ...plugin, group: name, ...(list.runner && !plugin.runner && { runner: list.runner }) })
  const all = [...list.plugins.map(inGroup('official')), ...(list.community ?? []).map(inGroup('community'))]
  const plugins = all.filter((plugin) => (!matcher || matcher.test(plugin.name)) && (!group || plugin.group === group))
  if (plugins.length === 0) throw new Error(`--plugin ${pattern}, --${group ?? 'official'}: no plugin in ${level.list} matches`)
  return { ...list, plugins }
}

/** skipped-tests.txt: (`plugin`, `file`) → (`test name` → reason), for the preload; `node>=N:` entries from Node N on. */
export function loadSkippedTests (level) {
  const byFile = indexEntries(readEntries(level.skipped).filter(holdsOnThisNode))
  const skipsFor = (plugin, file) => Object.fromEntries([...(byFile.get(fileId(plugin, file)) ?? new Map())].map(([name, entry]) => [name, entry.reason]))
  /** Every skipped name of `plugin`, whatever its file: a jest or vitest suite is run once for all its files. */
  skipsFor.namesOf = (plugin) => [...byFile].filter(([file]) => file.startsWith(`${plugin.name}/`)).flatMap(([, names]) => [...names.keys()])
  return skipsFor
}

/**
 * flaky-tests.txt: (`plugin`, `file`) → (`test name` → evidence). A flaky test fails now and then on the real
 * fastify too; its outcome is recorded but counted neither as passed nor as failed, and never gates.
 */
export function loadFlakyTests (level) {
  const byFile = indexEntries(readEntries(level.flaky))
  return (fileIdentifier) => byFile.get(fileIdentifier) ?? new Map()
}
