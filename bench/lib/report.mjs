/**
 * Output of a run: the Markdown tables printed to stdout and the JSON results file (docs/performance.md:
 * performance-doc.mjs).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { SCENARIOS } from './scenarios.mjs'
import { SERVER_NAMES, fixed, markNotes, ratioCell, renderServerDetails, rpsCell, verdict } from './report-cells.mjs'
import { renderUnpipelined } from './report-unpipelined.mjs'

const VARIANT_NAMES = { enclave: 'Enclave cold', 'enclave-warm': 'Enclave warm', fastify: 'Fastify 4', fastify5: 'Fastify 5', node: 'node:http floor' }

function perCpuCell (row) {
  const cells = ['bestFastify', 'node'].map((versus) => row.ratios[versus]?.perCpuSecond)
  return cells.every((v) => v === undefined || v === null) ? '—' : cells.map((v) => (v ? `${v.toFixed(2)}×` : '—')).join(' / ')
}

export function renderThroughputTable (results) {
  const lines = [
    '| Scenario | Enclave req/s | Enclave v5 level req/s | Fastify 4 req/s | Fastify 5 req/s | node:http req/s | Enclave ÷ best Fastify | Enclave ÷ node:http | v5 level ÷ v4 level | Target | per CPU-s ÷ best F / ÷ node |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|'
  ]
  for (const [letter, row] of Object.entries(results.throughput)) {
    const s = row.servers
    const noise = results.options.noiseLimit
    const best = row.bestFastify ? ` (${row.bestFastify === 'fastify5' ? '5' : '4'})` : ''
    lines.push(`| ${SCENARIOS[letter].title} | ${rpsCell(s.enclave, noise)} | ${rpsCell(s.enclave5, noise)} | ${rpsCell(s.fastify, noise)} | ` +
      `${rpsCell(s.fastify5, noise)} | ${rpsCell(s.node, noise)} | ${ratioCell(row.ratios.bestFastify)}${best} | ` +
      `${ratioCell(row.ratios.node)} | ${ratioCell(row.levels)} | ${verdict(row.targets)} | ${perCpuCell(row)} |`)
  }
  return lines.join('\n')
}

/** Per scenario and server: where the server's CPU went per request, and the load generator's share per slice. */
export function renderCpuTable (results) {
  return renderServerDetails(results.throughput)
}

export function renderStartupTable (startup) {
  const variants = ['enclave', 'enclave-warm', 'fastify', 'fastify5', 'node'].filter((v) => v !== 'node' || startup.frameworks.node)
  const fw = startup.frameworks
  const best = startup.bestFastify ? fw[startup.bestFastify] : null
  const cell = (variant, metric, digits) => {
    const f = fw[variant]
    if (!f) return '—'
    if (f.status !== 'ok') return 'FAIL'
    return fixed(f[metric], digits)
  }
  const ratioTo = (variant, metric) => {
    const f = fw[variant]
    if (f?.status !== 'ok' || best?.status !== 'ok' || typeof f[metric] !== 'number' || !best[metric]) return '—'
    return `${(f[metric] / best[metric]).toFixed(2)}×`
  }
  const rows = [
    ['process start → `ready()` (ms)', 'readyMs', 0],
    ['RSS at ready (MiB)', 'rssReadyMiB', 1],
    ['first request to every route (ms)', 'firstPassMs', 0],
    ['**ready + first request to every route (ms)**', 'readyPlusFirstPassMs', 0],
    ['second request to every route (ms)', 'secondPassMs', 0],
    ['first request: p50 / p99 / max latency (ms)', ['firstP50Ms', 'firstP99Ms', 'firstMaxMs'], 2],
    ['steady state (second request): p50 / p99 (ms)', ['secondP50Ms', 'secondP99Ms'], 2],
    ['RSS after the requests (MiB)', 'rssAfterMiB', 1],
    ['building the compile cache (`enclave precompile`, ms)', 'precompileMs', 0]
  ]
  const bestName = startup.bestFastify ? VARIANT_NAMES[startup.bestFastify] : 'best Fastify'
  const lines = [
    `| f. Start-up, ${startup.routes} routes with body + response schemas | ${variants.map((v) => VARIANT_NAMES[v]).join(' | ')} | cold ÷ ${bestName} | warm ÷ ${bestName} |`,
    `|---|${'--:|'.repeat(variants.length + 2)}`
  ]
  for (const [label, metric, digits] of rows) {
    const metrics = Array.isArray(metric) ? metric : [metric]
    if (!variants.some((v) => metrics.some((m) => typeof fw[v]?.[m] === 'number'))) continue
    const cells = variants.map((v) => metrics.map((m) => cell(v, m, digits)).join(' / '))
    const ratios = Array.isArray(metric) ? ['', ''] : [ratioTo('enclave', metric), ratioTo('enclave-warm', metric)]
    lines.push(`| ${label} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`)
  }
  lines.push('', '| Start-up target | value | target | verdict |', '|---|--:|--:|---|')
  for (const t of startup.targets) {
    lines.push(`| ${VARIANT_NAMES[t.variant]}, ${t.label}, ÷ ${t.versus} | ${t.value === null ? '—' : `${t.value.toFixed(2)}×`} | ` +
      `≤${t.max.toFixed(2)}× | ${t.pass === null ? '?' : t.pass ? 'pass' : 'miss'} |`)
  }
  const floor = fw.node?.status === 'ok' && best?.status === 'ok' ? fw.node.readyPlusFirstPassMs / best.readyPlusFirstPassMs : null
  if (floor !== null) {
    lines.push('', `The node:http floor (nothing compiled, checks written by hand) takes ${fixed(fw.node.readyPlusFirstPassMs, 0)} ms ` +
      `for ready + first request to every route: ${floor.toFixed(3)}× ${bestName}. No server can start below it on this machine.`)
  }
  return lines.join('\n')
}

