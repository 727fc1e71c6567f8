/**
 * The plugin-suite runner (`npm run conformance:plugins`): Fastify 4 plugins' own tests run on Enclave's build — the
 * official plugins, and a list of popular community plugins kept apart from them. Each plugin listed in
 * conformance/plugins/plugins.json is fetched (npm tarball, pinned), its test dependencies installed into the cache
 * outside the repository, and its test files run as its own runner would run them (tap, node:test, jest or vitest),
 * with `fastify` resolving to the framework under test; one plugin at a time. Reports per plugin and per group, and
 * in `--ci` mode holds each group's results to its expectations file. `--help` lists the options;
 * docs/conformance.md explains the rest.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseOptions, USAGE } from './lib/options.mjs'
import { loadPluginList, loadSkippedTests, loadFlakyTests, fileId, slug, GROUPS } from './lib/plugin-list.mjs'
import { installPlugin, testsFromGit } from './lib/install.mjs'
import { waitForPorts } from './lib/ports.mjs'
import { pluginsCacheDir, prepareFastify, preparePluginTree, listFiles, testTreesDir } from './lib/trees.mjs'
import { runJsonReportSuite } from './lib/jest.mjs'
import { summarize, renderConsole, renderMarkdown, writeJson, writeText } from './lib/report.mjs'
import { runFile, runFiles } from '../lib/run-files.mjs'
import { fileResult, countTests } from '../lib/file-results.mjs'
import { SelfTestList } from '../lib/self-list.mjs'
import { checkExpectations, printGate, updateExpectations } from '../lib/expectations.mjs'
import { log } from '../lib/paths.mjs'

/**
 * The flags each file runs under, by the plugin's `runner`: tap files under none (the plugins' .taprc files give
 * none); node:test files with its TAP reporter, so that they are read as tap files are (a top-level `test()` is a
 * top-level test point), plus the plugin's own `nodeArgs` (`--import tsx` for TypeScript test files).
 */
function nodeArgsOf (plugin) {
  const base = plugin.runner === 'node:test' ? ['--test-reporter=tap'] : []
  return [...base, ...(plugin.nodeArgs ?? [])]
}

/**
 * Marks the tests of flaky-tests.txt `flaky`, keeping what they did this time as `outcome`: counted apart, neither
 * passed nor failed, so that they never gate.
 */
function markFlaky (result, flakyFor) {
  const flaky = flakyFor(result.file)
  if (flaky.size === 0) return result
  const tests = result.tests.map((test) => flaky.has(test.name) && ['pass', 'fail', 'lost'].includes(test.status)
    ? { ...test, status: 'flaky', outcome: test.status, evidence: flaky.get(test.name).reason }
    : test)
  return { ...result, tests, counts: { ...countTests(tests), flaky: tests.filter((test) => test.status === 'flaky').length } }
}

/**
 * The name of the flaky test (flaky-tests.txt) a file ended early in, or null: a file that stops, crashes or hangs in
 * a test known to be flaky loses the tests after it through no fault of theirs.
 */
function stoppedInFlakyTest (result, flaky) {
  if (result.status === 'ok' || flaky.size === 0) return null
  const culprit = result.tests.find((test) => test.unfinished) ?? result.tests.findLast((test) => test.status === 'fail')
  return culprit && flaky.has(culprit.name) ? culprit.name : null
}

function notRun (plugin, why) {
  log(`${plugin.name}@${plugin.version}: not run: ${why}`)
  return { name: plugin.name, version: plugin.version, group: plugin.group, notRun: why, files: [] }
}

/** The tap files of one plugin, each a `node` process in the plugin's tree, then its jest suite if it has one. */
async function runPluginTests (plugin, trees, options, skipsFor, flakyFor) {
  const filter = options.filePattern ? new RegExp(options.filePattern) : null
  const files = plugin.files ? listFiles(trees.tree(), new RegExp(plugin.files)).filter((file) => !filter || filter.test(file)) : []
  const timeoutSeconds = plugin.timeout ?? options.timeoutSeconds
  const fileOptions = (file) => ({ skips: skipsFor(plugin, file), grep: options.grep, timeoutSeconds, nodeArgs: nodeArgsOf(plugin), env: plugin.env })
  const selfList = new SelfTestList(trees.dir)
  const runOnSelf = options.self ? null : (file) => runFile(trees.selfTree(), file, fileOptions(file))
  const runs = await runFiles(trees.tree(), files, {
    jobs: plugin.jobs ?? options.jobs,
    optionsFor: fileOptions,
    onDone: (run) => log(`  ${plugin.name}/${run.file} ${run.timedOut ? 'HUNG' : ''} ${run.seconds.toFixed(1)}s`)
  })
  const results = []
  const resultOf = (run) => fileResult(run, plugin.name, { grep: options.grep, expectedNamesFor: (file) => selfList.namesFor(file, runOnSelf) })
  for (const run of runs) {
    let result = await resultOf(run)
    const flakyStop = stoppedInFlakyTest(result, flakyFor(fileId(plugin, run.file)))
    if (flakyStop) {
      // The tests the stop lost were never run: run the file once more, so that they are counted on their own outcome.
      log(`  ${plugin.name}/${run.file}: stopped in the flaky test "${flakyStop}"; running the file once more`)
      if (plugin.ports) await waitForPorts(plugin.ports, { log })
      result = { ...(await resultOf(await runFile(trees.tree(), run.file, fileOptions(run.file)))), rerunBecause: flakyStop }
    }
    if (options.self && !options.grep) selfList.record(result)
    results.push(result)
  }
  if (options.self && !options.grep) selfList.save()
  for (const tool of ['jest', 'vitest']) {
    if (!plugin[tool] || options.grep) continue
    const suiteResults = runJsonReportSuite(tool, trees.tree(), plugin, { timeoutSeconds: timeoutSeconds * 5, env: plugin.env, skips: skipsFor.namesOf(plugin) })
    results.push(...suiteResults.filter((result) => !filter || filter.test(result.file)))
  }
  return results.map((result) => ({ ...result, file: fileId(plugin, result.file) }))
}

