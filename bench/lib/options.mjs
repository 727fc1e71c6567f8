/**
 * Command-line options of `bench/run.mjs`. Every option can also come from an environment variable
 * (`--rounds 3` or `BENCH_ROUNDS=3`), which is handy through `npm run bench`.
 */

const DEFAULTS = {
  scenarios: 'a,b,c,d,e,f',
  servers: 'enclave,enclave5,fastify,fastify5,node',
  rounds: 7,
  duration: 4,
  warmup: 2,
  connections: 100,
  pipelining: 10,
  mode: 'both',
  wrk: 'wrk',
  wrkRounds: 8,
  wrkSlice: 2,
  wrkWarmup: 2,
  wrkSets: 2,
  wrkThreads: 1,
  startupRuns: 5,
  routes: 1000,
  noiseLimit: 0.25,
  maxRetries: 2,
  timeBudget: 2400,
  docs: 'auto',
  out: '',
  node: ''
}

/** The Node line of the main published run (docs/performance.md): the machines' own. Other lines get a section. */
export const MAIN_LINE = '20'

const KNOWN_SERVERS = ['enclave', 'enclave5', 'fastify', 'fastify5', 'node', 'baseline']
/** A run that measures all of these (and every scenario, not quick) is a full run: it publishes docs/performance.md. */
const FULL_SET = ['enclave', 'enclave5', 'fastify', 'fastify5', 'node']

/** `--quick`: a few minutes, for checking the harness, not for publishing numbers. */
const QUICK = { rounds: 2, duration: 2, warmup: 1, startupRuns: 2, wrkRounds: 3, wrkSlice: 1, wrkWarmup: 1, wrkSets: 1 }

/** Which load tables to measure: pipelined (autocannon), not pipelined (wrk), or both. */
const MODES = ['both', 'pipelined', 'unpipelined']

export const USAGE = `Usage: node bench/run.mjs [options]   (or: npm run bench -- [options])
  --quick              ~6 min smoke run (rounds 2, duration 2 s, warm-up 1 s, 2 start-up runs; wrk: 3 rounds
                       of 1 s slices, 1 s warm-up, one set of processes)
  --mode M             both (default): the pipelined table (autocannon) and the non-pipelined one (wrk);
                       pipelined or unpipelined: only that one
  --scenarios a,b,..   scenarios to run (a–f; default all)
  --servers x,y        servers among enclave (its Fastify 4 level), enclave5 (its Fastify 5 level), fastify (4),
                       fastify5, node (default all), and baseline: the Enclave
                       build at BENCH_BASELINE, for an A/B run of a change
  --rounds N           alternation rounds per scenario (default 7)
  --duration S         seconds per measured slice (default 4)
  --warmup S           seconds of warm-up of each fresh server process before its slice (default 2)
  --connections N      connections of either load generator (default 100)
  --pipelining N       autocannon pipelining (default 10)
  --wrk PATH           wrk binary of the non-pipelined table (default wrk on the PATH, installed with apt-get
                       when missing and running as root; otherwise that table is skipped)
  --wrk-rounds N       non-pipelined: slices per server, alternated round-robin among all servers (default 8)
  --wrk-slice S        non-pipelined: seconds per slice (default 2; whole seconds)
  --wrk-warmup S       non-pipelined: seconds of warm-up of each server process (default 2)
  --wrk-sets N         non-pipelined: fresh sets of server processes the rounds are split over (default 2)
  --wrk-threads N      wrk threads, all on the load core (default 1)
  --startup-runs N     runs per variant (Enclave cold and warm, Fastify 4, Fastify 5, node:http floor) for scenario f (default 5)
  --routes N           routes for scenario f (default 1000)
  --noise-limit C      re-measure a slice when other processes used more than C cores (default 0.25)
  --max-retries N      re-measurements per slice (default 2)
  --time-budget S      re-measure only while the rest of the plan still fits in S seconds (default 2400)
  --docs / --no-docs   write docs/performance.md (default: only for a full, non-quick run)
  --out FILE           JSON output (default bench/results/latest.json, or quick.json for partial runs; a full run
                       under --node N: latest-nodeN.json)
  --node N             run the whole suite (servers and load generator) under Node line N, fetched by
                       scripts/node-line.mjs (22, 24); a full run adds an "On Node N" section to docs/performance.md
Environment: BENCH_QUICK=1, BENCH_SCENARIOS, BENCH_SERVERS, BENCH_ROUNDS, BENCH_DURATION, BENCH_WARMUP, …`

function envName (key) {
  return 'BENCH_' + key.replace(/[A-Z]/g, (letter) => '_' + letter).toUpperCase()
}