export function renderChecks (checks) {
  const lines = []
  for (const [kind, check] of Object.entries(checks)) {
    const name = SERVER_NAMES[kind]
    if (check.unavailable) {
      lines.push(`- ${name}: not run — ${check.unavailable}`)
      continue
    }
    const status = check.failures.length === 0 ? 'all checks passed' : `FAIL (${check.failures.length})`
    const warnings = check.warnings.length === 0 ? '' : `, ${check.warnings.length} Fastify-parity warning(s)`
    lines.push(`- ${name}: ${status}${warnings}`)
    for (const f of check.failures) lines.push(...describeProblem('FAIL', f))
    for (const w of check.warnings) lines.push(...describeProblem('warn', w))
  }
  return lines.join('\n')
}

function describeProblem (label, p) {
  return [
    `  - ${label} [${p.scenario}] ${p.check}: ${p.problem}`,
    `    - request: \`${p.request}\``,
    `    - response: \`${p.response ?? '(none)'}\``,
    `    - expected: \`${p.expected}\``
  ]
}

export function renderFootnotes (results) {
  const notes = [
    `Median req/s over ${results.options.rounds} rounds; each round gives every server one ${results.options.duration} s slice in a fresh ` +
    `process (checked, then warmed up for ${results.options.warmup} s), ` +
    `${results.options.connections} connections, pipelining ${results.options.pipelining}. Ratios are of medians; ` +
    'parentheses give the range of the per-round ratios; "best Fastify" is whichever of Fastify 4 and 5 had the higher ' +
    'median in that scenario (its major version in parentheses). The last column compares requests per second of server ' +
    'CPU time, a cross-check that is less sensitive to other processes taking CPU time (not a target).'
  ]
  notes.push(...markNotes(results.throughput, results.options.noiseLimit))
  return notes.join('\n')
}

export function renderReport (results) {
  const parts = []
  if (Object.keys(results.throughput).length > 0) {
    parts.push(`### Pipelined (autocannon, ${results.options.connections} connections × ${results.options.pipelining} requests in flight)`, '',
      renderThroughputTable(results), '', renderFootnotes(results), '', renderCpuTable(results), '')
  }
  if (results.unpipelined) parts.push(renderUnpipelined(results), '')
  if (results.startup) parts.push(renderStartupTable(results.startup))
  return parts.join('\n')
}

export function writeJson (file, results) {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
}
