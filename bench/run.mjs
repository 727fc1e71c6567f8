/**
 * The benchmark suite (`npm run bench`): Enclave (both levels) vs. fastify@4 vs. fastify@5 vs. bare node:http, each
 * server a separate process pinned to CPU 0, the load generator pinned to CPU 1. Checks every server's responses,
 * measures scenarios a–e twice: pipelined with autocannon in this process (alternating slices, each in a fresh,
 * checked and warmed-up server process) and not pipelined with wrk (lib/unpipelined-runs.mjs); then scenario f
 * (start-up) in fresh processes; prints Markdown tables and writes JSON (and docs/performance.md for a full run).
 * `node bench/run.mjs --help` lists the options.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeBinFor } from '../scripts/node-line.mjs'
import { parseOptions, MAIN_LINE, estimateSeconds, sliceSeconds, STARTUP_RUN_SECONDS, USAGE } from './lib/options.mjs'
import { startServer, pinSelf, describeMachine, waitForQuiet, LOAD_CORE } from './lib/processes.mjs'
import { checkServer, serversToMeasure } from './lib/check.mjs'
import { closeIdleSockets } from './lib/http-client.mjs'
import { runSlice } from './lib/load.mjs'
import { SCENARIOS } from './lib/scenarios.mjs'
import { summarizeThroughput } from './lib/summary.mjs'
import { rotate } from './lib/stats.mjs'
import { ensureWrk } from './lib/wrk.mjs'
import { measureUnpipelined } from './lib/unpipelined-runs.mjs'
import { measureStartup } from './lib/startup-runs.mjs'
import { renderReport, renderChecks, writeJson } from './lib/report.mjs'
import { writePerformanceDoc } from './lib/performance-doc.mjs'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const log = (message) => process.stderr.write(`${message}\n`)

/** Longest wait for a quiet machine before a measurement. */
const QUIET_WAIT_SECONDS = 5
const percent = (share) => share === null ? '?' : `${Math.round(share * 100)}%`

/** One process per server runs every correctness case; the results are reported, then the process stops. */
async function checkAll (options, letters) {
  const checks = {}
  for (const kind of options.servers) {
    const server = await startServer(kind, letters)
    if (server.unavailable) {
      checks[kind] = { unavailable: server.unavailable }
      log(`${kind}: not available — ${server.unavailable}`)
      continue
    }
    try {
      checks[kind] = await checkServer(server.port, letters)
    } finally {
      await server.stop()
    }
    const check = checks[kind]
    log(`${kind}: ${check.ok ? 'checks passed' : `${check.failures.length} check(s) FAILED`}` +
      `${check.warnings.length ? `, ${check.warnings.length} parity warning(s)` : ''}`)
  }
  return checks
}

/**
 * Keeps the whole suite within `--time-budget`: planned work is always done, re-measurements only while the rest
 * of the plan still fits.
 */
class TimeBudget {
  constructor (options) {
    this.deadline = Date.now() + options.timeBudget * 1000
    this.plannedSeconds = estimateSeconds(options)
  }

  /** Marks `seconds` of planned work as done. */
  done (seconds) {
    this.plannedSeconds = Math.max(0, this.plannedSeconds - seconds)
  }

  /** Whether `seconds` of extra work still leave room for the rest of the plan (with 15% overhead). */
  allows (seconds) {
    return Date.now() + (this.plannedSeconds + seconds) * 1150 < this.deadline
  }
}

/**
 * The machine is shared: when other processes used more than `noiseLimit` of a core during a slice, measure it
 * again (while the time budget allows) and keep the quietest attempt.
 */
async function measureQuietly (measure, options, plannedSeconds) {
  await settle(options, plannedSeconds)
  let best = await measure()
  options.budget.done(plannedSeconds)
  let retries = 0
  while (!best.failed && best.otherCpu !== null && best.otherCpu > options.noiseLimit && retries < options.maxRetries &&
    options.budget.allows(plannedSeconds + QUIET_WAIT_SECONDS)) {
    retries++
    await settle(options, plannedSeconds)
    const attempt = await measure()
    if (attempt.otherCpu < best.otherCpu) best = attempt
  }
  return { ...best, retries }
}