function camelCase (flag) {
  return flag.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase())
}

/** The value after `--name` in a small script's arguments, or `fallback` (the one-purpose scripts beside run.mjs). */
export function optionValue (args, name, fallback) {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}

export function parseOptions (argv = process.argv.slice(2), env = process.env) {
  const given = {}
  for (const key of Object.keys(DEFAULTS)) {
    if (env[envName(key)] !== undefined) given[key] = env[envName(key)]
  }
  let quick = env.BENCH_QUICK === '1'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--help' || arg === '-h') return { help: true }
    if (arg === '--quick') { quick = true; continue }
    if (arg === '--docs' || arg === '--no-docs') { given.docs = arg === '--docs' ? 'yes' : 'no'; continue }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    const key = match && camelCase(match[1])
    if (!key || !(key in DEFAULTS)) throw new Error(`unknown option ${arg}\n${USAGE}`)
    given[key] = match[2] ?? argv[++i]
  }
  const options = { ...DEFAULTS, ...(quick ? QUICK : {}), ...given, quick }
  for (const key of ['rounds', 'duration', 'warmup', 'connections', 'pipelining', 'startupRuns', 'routes', 'noiseLimit',
    'maxRetries', 'timeBudget', 'wrkRounds', 'wrkSlice', 'wrkWarmup', 'wrkSets', 'wrkThreads']) {
    options[key] = Number(options[key])
    if (!Number.isFinite(options[key]) || options[key] < 0) throw new Error(`--${key} must be a non-negative number`)
  }
  for (const key of ['wrkSlice', 'wrkWarmup', 'wrkSets', 'wrkThreads']) {
    if (!Number.isInteger(options[key]) || (key !== 'wrkWarmup' && options[key] < 1)) throw new Error(`--${key} must be a whole number${key === 'wrkWarmup' ? '' : ' ≥ 1'}`)
  }
  if (!MODES.includes(options.mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`)
  options.pipelined = options.mode !== 'unpipelined'
  options.unpipelined = options.mode !== 'pipelined'
  options.scenarios = options.scenarios.split(',').map((s) => s.trim()).filter(Boolean)
  options.servers = options.servers.split(',').map((s) => s.trim()).filter(Boolean)
  const unknownScenario = options.scenarios.find((s) => !'abcdef'.includes(s) || s.length !== 1)
  if (unknownScenario) throw new Error(`unknown scenario "${unknownScenario}" (a–f)`)
  const unknownServer = options.servers.find((s) => !KNOWN_SERVERS.includes(s))
  if (unknownServer) throw new Error(`unknown server "${unknownServer}"`)
  const complete = !quick && options.mode === 'both' && options.scenarios.length === 6 && FULL_SET.every((s) => options.servers.includes(s))
  options.writeDocs = options.docs === 'auto' ? complete : options.docs === 'yes'
  if (options.node !== '' && !/^\d+$/.test(options.node)) throw new Error('--node must be a Node major version, such as 24')
  options.otherLine = options.node !== '' && options.node !== MAIN_LINE
  if (!options.out) options.out = !complete ? 'bench/results/quick.json' : options.otherLine ? `bench/results/latest-node${options.node}.json` : 'bench/results/latest.json'
  return options
}

/** A rough duration of one start-up run (1,000 routes), for planning. */
export const STARTUP_RUN_SECONDS = 4

/** Planned seconds of one throughput measurement: server start-up and checks, warm-up, the slice. */
export function sliceSeconds (options) {
  return 1 + options.warmup + options.duration
}

/** Planned seconds of one scenario of the non-pipelined table: each set starts and warms up every server, then the rounds. */
export function unpipelinedSeconds (options) {
  const servers = options.servers.length
  return options.wrkSets * servers * (1 + options.wrkWarmup) + options.wrkRounds * servers * options.wrkSlice
}

/** Seconds the run should take without re-measurements. */
export function estimateSeconds (options) {
  const throughputScenarios = options.scenarios.filter((s) => s !== 'f').length
  const perServer = options.pipelined ? options.rounds * sliceSeconds(options) : 0
  const unpipelined = options.unpipelined ? throughputScenarios * unpipelinedSeconds(options) : 0
  // Enclave runs twice (cold and warm); the baseline has no start-up scenario
  const variants = options.servers.filter((s) => s !== 'baseline').length + (options.servers.includes('enclave') ? 1 : 0)
  const startup = options.scenarios.includes('f') ? options.startupRuns * variants * STARTUP_RUN_SECONDS : 0
  return throughputScenarios * options.servers.length * perServer + unpipelined + startup
}
