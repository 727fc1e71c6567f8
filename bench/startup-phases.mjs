/**
 * Where a warm start of scenario f's application goes, phase by phase: Node's boot, loading Enclave, registering the
 * routes, `ready()` (which loads the compile cache). Builds the cache once (`precompile`), then runs fresh processes
 * on the server core and prints each phase's median. With BENCH_BASELINE set (another build of Enclave, as for
 * `--servers baseline` in run.mjs), its runs alternate with this build's, each with its own cache: an A/B of a change.
 *   node bench/startup-phases.mjs [routes=1000] [runs=7]        (npm run build first)
 * A child run: node bench/startup-phases.mjs --child <routes> <cacheDir> <enclave|baseline> [--precompile]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { loadFactory } from './servers/frameworks.mjs'
import { buildStartupApp } from './servers/startup-app.mjs'

const self = fileURLToPath(import.meta.url)
const phases = ['boot', 'load', 'routes', 'ready']

async function child (routes, dir, build, precompileOnly) {
  // performance.now() counts from the process's start: what came before this line is Node's boot
  const boot = performance.now()
  const enclave = loadFactory(build)
  const loaded = performance.now()
  const app = buildStartupApp(enclave, routes, { compileCache: { dir } })
  const registered = performance.now()
  if (precompileOnly) {
    await enclave.precompile(app)
  } else {
    await app.ready()
  }
  const ready = performance.now()
  await app.close()
  const result = { boot, load: loaded - boot, routes: registered - loaded, ready: ready - registered, total: ready }
  process.stdout.write(`PHASES_RESULT ${JSON.stringify(result)}\n`)
}

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--child') {
  await child(Number(rest[0]), rest[1], rest[2], rest[3] === '--precompile')
} else {
  // imported here, not by a child: loading it runs `taskset` and `getconf`, which a child would count as Node's boot
  const { runNodeScript } = await import('./lib/processes.mjs')
  const routes = Number(first ?? 1000)
  const runs = Number(rest[0] ?? 7)
  const builds = process.env.BENCH_BASELINE ? ['enclave', 'baseline'] : ['enclave']
  const dirs = builds.map(() => mkdtempSync(path.join(os.tmpdir(), 'enclave-phases-cache-')))
  try {
    const results = builds.map(() => [])
    for (const [i, build] of builds.entries()) {
      await runNodeScript([self, '--child', String(routes), dirs[i], build, '--precompile'], 'PHASES_RESULT ')
    }
    for (let run = 0; run < runs; run++) {
      for (const [i, build] of builds.entries()) {
        results[i].push(await runNodeScript([self, '--child', String(routes), dirs[i], build], 'PHASES_RESULT '))
      }
    }
    for (const [i, build] of builds.entries()) {
      const line = (name) => `${name.padEnd(7)} ${results[i].map((r) => String(Math.round(r[name])).padStart(5)).join('')}   median ${Math.round(median(results[i].map((r) => r[name])))} ms`
      console.log(`${build === 'baseline' ? `the baseline (${process.env.BENCH_BASELINE})` : 'this build'}: warm start of ${routes} routes (scenario f's application), ${runs} fresh processes:`)
      for (const name of [...phases, 'total']) console.log(line(name))
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}
