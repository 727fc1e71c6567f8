/**
 * The official plugins' own type tests, checked against Enclave's types and against the real fastify's, and compared
 * (`node conformance/plugins/types.mjs --fastify 5`). Each plugin of the level's list (plugins-5.json for Fastify 5)
 * is unpacked twice as the plugin runner unpacks it (conformance/plugins/run.mjs), `fastify` resolving to Enclave's
 * declarations of that level in one tree and to fastify@<pinned> in the other, and its type tests are checked in each
 * by the checker its package.json uses (lib/type-tests.mjs). Prints per plugin the type test files, assertions and
 * failures on each target, then every failure found on one target only. Not a gate: docs/typescript.md records the
 * comparison.
 */
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { pluginLevelOf } from './lib/levels.mjs'
import { loadPluginList, slug } from './lib/plugin-list.mjs'
import { installPlugin, testsFromGit } from './lib/install.mjs'
import { pluginsCacheDir, prepareFastify, preparePluginTree, testTreesDir } from './lib/trees.mjs'
import { checkerOf, checkTypeTests, importedPackages, installTypeDependencies, linkTypeTools, readTreeManifest, typeTestFiles, unpackGitTypeTests } from './lib/type-tests.mjs'
import { log } from '../lib/paths.mjs'

const USAGE = `Usage: node conformance/plugins/types.mjs [options]
Checks the official plugins' own type tests (tstyche's *.tst.ts, or tsd's *.test-d.ts) against Enclave's types and
against the real fastify's, and prints both results and their differences.
  --fastify <4|5>    which releases (plugins.json or plugins-5.json), against that level's types (default 5)
  --plugin <regex>   only the plugins whose name matches
  --self             only against the real fastify
  --json <path>      write per-plugin, per-file results of both targets as JSON
  --help             this text
Environment: ENCLAVE_CONFORMANCE_CACHE, as for conformance/plugins/run.mjs (the installed plugins are read from there;
the trees with \`fastify\` are made there).`

const TARGETS = { enclave: 'Enclave', self: 'fastify' }

function parseOptions (argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      fastify: { type: 'string', default: '5' },
      plugin: { type: 'string' },
      self: { type: 'boolean', default: false },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false }
    }
  })
  return { ...values, level: pluginLevelOf(values.fastify), targets: values.self ? ['self'] : ['enclave', 'self'] }
}

