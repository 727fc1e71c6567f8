/**
 * Turns raw slices and start-up runs into the results object written to JSON: medians, ratios to Fastify (and to
 * node:http), per-round ratio ranges, and the targets with pass/fail.
 */
import { median, ratio, range, round } from './stats.mjs'

/** Highest tolerated share of transport errors/timeouts under load before a measurement is rejected. */
const MAX_ERROR_SHARE = 0.001

export const TARGETS = {
  a: [{ versus: 'fastify', min: 1.10 }, { versus: 'node', min: 0.95 }],
  b: [{ versus: 'fastify', min: 1.10 }],
  c: [{ versus: 'fastify', min: 1.10 }],
  d: [{ versus: 'fastify', min: 1.15 }],
  e: [{ versus: 'fastify', min: 1.00 }]
}

export const STARTUP_TARGETS = [
  { metric: 'readyMs', label: 'process start → ready()', max: 0.5 },
  { metric: 'readyPlusFirstPassMs', label: 'ready + first request to every route', max: 0.5 },
  { metric: 'rssReadyMiB', label: 'RSS at ready', max: 1.0 }
]

/**
 * @param {Record<string, Array<object>>} slicesByServer measured slices of one scenario, in round order
 * @param {Record<string, string>} excluded server → reason it was not measured (failed checks, unavailable)
 */
export function summarizeThroughput (letter, slicesByServer, excluded) {
  const servers = {}
  for (const [kind, slices] of Object.entries(slicesByServer)) {
    const failed = slices.find((s) => s.failed)
    if (failed) {
      servers[kind] = { status: 'FAIL', reason: failed.failed }
      continue
    }
    const bad = slices.reduce((sum, s) => sum + s.mismatches + s.unexpectedStatus, 0)
    const errors = slices.reduce((sum, s) => sum + s.errors, 0)
    const total = slices.reduce((sum, s) => sum + s.requests, 0)
    const invalid = bad > 0
      ? `${bad} responses under load differed from the checked response`
      : errors > MAX_ERROR_SHARE * total ? `${errors} transport errors/timeouts under load` : null
    servers[kind] = {
      status: invalid ? 'FAIL' : 'ok',
      reason: invalid ?? undefined,
      medianRps: round(median(slices.map((s) => s.rps))),
      rounds: slices.map((s) => round(s.rps)),
      // Requests per CPU-second of the server: less sensitive than req/s to CPU time taken by other processes.
      medianPerCpuSecond: round(median(slices.map((s) => s.serverCpu ? s.rps / s.serverCpu : null))),
      latencyP99Ms: median(slices.map((s) => s.latencyP99)),
      serverCpu: round(median(slices.map((s) => s.serverCpu)), 2),
      loadCpu: round(median(slices.map((s) => s.loadCpu)), 2),
      otherCpu: round(median(slices.map((s) => s.otherCpu)), 2),
      noisyRetries: slices.reduce((sum, s) => sum + s.retries, 0)
    }
  }
  for (const [kind, reason] of Object.entries(excluded)) servers[kind] = { status: 'FAIL', reason }
  const valid = (kind) => servers[kind]?.status === 'ok' ? servers[kind] : null
  const ratios = {}
  for (const versus of ['fastify', 'node', 'baseline']) {
    const enclave = valid('enclave')
    const other = valid(versus)
    if (!enclave || !other) continue
    const perRound = enclave.rounds.map((rps, i) => ratio(rps, other.rounds[i]))
    ratios[versus] = {
      value: round(ratio(enclave.medianRps, other.medianRps), 3),
      perRoundRange: range(perRound)?.map((r) => round(r, 3)),
      perCpuSecond: round(ratio(enclave.medianPerCpuSecond, other.medianPerCpuSecond), 3)
    }
  }
  const targets = (TARGETS[letter] ?? []).map(({ versus, min }) => {
    const value = ratios[versus]?.value ?? null
    return { versus, min, value, pass: value === null ? null : value >= min }
  })
  return { servers, ratios, targets }
}

/** @param {Record<string, object[]>} runsByFramework STARTUP_RESULT objects per framework */
export function summarizeStartup (runsByFramework, routes) {
  const frameworks = {}
  for (const [kind, runs] of Object.entries(runsByFramework)) {
    const unavailable = runs.find((r) => r.unavailable)?.unavailable
    const wrong = runs.reduce((sum, r) => sum + (r.wrongResponses ?? 0), 0)
    if (unavailable || runs.length === 0) {
      frameworks[kind] = { status: 'FAIL', reason: unavailable ?? 'no runs' }
      continue
    }
    const summary = { status: wrong > 0 ? 'FAIL' : 'ok', runs: runs.length }
    if (wrong > 0) summary.reason = `${wrong} wrong responses to the per-route requests`
    for (const metric of ['bootMs', 'readyMs', 'rssReadyMiB', 'firstPassMs', 'secondPassMs', 'readyPlusFirstPassMs', 'rssAfterMiB']) {
      summary[metric] = round(median(runs.map((r) => r[metric])), 1)
    }
    summary.readyMsRuns = runs.map((r) => round(r.readyMs))
    frameworks[kind] = summary
  }
  const ok = (kind) => frameworks[kind]?.status === 'ok' ? frameworks[kind] : null
  const targets = STARTUP_TARGETS.map(({ metric, label, max }) => {
    const value = ok('enclave') && ok('fastify') ? round(ratio(ok('enclave')[metric], ok('fastify')[metric]), 3) : null
    return { metric, label, max, value, pass: value === null ? null : value <= max }
  })
  return { routes, frameworks, targets }
}
