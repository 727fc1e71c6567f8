/** The cells and marks shared by the report's tables: server names, numbers, ratios, targets. */

export const SERVER_NAMES = { enclave: 'Enclave', enclave5: 'Enclave (v5 level)', fastify: 'Fastify 4', fastify5: 'Fastify 5', node: 'node:http', baseline: 'baseline' }
/** Below this share of a core, the server was probably not the bottleneck (marked †). */
export const SATURATED_CPU = 0.9
/** Other processes using less than this (cores) count as a quiet machine. */
const QUIET_CPU = 0.1
/** The load generator above this share of its core: the slice was (close to) client-bound. */
export const CLIENT_BOUND_CPU = 0.9
/** How a target names what it compares with. */
const VERSUS_NAMES = { bestFastify: 'F', fastify: 'F4', fastify5: 'F5', node: 'node' }

export const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

export const fixed = (value, digits) => (typeof value === 'number' ? value.toFixed(digits) : '—')

/** † load-generator bound (server not saturated on a quiet machine); ‡ other processes competed for the CPUs. */
export function marks (server, noiseLimit) {
  const other = server.otherCpu ?? 0
  const unsaturated = server.serverCpu !== null && server.serverCpu < SATURATED_CPU
  if (other > noiseLimit || (unsaturated && other > QUIET_CPU)) return ' ‡'
  return unsaturated ? ' †' : ''
}

/** Median req/s of one server, with its marks; `spread` adds the lowest and highest slice. */
export function rpsCell (server, noiseLimit, spread = false) {
  if (!server) return '—'
  if (server.status !== 'ok') return 'FAIL'
  const range = spread && server.rpsRange ? ` (${server.rpsRange.map((v) => number.format(v)).join('–')})` : ''
  return `${number.format(server.medianRps)}${range}${marks(server, noiseLimit)}`
}

/** The load generator's share of its core in every slice, in round order; `!` marks a (nearly) client-bound slice. */
export function loadCpuCell (perSlice = []) {
  return `${perSlice.map((v) => (v === null ? '?' : `${Math.round(v * 100)}${v >= CLIENT_BOUND_CPU ? '!' : ''}`)).join(' ')} %`
}

export function ratioCell (r) {
  if (!r) return '—'
  const spread = r.perRoundRange ? ` (${r.perRoundRange[0].toFixed(2)}–${r.perRoundRange[1].toFixed(2)})` : ''
  return `${r.value.toFixed(2)}×${spread}`
}

export function verdict (targets) {
  if (targets.length === 0) return ''
  const text = targets.map((t) => `≥${t.min.toFixed(2)}× ${VERSUS_NAMES[t.versus] ?? t.versus}`).join(', ')
  const passes = targets.map((t) => t.pass)
  const mark = passes.includes(null) ? '?' : passes.every(Boolean) ? 'pass' : 'miss'
  return `${text} — ${mark}`
}

const NOISY_NOTE = '‡ other processes on the shared machine took CPU time during these slices even after re-measuring: treat with care (see the per-CPU-s column).'

/** The marks used in `throughput` (a table's scenarios), explained; and every server that failed there. */
export function markNotes (throughput, noiseLimit, noisyNote = NOISY_NOTE) {
  const notes = []
  const used = new Set()
  for (const row of Object.values(throughput)) {
    for (const server of Object.values(row.servers)) if (server.status === 'ok') used.add(marks(server, noiseLimit).trim())
  }
  if (used.has('†')) notes.push(`† the server used less than ${SATURATED_CPU * 100}% of its core on a quiet machine: the load generator may have been the limit.`)
  if (used.has('‡')) notes.push(noisyNote)
  for (const [letter, row] of Object.entries(throughput)) {
    for (const [kind, server] of Object.entries(row.servers)) {
      if (server.status !== 'ok') notes.push(`FAIL ${letter}/${SERVER_NAMES[kind] ?? kind}: ${server.reason}`)
    }
  }
  return notes
}

/**
 * Per scenario and server: latency (when `latency`), where the server's CPU went per request, and the load
 * generator's share of its core in every slice.
 */
export function renderServerDetails (throughput, { latency = false, loadGenerator = 'load generator' } = {}) {
  const lines = [
    `| Scenario | server |${latency ? ' latency p50 / p99 (ms) |' : ''} server CPU | user µs/req | system µs/req | ${loadGenerator} CPU, per slice | other processes |`,
    `|---|---|${latency ? '--:|' : ''}--:|--:|--:|---|--:|`
  ]
  for (const [letter, row] of Object.entries(throughput)) {
    for (const [kind, server] of Object.entries(row.servers)) {
      if (server.status !== 'ok') continue
      const latencyCell = latency ? ` ${fixed(server.latencyP50Ms, 2)} / ${fixed(server.latencyP99Ms, 2)} |` : ''
      lines.push(`| ${letter} | ${SERVER_NAMES[kind] ?? kind} |${latencyCell} ${fixed(server.serverCpu, 2)} | ${fixed(server.userUsPerRequest, 2)} | ` +
        `${fixed(server.systemUsPerRequest, 2)} | ${loadCpuCell(server.loadCpuPerSlice)} | ${fixed(server.otherCpu, 2)} |`)
    }
  }
  return lines.join('\n')
}