/** A path outside the tree, shortened to what names it: the package under node_modules, or fastify's own file. */
const shortFile = (file) => file.replace(/^.*\/node_modules\//, 'node_modules/').replace(/^.*\/fastify-pristine-[^/]+\//, 'fastify/')

/** Every failing line of a target's result, `file :: name` → message (errors outside assertions included). */
function failuresOf (result) {
  const failures = new Map()
  for (const report of result?.files ?? []) {
    for (const line of [...report.failedLines, ...report.otherErrorLines]) failures.set(`${shortFile(report.file)} :: ${line.name}`, line.message)
  }
  return failures
}

/** One plugin checked on each target: `{ name, version, checker, files, results: { enclave?, self? } }`. */
async function checkPlugin (plugin, list, options, fastify) {
  const { level } = options
  const gitDir = plugin.testsFrom ? testsFromGit(plugin, new Map()) : null
  if (plugin.testsFrom && !gitDir) return { name: plugin.name, version: plugin.version, notRun: `no git snapshot of ${plugin.testsFrom.repository}` }
  const cached = path.join(pluginsCacheDir(level), `${slug(plugin)}-${plugin.version}`)
  const installed = installPlugin(plugin, cached, list, gitDir)
  const checked = { name: plugin.name, version: plugin.version, checker: null, files: [], results: {} }
  for (const target of options.targets) {
    const tree = preparePluginTree(plugin, installed, gitDir, fastify(target), path.join(`${testTreesDir(level)}-types`, `${slug(plugin)}-${target}`))
    const manifest = readTreeManifest(tree)
    checked.checker = checkerOf(manifest)
    if (!checked.checker) return { ...checked, notRun: 'no type tests (neither tstyche nor tsd in its devDependencies)' }
    if (gitDir) unpackGitTypeTests(plugin, gitDir, tree, checked.checker)
    checked.files = typeTestFiles(tree, checked.checker)
    if (checked.files.length === 0) return { ...checked, notRun: `no ${checked.checker} test files` }
    linkTypeTools(tree, level, installTypeDependencies(manifest, installed, `${cached}-types`, list, importedPackages(tree, checked.files)))
    checked.results[target] = await checkTypeTests(tree, checked.files, checked.checker, `${plugin.name}@${plugin.version} on ${TARGETS[target]}`)
  }
  return checked
}

function renderTable (checked, options) {
  const heads = ['plugin', 'checker', 'files', 'assertions', ...options.targets.map((target) => `failing on ${TARGETS[target]}`)]
  const rows = checked.map((plugin) => plugin.notRun
    ? [`${plugin.name}@${plugin.version}`, plugin.checker ?? '-', '-', '-', ...options.targets.map(() => plugin.notRun)]
    : [`${plugin.name}@${plugin.version}`, plugin.checker, plugin.files.length, plugin.results[options.targets[0]].assertionLines,
        ...options.targets.map((target) => {
          const result = plugin.results[target]
          return `${result.failedLines} assertions, ${result.otherErrorLines} other errors`
        })])
  return [heads, heads.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n') + '\n'
}

/** The failures found on one target only, then the count of those found on both, per plugin. */
function renderDifferences (checked) {
  const out = []
  for (const plugin of checked.filter((entry) => entry.results?.enclave && entry.results.self)) {
    const enclave = failuresOf(plugin.results.enclave)
    const self = failuresOf(plugin.results.self)
    const only = (from, other) => [...from].filter(([key]) => !other.has(key))
    const onEnclave = only(enclave, self)
    const onSelf = only(self, enclave)
    const shared = enclave.size - onEnclave.length
    if (onEnclave.length + onSelf.length + shared === 0) continue
    out.push(`${plugin.name}@${plugin.version}: ${shared} failing on both`)
    for (const [key, message] of onEnclave) out.push(`  only on Enclave: ${key}\n      ${message}`)
    for (const [key, message] of onSelf) out.push(`  only on fastify: ${key}\n      ${message}`)
    for (const [key, message] of [...enclave].filter(([name]) => self.has(name))) out.push(`  on both: ${key}\n      ${message}`)
  }
  return out.length > 0 ? out.join('\n') + '\n' : 'no failures on either target\n'
}

async function main () {
  const options = parseOptions()
  if (options.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const { level } = options
  if (options.targets.includes('enclave') && !existsSync(level.fastify.types.module)) {
    throw new Error(`${level.fastify.types.module} is missing: run \`npm run build\` first`)
  }
  const list = loadPluginList(level, options.plugin, 'official')
  const trees = {}
  const fastify = (target) => (trees[target] ??= prepareFastify(target, level))
  const checked = []
  for (const plugin of list.plugins) checked.push(await checkPlugin(plugin, list, options, fastify))
  if (options.json) writeFileSync(options.json, JSON.stringify({ fastify: level.fastify.version, plugins: checked }, null, 2) + '\n')
  process.stdout.write(renderTable(checked, options) + '\n' + (options.targets.length === 2 ? renderDifferences(checked) : ''))
  for (const target of options.targets) {
    const results = checked.map((plugin) => plugin.results?.[target]).filter(Boolean)
    const sum = (key) => results.reduce((total, result) => total + result[key], 0)
    log(`${TARGETS[target]}: ${results.length} plugins, ${sum('assertionLines')} assertions, ${sum('failedLines')} failing, ${sum('otherErrorLines')} other errors`)
  }
  return 0
}

main().then((code) => { process.exitCode = code }, (error) => {
  log(`conformance/plugins/types: ${error.stack ?? error}`)
  process.exitCode = 2
})
