/**
 * The non-pipelined table of a run (wrk, one request in flight per connection): req/s with the spread of the
 * slices, the ratios that issue 31's targets are about (÷ Fastify 5, ÷ node:http) and the level ratio; then
 * latency, server CPU and the load generator's share of its core per server.
 */
import { SCENARIOS } from './scenarios.mjs'
import { markNotes, ratioCell, renderServerDetails, rpsCell, verdict } from './report-cells.mjs'

const NOISY_NOTE = '‡ other processes on the shared machine took CPU time during these slices: they took it from every ' +
  'server alike (round-robin), but treat absolute numbers with care.'

export function renderUnpipelinedTable (run, noiseLimit) {
  const lines = [
    '| Scenario | Enclave req/s | Enclave v5 level req/s | Fastify 4 req/s | Fastify 5 req/s | node:http req/s | Enclave ÷ Fastify 5 | Enclave ÷ node:http | v5 level ÷ v4 level | Target |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|'
  ]
  for (const [letter, row] of Object.entries(run.throughput)) {
    const cell = (kind) => rpsCell(row.servers[kind], noiseLimit, true)
    lines.push(`| ${SCENARIOS[letter].title} | ${cell('enclave')} | ${cell('enclave5')} | ${cell('fastify')} | ${cell('fastify5')} | ` +
      `${cell('node')} | ${ratioCell(row.ratios.fastify5)} | ${ratioCell(row.ratios.node)} | ${ratioCell(row.levels)} | ${verdict(row.targets)} |`)
  }
  return lines.join('\n')
}

/** Per scenario and server: latency percentiles, where the server's CPU went, and wrk's share of its core per slice. */
export function renderUnpipelinedDetails (run) {
  return renderServerDetails(run.throughput, { latency: true, loadGenerator: 'wrk' })
}

export function renderUnpipelinedNotes (run, noiseLimit) {
  const notes = [
    `Median req/s over ${run.rounds} slices of ${run.sliceSeconds} s per server, in parentheses the lowest and highest slice. ` +
    'The servers were all up at once and took turns round-robin, in an order that rotates each round, so other processes ' +
    `on the machine hit all of them alike; the rounds were split over ${run.sets} set(s) of fresh server processes, each ` +
    `checked and warmed up for ${run.warmupSeconds} s. ${run.loadGenerator}, ${run.connections} keep-alive connections with ` +
    `one request in flight each, ${run.threads} thread(s) on the load core. Every response's status and body were compared ` +
    'with the checked ones. Ratios are of medians; parentheses give the range of the per-round ratios. Targets (issue 31): ' +
    '≥1.10× Fastify 5 and ≥0.95× node:http in every scenario.'
  ]
  notes.push(...markNotes(run.throughput, noiseLimit, NOISY_NOTE))
  return notes.join('\n')
}

/** The whole section as printed after a run: heading, table, notes and details, or why it was skipped. */
export function renderUnpipelined (results) {
  const run = results.unpipelined
  const heading = `### Not pipelined (wrk, ${run.connections} connections × 1 request in flight)`
  if (run.skipped) return `${heading}\n\nSkipped: ${run.skipped}`
  const noise = results.options.noiseLimit
  return [heading, '', renderUnpipelinedTable(run, noise), '', renderUnpipelinedNotes(run, noise), '', renderUnpipelinedDetails(run)].join('\n')
}