/** Gives a burst of other processes' work (a test run, a build) a few seconds to end, if the budget allows. */
async function settle (options, plannedSeconds) {
  if (options.budget.allows(plannedSeconds + QUIET_WAIT_SECONDS)) await waitForQuiet(options.noiseLimit, QUIET_WAIT_SECONDS)
}

/**
 * One measurement in a fresh server process: start, check the scenario again, warm up, measure one slice, stop.
 * A fresh process per slice matters: a Node process can settle into a slow state for its whole life (seen with
 * both frameworks: ~25% fewer req/s, `process.nextTick` hot), and the median over processes tolerates that.
 */
async function measureInFreshProcess (kind, letter, letters, options) {
  const server = await startServer(kind, letters)
  try {
    if (server.unavailable) return { failed: `not available: ${server.unavailable}` }
    const check = await checkServer(server.port, [letter])
    if (!check.ok || check.loadBodies[letter] === undefined) {
      return { failed: `failed check in a later process: ${check.failures.map((f) => f.check).join('; ')}` }
    }
    const load = (duration) => runSlice(server, SCENARIOS[letter], {
      duration,
      connections: options.connections,
      pipelining: options.pipelining,
      expectBody: check.loadBodies[letter]
    })
    if (options.warmup > 0) await load(options.warmup)
    return await load(options.duration)
  } finally {
    await server.stop()
  }
}

function describeSlice (kind, slice) {
  if (slice.failed) return `${kind} FAILED (${slice.failed})`
  const flags = slice.mismatches + slice.unexpectedStatus + slice.errors > 0
    ? ` [${slice.mismatches} mismatched, ${slice.unexpectedStatus} bad status, ${slice.errors} errors]`
    : ''
  const retried = slice.retries > 0 ? ` after ${slice.retries} noisy attempt(s)` : ''
  return `${kind} ${Math.round(slice.rps)}${retried} (cpu: server ${percent(slice.serverCpu)} ` +
    `load ${percent(slice.loadCpu)} other ${percent(slice.otherCpu)})${flags}`
}

async function measureScenario (letter, letters, checks, options) {
  const { measured, excluded } = serversToMeasure(options.servers, checks, letter)
  log(`\n${SCENARIOS[letter].title}: ${measured.join(', ') || 'nothing to measure'}`)
  const slices = Object.fromEntries(measured.map((kind) => [kind, []]))
  for (let round = 0; round < options.rounds; round++) {
    const line = []
    for (const kind of rotate(measured, round)) {
      const slice = await measureQuietly(() => measureInFreshProcess(kind, letter, letters, options), options,
        sliceSeconds(options))
      slices[kind].push(slice)
      line.push(describeSlice(kind, slice))
    }
    log(`  round ${round + 1}/${options.rounds}: ${line.join(', ')}`)
  }
  return summarizeThroughput(letter, slices, excluded)
}

/** The checks as published: the response bodies kept for `expectBody` would only bloat the JSON. */
function withoutBodies (checks) {
  return Object.fromEntries(Object.entries(checks).map(([kind, { loadBodies: _, ...rest }]) => [kind, rest]))
}

function publishedOptions (options) {
  const keys = ['scenarios', 'servers', 'mode', 'rounds', 'duration', 'warmup', 'connections', 'pipelining', 'wrkRounds',
    'wrkSlice', 'wrkWarmup', 'wrkSets', 'wrkThreads', 'startupRuns', 'routes', 'noiseLimit', 'maxRetries', 'timeBudget', 'quick']
  return Object.fromEntries(keys.map((key) => [key, options[key]]))
}

