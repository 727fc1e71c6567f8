/**
 * Output of a run: the Markdown tables printed to stdout, the JSON results file and docs/performance.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { SCENARIOS } from './scenarios.mjs'

const SERVER_NAMES = { enclave: 'Enclave', enclave5: 'Enclave (v5 level)', fastify: 'Fastify 4', fastify5: 'Fastify 5', node: 'node:http', baseline: 'baseline' }
const VARIANT_NAMES = { enclave: 'Enclave cold', 'enclave-warm': 'Enclave warm', fastify: 'Fastify 4', fastify5: 'Fastify 5', node: 'node:http floor' }
/** Below this share of a core, the server was probably not the bottleneck (marked †). */
const SATURATED_CPU = 0.9
/** Other processes using less than this (cores) count as a quiet machine. */
const QUIET_CPU = 0.1
/** The load generator above this share of its core: the slice was (close to) client-bound. */
const CLIENT_BOUND_CPU = 0.9

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** † load-generator bound (server not saturated on a quiet machine); ‡ other processes competed for the CPUs. */
function marks (server, noiseLimit) {
  const other = server.otherCpu ?? 0
  const unsaturated = server.serverCpu !== null && server.serverCpu < SATURATED_CPU
  if (other > noiseLimit || (unsaturated && other > QUIET_CPU)) return ' ‡'
  return unsaturated ? ' †' : ''
}

function rpsCell (server, noiseLimit) {
  if (!server) return '—'
  if (server.status !== 'ok') return 'FAIL'
  return `${number.format(server.medianRps)}${marks(server, noiseLimit)}`
}

function ratioCell (r) {
  if (!r) return '—'
  const spread = r.perRoundRange ? ` (${r.perRoundRange[0].toFixed(2)}–${r.perRoundRange[1].toFixed(2)})` : ''
  return `${r.value.toFixed(2)}×${spread}`
}

function verdict (targets) {
  if (targets.length === 0) return ''
  const text = targets.map((t) => `≥${t.min.toFixed(2)}× ${t.versus === 'node' ? 'node' : 'F'}`).join(', ')
  const passes = targets.map((t) => t.pass)
  const mark = passes.includes(null) ? '?' : passes.every(Boolean) ? 'pass' : 'miss'
  return `${text} — ${mark}`
}

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

const fixed = (value, digits) => (typeof value === 'number' ? value.toFixed(digits) : '—')

/** Per scenario and server: where the server's CPU went per request, and the load generator's share per slice. */
export function renderCpuTable (results) {
  const lines = [
    '| Scenario | server | server CPU | user µs/req | system µs/req | load generator CPU, per slice | other processes |',
    '|---|---|--:|--:|--:|---|--:|'
  ]
  for (const [letter, row] of Object.entries(results.throughput)) {
    for (const [kind, server] of Object.entries(row.servers)) {
      if (server.status !== 'ok') continue
      const slices = (server.loadCpuPerSlice ?? []).map((v) => (v === null ? '?' : `${Math.round(v * 100)}${v >= CLIENT_BOUND_CPU ? '!' : ''}`))
      lines.push(`| ${letter} | ${SERVER_NAMES[kind] ?? kind} | ${fixed(server.serverCpu, 2)} | ${fixed(server.userUsPerRequest, 2)} | ` +
        `${fixed(server.systemUsPerRequest, 2)} | ${slices.join(' ')} % | ${fixed(server.otherCpu, 2)} |`)
    }
  }
  return lines.join('\n')
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
  const used = new Set()
  for (const row of Object.values(results.throughput)) {
    for (const server of Object.values(row.servers)) if (server.status === 'ok') used.add(marks(server, results.options.noiseLimit).trim())
  }
  if (used.has('†')) notes.push(`† the server used less than ${SATURATED_CPU * 100}% of its core on a quiet machine: the load generator may have been the limit.`)
  if (used.has('‡')) notes.push('‡ other processes on the shared machine took CPU time during these slices even after re-measuring: treat with care (see the per-CPU-s column).')
  for (const [letter, row] of Object.entries(results.throughput)) {
    for (const [kind, server] of Object.entries(row.servers)) {
      if (server.status !== 'ok') notes.push(`FAIL ${letter}/${SERVER_NAMES[kind]}: ${server.reason}`)
    }
  }
  return notes.join('\n')
}

export function renderReport (results) {
  const parts = []
  if (Object.keys(results.throughput).length > 0) {
    parts.push(renderThroughputTable(results), '', renderFootnotes(results), '', renderCpuTable(results))
  }
  if (results.startup) parts.push('', renderStartupTable(results.startup))
  return parts.join('\n')
}

export function writeJson (file, results) {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
}

/** A section per other Node line's latest full run: its throughput and start-up tables, as measured there. */
function renderOtherLines (others) {
  if (others.length === 0) return ''
  return `## On other Node lines

The same suite run with \`--node N\` (every server and the load generator on that line's official binary,
scripts/node-line.mjs). Ratios compare servers within that run only.

` + others.map((run) => `### Node ${run.machine.node}

_Generated by \`${run.command}\` on ${run.date.slice(0, 16).replace('T', ' ')} UTC, ${run.machine.cpu}, ${run.machine.cores} cores;
run took ${Math.round(run.elapsedSeconds / 60)} min._

${renderThroughputTable(run)}

${run.startup ? renderStartupTable(run.startup) : ''}
`).join('\n')
}

