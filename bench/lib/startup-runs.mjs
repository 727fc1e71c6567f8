/**
 * Scenario f, orchestrated: fresh start-up processes (`servers/startup.mjs`) per variant, alternated between
 * rounds. Variants: Enclave cold, Enclave warm (a compile cache built once by `enclave precompile` before the
 * runs), Fastify 4, Fastify 5 and the bare node:http floor (`servers/startup-node-http.mjs`).
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runNodeScript, systemBusySeconds } from './processes.mjs'
import { summarizeStartup } from './summary.mjs'

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repoRoot = path.resolve(benchDir, '..')
const startupScript = path.join(benchDir, 'servers', 'startup.mjs')
const precompileEntry = path.join(benchDir, 'servers', 'startup-precompile.mjs')
export const ENCLAVE_BIN = path.join(repoRoot, 'dist', 'enclave-cli.js')

/** The variants measured for the servers of this run (node:http as the floor: what no server can go below). */
export function startupVariants (servers) {
  const variants = []
  for (const server of servers) {
    if (server === 'enclave') variants.push('enclave', 'enclave-warm')
    else if (server === 'fastify' || server === 'fastify5' || server === 'node') variants.push(server)
  }
  return variants
}

/**
 * Builds the compile cache of scenario f's application once, the documented way (`enclave precompile <entry>`),
 * in a fresh temporary directory. Returns `{ dir, precompileMs }` or `{ unavailable }`.
 */
export async function prepareWarmCache (routes) {
  if (!existsSync(ENCLAVE_BIN)) return { unavailable: `${path.relative(repoRoot, ENCLAVE_BIN)} not found (run npm run build)` }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-cache-'))
  const started = process.hrtime.bigint()
  try {
    const env = { ...process.env, BENCH_COMPILE_CACHE: dir, BENCH_STARTUP_ROUTES: String(routes) }
    // with --json, the command prints one line: the JSON of what it wrote
    await runNodeScript([ENCLAVE_BIN, 'precompile', precompileEntry, '--json'], '', { env })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { unavailable: `enclave precompile failed: ${error.message}` }
  }
  return { dir, precompileMs: Number(process.hrtime.bigint() - started) / 1e6 }
}

/** One start-up process; `otherCpu` is what other processes used meanwhile (cores), as for load slices. */
async function startupRun (variant, routes, cacheDir) {
  const kind = variant === 'enclave-warm' ? 'enclave' : variant
  const busyBefore = systemBusySeconds()
  const ownBefore = process.cpuUsage()
  const started = process.hrtime.bigint()
  const args = [startupScript, kind, String(routes), ...(variant === 'enclave-warm' ? [cacheDir] : [])]
  const result = await runNodeScript(args, 'STARTUP_RESULT ')
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9
  const busyAfter = systemBusySeconds()
  const own = process.cpuUsage(ownBefore)
  const ownSeconds = (own.user + own.system) / 1e6
  result.otherCpu = result.cpuSeconds === undefined || busyBefore === null || busyAfter === null
    ? null
    : Math.max(0, (busyAfter - busyBefore - result.cpuSeconds - ownSeconds) / elapsed)
  return result
}

const percent = (share) => share === null ? '?' : `${Math.round(share * 100)}%`

function describeRun (variant, result) {
  if (result.unavailable) return `  ${variant}: not available — ${result.unavailable}`
  return `  ${variant}: ready ${Math.round(result.readyMs)} ms, RSS ${Math.round(result.rssReadyMiB)} MiB, ` +
    `first pass ${Math.round(result.firstPassMs)} ms (p99 ${result.firstP99Ms.toFixed(2)}), ` +
    `second ${Math.round(result.secondPassMs)} ms (p99 ${result.secondP99Ms.toFixed(2)}), ` +
    `other cpu ${percent(result.otherCpu)}${result.retries > 0 ? ` after ${result.retries} noisy attempt(s)` : ''}` +
    `${result.wrongResponses ? `, ${result.wrongResponses} WRONG responses` : ''}`
}

/**
 * @param {object} options parsed bench options
 * @param {(measure: () => Promise<object>, plannedSeconds: number) => Promise<object>} measureQuietly re-measures noisy runs
 * @param {(message: string) => void} log
 */
export async function measureStartup (options, measureQuietly, log, runSeconds) {
  const variants = startupVariants(options.servers)
  const runs = Object.fromEntries(variants.map((v) => [v, []]))
  log(`\nf. start-up with ${options.routes} routes: ${options.startupRuns} run(s) each of ${variants.join(', ')}`)
  let warm = null
  if (variants.includes('enclave-warm')) {
    warm = await prepareWarmCache(options.routes)
    log(warm.unavailable ? `  enclave-warm: not available — ${warm.unavailable}` : `  compile cache built in ${Math.round(warm.precompileMs)} ms`)
    if (warm.unavailable) runs['enclave-warm'].push({ unavailable: warm.unavailable })
  }
  try {
    for (let round = 0; round < options.startupRuns; round++) {
      const order = variants.slice(round % variants.length).concat(variants.slice(0, round % variants.length))
      for (const variant of order) {
        if (runs[variant].some((r) => r.unavailable)) continue
        let result
        try {
          result = await measureQuietly(() => startupRun(variant, options.routes, warm?.dir), runSeconds)
        } catch (error) {
          result = { unavailable: error.message }
        }
        if (variant === 'enclave-warm' && !result.unavailable) result.precompileMs = warm.precompileMs
        runs[variant].push(result)
        log(describeRun(variant, result))
      }
    }
  } finally {
    if (warm?.dir) rmSync(warm.dir, { recursive: true, force: true })
  }
  return summarizeStartup(runs, options.routes)
}