async function main () {
  const options = parseOptions()
  if (options.help) {
    console.log(USAGE)
    return 0
  }
  if (options.node !== '' && options.node !== process.versions.node.split('.')[0]) return rerunUnder(options.node)
  const started = Date.now()
  options.budget = new TimeBudget(options)
  const pinned = pinSelf(LOAD_CORE)
  const machine = describeMachine()
  log(`Enclave benchmark — ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, pinning: ${pinned ? 'yes' : 'no'}`)
  log(`scenarios ${options.scenarios.join(',')}, servers ${options.servers.join(',')}; ` +
    (options.pipelined ? `pipelined: ${options.rounds} rounds × ${options.duration} s, warm-up ${options.warmup} s; ` : '') +
    (options.unpipelined ? `not pipelined: ${options.wrkRounds} rounds × ${options.wrkSlice} s in ${options.wrkSets} set(s); ` : '') +
    `expected ~${Math.ceil(estimateSeconds(options) / 60)} min`)

  const letters = options.scenarios.filter((s) => s !== 'f')
  // before any measurement, so an install happens (or its absence is reported) up front
  const wrk = options.unpipelined && letters.length > 0 ? ensureWrk(options.wrk, log) : null
  if (wrk) log(wrk.unavailable ? `not pipelined: skipped — ${wrk.unavailable}` : `not pipelined: wrk ${wrk.version}`)
  const command = process.env.npm_lifecycle_event === 'bench'
    ? ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ')
    : ['node bench/run.mjs', ...process.argv.slice(2)].join(' ')
  const results = { date: new Date().toISOString(), command, machine, options: publishedOptions(options), checks: {}, throughput: {} }
  if (letters.length > 0) {
    results.checks = await checkAll(options, letters)
    try {
      if (options.pipelined) {
        for (const letter of letters) {
          results.throughput[letter] = await measureScenario(letter, letters, results.checks, options)
        }
      }
      if (wrk) {
        const settleFor = (seconds) => settle(options, seconds)
        results.unpipelined = await measureUnpipelined(letters, results.checks, options, wrk, { settle: settleFor, log })
      }
    } finally {
      closeIdleSockets()
    }
  }
  if (options.scenarios.includes('f')) {
    const quietly = (measure, plannedSeconds) => measureQuietly(measure, options, plannedSeconds)
    results.startup = await measureStartup(options, quietly, log, STARTUP_RUN_SECONDS)
  }
  results.elapsedSeconds = Math.round((Date.now() - started) / 1000)

  console.log(`\n${renderReport(results)}\n`)
  if (Object.keys(results.checks).length > 0) console.log(`Correctness checks:\n${renderChecks(results.checks)}\n`)
  const jsonFile = path.resolve(repoRoot, options.out)
  writeJson(jsonFile, { ...results, checks: withoutBodies(results.checks) })
  log(`results: ${path.relative(repoRoot, jsonFile)}`)
  if (options.writeDocs) publishDocs(options, results)
  log(`done in ${Math.round(results.elapsedSeconds / 60 * 10) / 10} min`)
  const failedChecks = Object.values(results.checks).some((c) => c.failures?.length > 0)
  return failedChecks ? 1 : 0
}

/** The same command with Node line `line`'s binary: servers and load generator all run on it. */
function rerunUnder (line) {
  const node = path.join(nodeBinFor(line), 'node')
  log(`running the suite under ${node}`)
  const run = spawnSync(node, process.argv.slice(1), { stdio: 'inherit' })
  return run.status ?? 2
}

/**
 * docs/performance.md: the main line's latest full run, and a section for each other line's latest full run
 * (bench/results/latest-nodeN.json).
 */
function publishDocs (options, results) {
  const read = (file) => JSON.parse(readFileSync(path.join(repoRoot, 'bench', 'results', file), 'utf8'))
  const main = options.otherLine ? read('latest.json') : results
  const others = ['22', '24', '26'].filter((line) => line !== MAIN_LINE)
    .map((line) => line === options.node ? results : existsSync(path.join(repoRoot, 'bench', 'results', `latest-node${line}.json`)) ? read(`latest-node${line}.json`) : null)
    .filter((run) => run !== null)
  writePerformanceDoc(path.join(repoRoot, 'docs', 'performance.md'), main, others)
  log('updated docs/performance.md')
}

main().then((code) => { process.exitCode = code }, (error) => {
  log(error?.stack ?? String(error))
  process.exitCode = 2
})