async function runPlugin (plugin, list, options, fastify, skipsFor, flakyFor) {
  let gitDir = null
  if (plugin.testsFrom) {
    gitDir = testsFromGit(plugin, options.gitDirs)
    if (!gitDir) return notRun(plugin, `its npm tarball has no tests: pass --git-dir ${plugin.testsFrom.repository}=<git directory> (tag ${plugin.testsFrom.tag}) or put its snapshot in the mirrors folder`)
  }
  const { level } = options
  const dir = path.join(pluginsCacheDir(level), `${slug(plugin)}-${plugin.version}`)
  const installed = installPlugin(plugin, dir, list, gitDir)
  // Fresh copies every run (some tests write files beside themselves); the --self copy only when one is needed.
  const built = {}
  const treeFor = (target) => () => (built[target] ??= preparePluginTree(plugin, installed, gitDir, fastify(target), path.join(testTreesDir(level), `${slug(plugin)}-${target}`)))
  const target = options.self ? 'self' : 'enclave'
  const trees = { dir, tree: treeFor(target), selfTree: treeFor('self') }
  log(`${plugin.name}@${plugin.version} on ${options.self ? `fastify@${level.fastify.version} (--self)` : `Enclave (${path.basename(level.fastify.entry)})`}`)
  if (plugin.ports) await waitForPorts(plugin.ports, { log })
  const files = (await runPluginTests(plugin, trees, options, skipsFor, flakyFor)).map((result) => markFlaky(result, flakyFor))
  return { name: plugin.name, version: plugin.version, group: plugin.group, files }
}

async function main () {
  const options = parseOptions()
  if (options.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const { level } = options
  if (!options.self && !existsSync(level.fastify.entry)) throw new Error(`${level.fastify.entry} is missing: run \`npm run build\` first`)
  const started = Date.now()
  const list = loadPluginList(level, options.pluginPattern, options.group)
  const skipsFor = loadSkippedTests(level)
  const flakyFor = loadFlakyTests(level)
  const fastifyTrees = {}
  const fastify = (target) => (fastifyTrees[target] ??= prepareFastify(target, level, { compileCache: target === 'enclave' && options.compileCache }))
  const runs = []
  for (const plugin of list.plugins) runs.push(await runPlugin(plugin, list, options, fastify, skipsFor, flakyFor))
  const summary = summarize(runs, { self: options.self, seconds: (Date.now() - started) / 1000, version: level.fastify.version })
  if (options.json) writeJson(options.json, summary)
  if (options.markdown) writeText(options.markdown, renderMarkdown(summary))
  process.stdout.write(renderConsole(summary))
  const closing = () => {
    for (const group of summary.groups) process.stdout.write(`${GROUPS[group.name]}: ${group.plugins.length} plugins, ${group.total.passed} passed, ${group.total.failed} failed, ${group.total.flaky ?? 0} flaky\n`)
    process.stdout.write(`conformance:plugins: ${summary.total.passed} passed, ${summary.total.failed} failed\n`)
  }
  if (options.self) {
    closing()
    const perfect = summary.total.failed === 0 && summary.brokenFiles.length === 0
    if (!perfect) log('--self must pass 100%: a failure here is a runner, environment or skip-list problem, not Enclave\'s')
    return perfect ? 0 : 1
  }
  // Each group is held to its own expectations file, so that the community plugins' known failures stay apart.
  let ok = true
  for (const group of summary.groups) {
    const gate = checkExpectations({ files: group.files }, options, level.expectations[group.name])
    process.stdout.write(`${GROUPS[group.name]}:\n`)
    printGate(gate)
    if (options.updateExpectations) updateExpectations(gate)
    ok &&= gate.ok
  }
  closing()
  return options.ci && !ok ? 1 : 0
}

main().then((code) => { process.exitCode = code }, (error) => {
  log(`conformance:plugins: ${error.stack ?? error}`)
  process.exitCode = 2
})
