/**
 * Turns raw slices and start-up runs into the results object written to JSON: medians, ratios to the best Fastify
 * (4 or 5, whichever did better in that scenario) and to bare node:http, per-round ratio ranges, CPU shares, and
 * the targets with pass/fail: issue 18's for the pipelined table, issue 31's for the non-pipelined one.
 */
import { median, ratio, range, round } from './stats.mjs'

/** Highest tolerated share of transport errors/timeouts under load before a measurement is rejected. */
const MAX_ERROR_SHARE = 0.001

export const FASTIFY_SERVERS = ['fastify', 'fastify5']

const throughputTargets = [{ versus: 'bestFastify', min: 1.05 }, { versus: 'node', min: 0.97 }]
export const TARGETS = { a: throughputTargets, b: throughputTargets, c: throughputTargets, d: throughputTargets, e: throughputTargets }

/** Without pipelining (wrk, one request in flight per connection): what browsers, proxies and `fetch` send. */
const unpipelinedTargets = [{ versus: 'fastify5', min: 1.10 }, { versus: 'node', min: 0.95 }]
export const UNPIPELINED_TARGETS = { a: unpipelinedTargets, b: unpipelinedTargets, c: unpipelinedTargets, d: unpipelinedTargets, e: unpipelinedTargets }

/** Start-up targets: Enclave cold, Enclave warm (compile cache) and RSS, each against the best Fastify cold start. */
export const STARTUP_TARGETS = [
  { variant: 'enclave', metric: 'readyPlusFirstPassMs', label: 'ready + first request to every route', max: 0.5 },
  { variant: 'enclave-warm', metric: 'readyPlusFirstPassMs', label: 'ready + first request to every route', max: 0.1 },
  // issue 31: against the physical floor of the same run, a bare node:http server's boot and cold round trips
  { variant: 'enclave-warm', metric: 'readyPlusFirstPassMs', label: 'ready + first request to every route', max: 1.5, versus: 'node' },
  { variant: 'enclave', metric: 'rssReadyMiB', label: 'RSS at ready', max: 1.0, versus: 'lowest' },
  { variant: 'enclave', metric: 'rssAfterMiB', label: 'RSS after the requests', max: 1.0, versus: 'lowest' }
]

function summarizeServer (slices) {
  const failed = slices.find((s) => s.failed)
  if (failed) return { status: 'FAIL', reason: failed.failed }
  const bad = slices.reduce((sum, s) => sum + s.mismatches + s.unexpectedStatus, 0)
  const errors = slices.reduce((sum, s) => sum + s.errors, 0)
  const total = slices.reduce((sum, s) => sum + s.requests, 0)
  const invalid = bad > 0
    ? `${bad} responses under load differed from the checked response`
    : errors > MAX_ERROR_SHARE * total ? `${errors} transport errors/timeouts under load` : null
  return {
    status: invalid ? 'FAIL' : 'ok',
    reason: invalid ?? undefined,
    medianRps: round(median(slices.map((s) => s.rps))),
    rounds: slices.map((s) => round(s.rps)),
    // the spread of the slices: lowest and highest req/s
    rpsRange: range(slices.map((s) => s.rps))?.map((r) => round(r)),
    // Requests per CPU-second of the server: less sensitive than req/s to CPU time taken by other processes.
    medianPerCpuSecond: round(median(slices.map((s) => s.serverCpu ? s.rps / s.serverCpu : null))),
    userUsPerRequest: round(median(slices.map((s) => s.userUsPerRequest)), 2),
    systemUsPerRequest: round(median(slices.map((s) => s.systemUsPerRequest)), 2),
    latencyP50Ms: round(median(slices.map((s) => s.latencyP50)), 3),
    latencyP99Ms: round(median(slices.map((s) => s.latencyP99)), 3),
    serverCpu: round(median(slices.map((s) => s.serverCpu)), 2),
    loadCpu: round(median(slices.map((s) => s.loadCpu)), 2),
    // the load generator's CPU share in every slice, in round order: near 1 means that slice was client-bound
    loadCpuPerSlice: slices.map((s) => round(s.loadCpu, 2)),
    serverCpuPerSlice: slices.map((s) => round(s.serverCpu, 2)),
    otherCpu: round(median(slices.map((s) => s.otherCpu)), 2),
    noisyRetries: slices.reduce((sum, s) => sum + s.retries, 0)
  }
}

/** The Fastify that did better in this scenario (higher median req/s), as a server summary of its own. */
function bestFastify (servers) {
  const candidates = FASTIFY_SERVERS.map((kind) => servers[kind]).filter((s) => s?.status === 'ok')
  if (candidates.length === 0) return null
  const best = candidates.reduce((a, b) => (b.medianRps > a.medianRps ? b : a))
  const perCpu = candidates.map((s) => s.medianPerCpuSecond).filter((v) => v !== null)
  return {
    kind: FASTIFY_SERVERS.find((kind) => servers[kind] === best),
    medianRps: best.medianRps,
    // per round, the better of the two Fastify slices of that round
    rounds: best.rounds.map((_, i) => Math.max(...candidates.map((s) => s.rounds[i] ?? 0))),
    medianPerCpuSecond: perCpu.length > 0 ? Math.max(...perCpu) : null
  }
}

