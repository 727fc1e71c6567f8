/** Command-line options of `conformance/run.mjs` (`npm run conformance -- [options]`). */
import { parseArgs } from 'node:util'
import { levelOf } from './levels.mjs'

export const USAGE = `Usage: npm run conformance -- [options]   (or: node conformance/run.mjs [options])
Runs fastify@4.29.1's own tests (the kept public-behaviour files, and its tsd type tests) on Enclave's build.
  --fastify <4|5>         whose suite: 4 (fastify@4.29.1, the default) or 5 (fastify@5.12.8's node:test files and
                          its tstyche type tests, with its own lists conformance/*-5.txt)
  --self                  run them on the real fastify instead (must pass 100%: proves runner and skip list)
  --file <regex>          only the test files whose path (test/...) matches
  --grep <regex>          only the top-level tests whose name matches (tap's TAP_GREP)
  --json <path>           write per-file and per-test results as JSON
  --markdown <path>       write the Markdown summary (per-area table, files that end early)
  --timeout <seconds>     per-file time limit; a file still running is killed and reported (default 60)
  --jobs <n>              test files run at once (default 2)
  --no-types              skip the types area (tsd, or tstyche for --fastify 5)
  --types-only            run only the types area
  --compile-cache         give every application a compile cache (compileCache: { dir }, one directory per test
                          process), so that the tests also run through it: first starts write, later ones load
  --ci                    gate: exit 1 when a test not in conformance/expectations.txt (-5.txt) fails, or a file crashes
                          or hangs in a way not listed there; listed tests that now pass are printed
  --update-expectations   remove from conformance/expectations.txt the entries that now pass (it only shrinks)
  --help                  this text
Environment: ENCLAVE_CONFORMANCE_CACHE (default \${XDG_CACHE_HOME:-~/.cache}/enclave-conformance).`

/** The options both runners take (this one and conformance/plugins/run.mjs), as `parseArgs` declares them. */
const COMMON_OPTIONS = {
  self: { type: 'boolean', default: false },
  file: { type: 'string' },
  grep: { type: 'string' },
  json: { type: 'string' },
  markdown: { type: 'string' },
  timeout: { type: 'string', default: '60' },
  jobs: { type: 'string', default: '2' },
  ci: { type: 'boolean', default: false },
  'update-expectations': { type: 'boolean', default: false },
  'compile-cache': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false }
}

/** `argv` parsed (strictly) with the common options and a runner's own `extra` ones: `parseArgs`' values. */
export function parseValues (argv, extra) {
  return parseArgs({ args: argv, strict: true, options: { ...COMMON_OPTIONS, ...extra } }).values
}

/** The common options read from `parseArgs`' values and checked; `patterns` names further regex options to check. */
export function commonOptions (values, patterns = {}) {
  const options = {
    self: values.self,
    filePattern: values.file,
    grep: values.grep,
    json: values.json,
    markdown: values.markdown,
    timeoutSeconds: Number(values.timeout),
    jobs: Number(values.jobs),
    ci: values.ci,
    updateExpectations: values['update-expectations'],
    compileCache: values['compile-cache'],
    help: values.help
  }
  if (!(options.timeoutSeconds > 0)) throw new Error('--timeout must be a positive number of seconds')
  if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new Error('--jobs must be a positive integer')
  if (options.self && (options.ci || options.updateExpectations)) throw new Error('--ci and --update-expectations apply to Enclave runs, not --self')
  if (options.compileCache && (options.self || options.updateExpectations)) throw new Error('--compile-cache applies to Enclave runs, without --update-expectations')
  for (const [flag, pattern] of Object.entries({ '--file': options.filePattern, '--grep': options.grep, ...patterns })) {
    if (pattern === undefined) continue
    try { new RegExp(pattern) } catch (error) { throw new Error(`${flag}: ${error.message}`) }
  }
  return options
}

export function parseOptions (argv = process.argv.slice(2)) {
  const values = parseValues(argv, {
    fastify: { type: 'string', default: '4' },
    'no-types': { type: 'boolean', default: false },
    'types-only': { type: 'boolean', default: false }
  })
  const level = levelOf(values.fastify)
  if (!level.types && values['types-only']) throw new Error(`--types-only: the type tests of fastify@${level.version} are not run`)
  const options = { ...commonOptions(values), level, tests: !values['types-only'], types: level.types && !values['no-types'] }
  if (!options.tests && !options.types) throw new Error('--no-types and --types-only exclude each other')
  return options
}
