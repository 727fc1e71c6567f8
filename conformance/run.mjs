/**
 * The conformance runner (`npm run conformance`): fastify@4.29.1's own tests run on Enclave's build (or, with
 * `--fastify 5`, fastify@5.12.8's: conformance/lib/levels.mjs). Fetches and checks Fastify's package into a cache
 * outside the repository, points its entry at the framework under test, runs the kept test files (and the type tests
 * as the `types` area: tsd for 4.29.1, tstyche for 5.12.8), reports per file and per area, and in `--ci` mode holds
 * the results to the level's expectations file. `--help` lists the options; docs/conformance.md explains the rest.
 */
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { parseOptions, USAGE } from './lib/options.mjs'
import { cacheDir, fetchTarball, installDependencies } from './lib/cache.mjs'
import { prepareTestTree, preparePristine, enclaveTarget } from './lib/shim.mjs'
import { selectFiles, loadSkippedTests } from './lib/selection.mjs'
import { runFile, runFiles } from './lib/run-files.mjs'
import { fileResult } from './lib/file-results.mjs'
import { SelfTestList } from './lib/self-list.mjs'
import { runTypeTests } from './lib/type-tests.mjs'
import { summarize, renderMarkdown, renderConsole, writeJson, writeText } from './lib/report.mjs'
import { checkExpectations, printGate, updateExpectations } from './lib/expectations.mjs'
import { checkoutId, log } from './lib/paths.mjs'
import { nodeArgsFor } from './lib/levels.mjs'

function prepare (options) {
  const { entry, types } = options.level
  if (!options.self && !existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`)
  const dir = cacheDir(process.env, options.level)
  mkdirSync(dir, { recursive: true })
  const tarball = fetchTarball(dir, options.level)
  const dependencies = installDependencies(dir, options.level)
  const fastify = preparePristine(tarball, path.join(dir, 'fastify'), dependencies)
  const enclave = enclaveTarget({ compileCache: options.compileCache, entry, types })
  // A tree for each target and checkout, fresh every run: some tests write files beside themselves.
  const tree = (name, target) => () => prepareTestTree(tarball, path.join(dir, `tests-${name}-${checkoutId}`), dependencies, target)
  const selfTree = tree('self', fastify)
  return { dir, tree: options.self ? selfTree() : tree('enclave', enclave)(), selfTree }
}

async function runTestFiles (options, { dir, tree, selfTree }) {
  const { level } = options
  const files = selectFiles(tree, options.filePattern, level)
  const skipsFor = loadSkippedTests(level)
  const selfList = new SelfTestList(dir)
  const areaOf = new Map(files.map(({ file, area }) => [file, area]))
  const fileOptions = (file, grep) => ({ skips: skipsFor(file), grep, timeoutSeconds: options.timeoutSeconds, nodeArgs: nodeArgsFor(level, grep) })
  const runOptions = (file) => fileOptions(file, options.grep)
  let builtSelfTree = null
  const runOnSelf = options.self ? null : (file) => runFile(builtSelfTree ??= selfTree(), file, fileOptions(file))
  const name = `fastify@${level.version}`
  log(`running ${files.length} test files of ${name} on ${options.self ? `${name} itself (--self)` : 'Enclave'}, ${options.jobs} at a time`)
  const runs = await runFiles(tree, files.map(({ file }) => file), {
    jobs: options.jobs,
    optionsFor: runOptions,
    onDone: (run) => log(`  ${run.file} ${run.timedOut ? 'HUNG' : ''} ${run.seconds.toFixed(1)}s`)
  })
  const results = []
  for (const run of runs) {
    const result = await fileResult(run, areaOf.get(run.file), {
      grep: options.grep,
      expectedNamesFor: (file) => selfList.namesFor(file, runOnSelf)
    })
    if (options.self && !options.grep) selfList.record(result)
    results.push(result)
  }
  if (options.self && !options.grep) selfList.save()
  return results
}

async function main () {
  const options = parseOptions()
  if (options.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const started = Date.now()
  const prepared = prepare(options)
  const files = options.tests ? await runTestFiles(options, prepared) : []
  const types = options.types && !options.grep ? await runTypeTests(prepared.tree, options.filePattern, options.level) : null
  const summary = summarize(files, types, { self: options.self, seconds: (Date.now() - started) / 1000, version: options.level.version })
  if (options.json) writeJson(options.json, summary)
  if (options.markdown) writeText(options.markdown, renderMarkdown(summary))
  process.stdout.write(renderConsole(summary))
  const closing = () => process.stdout.write(`conformance: ${summary.total.passed} passed, ${summary.total.failed} failed\n`)
  if (options.self) {
    closing()
    const perfect = summary.total.failed === 0 && summary.brokenFiles.length === 0 && !types?.failedLines && !types?.otherErrorLines
    if (!perfect) log('--self must pass 100%: a failure here is a runner or skip-list problem, not Enclave\'s')
    return perfect ? 0 : 1
  }
  const gate = checkExpectations(summary, options, options.level.expectations)
  printGate(gate)
  if (options.updateExpectations) updateExpectations(gate)
  closing()
  return options.ci && !gate.ok ? 1 : 0
}

main().then((code) => { process.exitCode = code }, (error) => {
  log(`conformance: ${error.stack ?? error}`)
  process.exitCode = 2
})