/**
 * @param {Record<string, Array<object>>} slicesByServer measured slices of one scenario, in round order
 * @param {Record<string, string>} excluded server → reason it was not measured (failed checks, unavailable)
 * @param {Array<{ versus: string, min: number }>} targets the pipelined table's by default
 */
export function summarizeThroughput (letter, slicesByServer, excluded, targetList = TARGETS[letter] ?? []) {
  const servers = {}
  for (const [kind, slices] of Object.entries(slicesByServer)) servers[kind] = summarizeServer(slices)
  for (const [kind, reason] of Object.entries(excluded)) servers[kind] = { status: 'FAIL', reason }
  const valid = (kind) => servers[kind]?.status === 'ok' ? servers[kind] : null
  const best = bestFastify(servers)
  const ratios = {}
  for (const versus of ['bestFastify', ...FASTIFY_SERVERS, 'node', 'baseline']) {
    const enclave = valid('enclave')
    const other = versus === 'bestFastify' ? best : valid(versus)
    if (!enclave || !other) continue
    const perRound = enclave.rounds.map((rps, i) => ratio(rps, other.rounds[i]))
    ratios[versus] = {
      value: round(ratio(enclave.medianRps, other.medianRps), 3),
      perRoundRange: range(perRound)?.map((r) => round(r, 3)),
      perCpuSecond: round(ratio(enclave.medianPerCpuSecond, other.medianPerCpuSecond), 3)
    }
  }
  const targets = targetList.map(({ versus, min }) => {
    const value = ratios[versus]?.value ?? null
    return { versus, min, value, pass: value === null ? null : value >= min }
  })
  return { servers, bestFastify: best?.kind ?? null, ratios, levels: levelRatio(valid('enclave5'), valid('enclave')), targets }
}

/** Enclave's Fastify 5 level ÷ its Fastify 4 level: the level policy is meant to cost nothing per request (≈ 1). */
function levelRatio (v5, v4) {
  if (!v5 || !v4) return null
  return {
    value: round(ratio(v5.medianRps, v4.medianRps), 3),
    perRoundRange: range(v5.rounds.map((rps, i) => ratio(rps, v4.rounds[i])))?.map((r) => round(r, 3))
  }
}

const STARTUP_REFERENCES = { best: 'best Fastify', lowest: 'lowest Fastify', node: 'node:http floor' }

const STARTUP_METRICS = ['bootMs', 'readyMs', 'rssReadyMiB', 'firstPassMs', 'secondPassMs', 'readyPlusFirstPassMs',
  'rssAfterMiB', 'firstP50Ms', 'firstP99Ms', 'firstMaxMs', 'secondP50Ms', 'secondP99Ms', 'precompileMs']

/** @param {Record<string, object[]>} runsByVariant STARTUP_RESULT objects per variant (enclave, enclave-warm, fastify, fastify5) */
export function summarizeStartup (runsByVariant, routes) {
  const frameworks = {}
  for (const [variant, runs] of Object.entries(runsByVariant)) {
    const unavailable = runs.find((r) => r.unavailable)?.unavailable
    const wrong = runs.reduce((sum, r) => sum + (r.wrongResponses ?? 0), 0)
    if (unavailable || runs.length === 0) {
      frameworks[variant] = { status: 'FAIL', reason: unavailable ?? 'no runs' }
      continue
    }
    const summary = { status: wrong > 0 ? 'FAIL' : 'ok', runs: runs.length }
    if (wrong > 0) summary.reason = `${wrong} wrong responses to the per-route requests`
    for (const metric of STARTUP_METRICS) {
      if (runs.some((r) => typeof r[metric] === 'number')) summary[metric] = round(median(runs.map((r) => r[metric])), metric.includes('P') ? 2 : 1)
    }
    summary.readyMsRuns = runs.map((r) => round(r.readyMs))
    summary.otherCpu = round(median(runs.map((r) => r.otherCpu)), 2)
    frameworks[variant] = summary
  }
  const ok = (variant) => frameworks[variant]?.status === 'ok' ? frameworks[variant] : null
  const fastifies = FASTIFY_SERVERS.map(ok).filter(Boolean)
  // the best Fastify cold start: the lower ready + first pass
  const best = fastifies.length === 0 ? null : fastifies.reduce((a, b) => (b.readyPlusFirstPassMs < a.readyPlusFirstPassMs ? b : a))
  const bestKind = best === null ? null : FASTIFY_SERVERS.find((kind) => frameworks[kind] === best)
  const targets = STARTUP_TARGETS.map(({ variant, metric, label, max, versus }) => {
    const reference = versus === 'node'
      ? ok('node')?.[metric] ?? null
      : versus === 'lowest' && fastifies.length > 0 ? Math.min(...fastifies.map((f) => f[metric])) : best?.[metric] ?? null
    const value = ok(variant) && reference !== null ? round(ratio(ok(variant)[metric], reference), 3) : null
    return { variant, metric, label, max, versus: STARTUP_REFERENCES[versus ?? 'best'], value, pass: value === null ? null : value <= max }
  })
  return { routes, bestFastify: bestKind, frameworks, targets }
}
