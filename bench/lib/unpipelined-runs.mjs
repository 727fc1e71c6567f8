/**
 * The non-pipelined table: wrk on the load core, 100 keep-alive connections with one request in flight each. Per
 * scenario, every server that passed its checks is up at once (each its own process on the server core) and they
 * take turns in short slices, round-robin in an order that rotates each round, so a noisy neighbour on a shared
 * machine hits all of them alike; the rounds are split over a few fresh sets of processes, because a Node process
 * can settle into a slow state for its whole life (see run.mjs).
 */
import { checkServer, serversToMeasure } from './check.mjs'
import { startServer } from './processes.mjs'
import { SCENARIOS } from './scenarios.mjs'
import { rotate } from './stats.mjs'
import { summarizeThroughput, UNPIPELINED_TARGETS } from './summary.mjs'
import { runWrkSlice, writeScript, wrkScript } from './wrk.mjs'

const percent = (share) => share === null ? '?' : `${Math.round(share * 100)}%`

function describeSlice (kind, slice) {
  if (slice.failed) return `${kind} FAILED (${slice.failed})`
  const flags = slice.mismatches + slice.errors > 0 ? ` [${slice.mismatches} wrong, ${slice.errors} errors]` : ''
  return `${kind} ${Math.round(slice.rps)} p99 ${slice.latencyP99.toFixed(1)} ms (cpu: server ${percent(slice.serverCpu)} ` +
    `wrk ${percent(slice.loadCpu)} other ${percent(slice.otherCpu)})${flags}`
}

/** Why a slice (or warm-up) shows the server cannot be measured any more, or null. */
function sliceProblem (slice) {
  if (slice.mismatches > 0) return `${slice.mismatches} responses differed from the checked one, e.g. ${slice.wrongSample}`
  if (slice.requests === 0) return 'no response under load'
  return null
}

/**
 * Starts every server of `kinds`, checks it on `letter` and warms it up; each up server gets its Lua script (the
 * expected body is the one it gave in this process's check). Servers that fail get a failed slice instead.
 */
async function startSet (kinds, letter, letters, options, slices) {
  const up = new Map()
  for (const kind of kinds) {
    const server = await startServer(kind, letters)
    const check = server.unavailable ? null : await checkServer(server.port, [letter])
    const reason = server.unavailable
      ? `not available: ${server.unavailable}`
      : !check.ok || check.loadBodies[letter] === undefined
        ? `failed check in a later process: ${check.failures.map((f) => f.check).join('; ')}`
        : null
    if (reason !== null) {
      slices[kind].push({ failed: reason })
      await server.stop()
      continue
    }
    up.set(kind, { server, script: writeScript(wrkScript(SCENARIOS[letter], check.loadBodies[letter])) })
  }
  if (options.wrkWarmup > 0) {
    for (const [kind, entry] of up) {
      const warm = await runSlice(entry, letter, options, options.wrkWarmup)
      const problem = warm.failed ?? sliceProblem(warm)
      if (problem !== null) await drop(up, kind, slices, `during warm-up: ${problem}`)
    }
  }
  return up
}

async function runSlice ({ server, script }, letter, options, duration) {
  try {
    return await runWrkSlice(server, SCENARIOS[letter], {
      wrk: options.wrk,
      scriptFile: script.file,
      duration,
      connections: options.connections,
      threads: options.wrkThreads
    })
  } catch (error) {
    return { failed: error.message }
  }
}

async function drop (up, kind, slices, reason) {
  const entry = up.get(kind)
  up.delete(kind)
  slices[kind].push({ failed: reason })
  entry.script.remove()
  await entry.server.stop()
}

async function stopSet (up) {
  for (const { server, script } of up.values()) {
    script.remove()
    await server.stop()
  }
}

/**
 * @param {{ settle: (seconds: number) => Promise<void>, log: (message: string) => void }} io
 * @returns the scenario's summary (as for the pipelined table, with issue 31's targets)
 */
async function measureScenario (letter, letters, checks, options, { settle, log }) {
  const { measured, excluded } = serversToMeasure(options.servers, checks, letter)
  log(`\n${SCENARIOS[letter].title}, not pipelined (wrk): ${measured.join(', ') || 'nothing to measure'}`)
  const slices = Object.fromEntries(measured.map((kind) => [kind, []]))
  const perSet = Math.ceil(options.wrkRounds / options.wrkSets)
  let round = 0
  for (let set = 0; set < options.wrkSets && round < options.wrkRounds; set++) {
    const up = await startSet(measured, letter, letters, options, slices)
    try {
      for (let inSet = 0; inSet < perSet && round < options.wrkRounds; inSet++, round++) {
        const roundSeconds = up.size * options.wrkSlice
        await settle(roundSeconds)
        const line = []
        for (const kind of rotate([...up.keys()], round)) {
          const slice = await runSlice(up.get(kind), letter, options, options.wrkSlice)
          slices[kind].push(slice)
          line.push(describeSlice(kind, slice))
          const problem = slice.failed ? null : sliceProblem(slice)
          if (problem !== null) await drop(up, kind, slices, problem)
        }
        options.budget.done(roundSeconds)
        log(`  round ${round + 1}/${options.wrkRounds}: ${line.join(', ')}`)
      }
    } finally {
      await stopSet(up)
    }
  }
  return summarizeThroughput(letter, slices, excluded, UNPIPELINED_TARGETS[letter])
}

/**
 * Runs the non-pipelined table for `letters`, or returns why it is skipped (no wrk).
 * @param {{ command?: string, version?: string, unavailable?: string }} wrk from `ensureWrk`
 * @param {{ settle: (seconds: number) => Promise<void>, log: (message: string) => void }} io
 */
export async function measureUnpipelined (letters, checks, options, wrk, io) {
  const method = {
    loadGenerator: wrk.version ? `wrk ${wrk.version}` : 'wrk',
    connections: options.connections,
    threads: options.wrkThreads,
    sliceSeconds: options.wrkSlice,
    rounds: options.wrkRounds,
    sets: options.wrkSets,
    warmupSeconds: options.wrkWarmup
  }
  if (wrk.unavailable) return { ...method, skipped: wrk.unavailable, throughput: {} }
  const throughput = {}
  for (const letter of letters) {
    throughput[letter] = await measureScenario(letter, letters, checks, { ...options, wrk: wrk.command }, io)
  }
  return { ...method, throughput }
}