export function writePerformanceDoc (file, results, others = []) {
  const m = results.machine
  const o = results.options
  const doc = `# Performance

_Generated by \`${results.command}\` on ${results.date.slice(0, 16).replace('T', ' ')} UTC. Re-run \`npm run bench\` when
the hot path changes; only ratios within one run are meaningful._

Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. CPU pinning: ${m.pinned}.
Run took ${Math.round(results.elapsedSeconds / 60)} min. Where the time goes, the history of runs and the targets
that sit above bare \`node:http\`: [performance-analysis.md](performance-analysis.md).

## Results

${renderThroughputTable(results)}

${renderFootnotes(results)}

Where the server's CPU went, per request, and the load generator's share of its core in every slice (in round
order; \`!\` marks a slice at ≥${CLIENT_BOUND_CPU * 100}%, i.e. close to client-bound). The system (kernel) time per request is
about the same for every server that writes each pipelined response with its own system call, which compresses req/s
ratios toward 1 ([performance-analysis.md](performance-analysis.md#why-ratios-are-compressed-on-this-machine));
Enclave's is lower because it hands a connection's pipelined responses to the kernel in one \`writev\`
([architecture.md](architecture.md#pipelined-responses-share-a-system-call)).

${renderCpuTable(results)}

${results.startup ? renderStartupTable(results.startup) : ''}

${renderOtherLines(others)}
Start-up: median of ${o.startupRuns} runs per variant, alternated. \`ready()\` time counts from process start
(\`performance.now()\`), so it includes Node's own boot and loading the framework. The per-route requests are real
HTTP requests, one at a time on one keep-alive connection, sent by a minimal \`node:net\` client in the same
process (pre-encoded requests, Content-Length framing), so work deferred to the first request is counted, and so
is any work the server does in the background meanwhile. "Enclave warm" starts with \`compileCache: { dir }\`
pointing at a cache built once beforehand by \`enclave precompile\` ([compile-cache.md](compile-cache.md)); the
targets compare both to the best Fastify cold start. "node:http floor" (\`servers/startup-node-http.mjs\`) serves the
same routes with bare \`node:http\`, a \`Map\` and checks written by hand for this schema shape: Node's boot and HTTP
stack alone, the bound under every server's figure.

## Correctness checks

Every server is checked before it is measured; a server that fails a hard check (status, JSON body, dropped fields,
coercion, rejection of invalid input) is marked FAIL for that scenario and not measured. Warnings only compare
with Fastify 4's exact error bodies, key order and headers. Under load, every response must have the expected
status and the exact body the server gave in its check.

${renderChecks(results.checks)}

## Method

- Four servers implement identical routes (\`bench/servers/\`): Enclave, \`fastify@4\` and \`fastify@5\` (the
  \`fastify5\` alias) run the very same application code (\`app.mjs\`, parameterized by the factory,
  \`logger: false\`); \`node-http.mjs\` is bare \`node:http\` with hand-written routing and checks equivalent to the
  schemas, \`JSON.stringify\` of objects holding only the declared fields, and one
  \`res.writeHead(status, { content-type, content-length })\` and one \`res.end(body)\` per response.
- Scenarios: a. \`GET /\` with a response schema; b. \`POST /users\` with a body schema (maxLength string, integer
  with minimum, boolean, array with maxItems, nested object, 3 required) answering 201 through a response schema
  that drops the undeclared \`passwordHash\`; c. \`GET /items/42?limit=20&tags=a&tags=b\` with params and
  querystring schemas (coerced integers, an array) returning 20 objects of 8 fields (a 9th is dropped); d. three
  nested prefixed plugins, each with a request decorator, an async \`onRequest\` and a callback \`preHandler\`,
  the innermost route returning the decorators (no response schema: the default serializer); e. an unknown
  route (404); f. start-up with ${o.routes} routes, each with its own body and response schema.
- Servers run as separate processes on CPU 0; autocannon runs in the harness process on CPU 1 (\`taskset\`, when
  there are two cores). ${o.connections} connections, pipelining ${o.pipelining}.
- Per scenario, ${o.rounds} rounds; in each round every server gets one ${o.duration} s slice, in an order that
  rotates between rounds, so drift on a shared machine hits all servers. Each slice runs in a fresh server process,
  checked again and warmed up for ${o.warmup} s first: a Node 20 process sometimes settles into a state ~25% slower
  for its whole life (seen with Fastify and Enclave alike; \`process.nextTick\` turns hot), and a median over
  several processes tolerates it where a single long-lived process would not.
- A slice is measured again (up to ${o.maxRetries} times, fresh process, keeping the quietest attempt) when other
  processes on the shared machine used more than ${o.noiseLimit} of a core meanwhile, while the time budget allows.
- The harness records per slice, from \`/proc\`, the server's CPU use (user and system apart), the load
  generator's and everything else's; † marks a server that was not saturated.

## Reproduce

\`\`\`sh
npm install
npm run bench                                  # full suite, ~20 min, updates this page and bench/results/latest.json
npm run bench -- --quick                       # ~2 min smoke run (bench/results/quick.json)
npm run bench -- --scenarios a,c --rounds 3    # a subset
node bench/profile.mjs enclave a               # CPU profile of one server under one scenario
\`\`\`
`
  writeFileSync(file, doc)
}
