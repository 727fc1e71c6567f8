/**
 * How long a warm start spends loading its compile cache's pack, for scenario f's application: the first lookup of
 * `CompileCache` (read the file, check it, give V8 its code cache, run the code). Builds each build's pack once,
 * then times fresh processes on the server core; with BENCH_BASELINE set (another build of Enclave, as for
 * startup-phases.mjs), its runs alternate with this build's: an A/B of a change to the pack.
 *   node bench/pack-load.mjs [routes=1000] [runs=9]        (npm run build first: it uses dist/src)
 * A child run: node bench/pack-load.mjs --child <build root> <cacheDir> [--precompile <routes>]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildStartupApp } from './servers/startup-app.mjs'
import { runNodeScript } from './lib/processes.mjs'

const self = fileURLToPath(import.meta.url)
const require = createRequire(import.meta.url)
const repoRoot = path.resolve(path.dirname(self), '..')

async function child (root, dir, precompileRoutes) {
  const compiled = path.join(root, 'dist', 'src')
  if (precompileRoutes !== undefined) {
    const enclave = require(path.join(compiled, 'index.js'))
    await enclave.precompile(buildStartupApp(enclave, precompileRoutes, { compileCache: { dir } }))
    process.stdout.write('PACK_RESULT {}\n')
    return
  }
  const { CompileCache } = require(path.join(compiled, 'schema', 'compile-cache.js'))
  const started = performance.now()
  new CompileCache(dir).get('')
  process.stdout.write(`PACK_RESULT ${JSON.stringify({ ms: performance.now() - started })}\n`)
}

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--child') {
  await child(rest[0], rest[1], rest[2] === '--precompile' ? Number(rest[3]) : undefined)
} else {
  const routes = Number(first ?? 1000)
  const runs = Number(rest[0] ?? 9)
  const builds = [repoRoot, ...(process.env.BENCH_BASELINE ? [path.resolve(process.env.BENCH_BASELINE)] : [])]
  const dirs = builds.map(() => mkdtempSync(path.join(os.tmpdir(), 'enclave-pack-load-')))
  try {
    for (const [i, root] of builds.entries()) {
      await runNodeScript([self, '--child', root, dirs[i], '--precompile', String(routes)], 'PACK_RESULT ')
    }
    const times = builds.map(() => [])
    for (let run = 0; run < runs; run++) {
      for (const [i, root] of builds.entries()) {
        times[i].push((await runNodeScript([self, '--child', root, dirs[i]], 'PACK_RESULT ')).ms)
      }
    }
    for (const [i, root] of builds.entries()) {
      const name = i === 0 ? 'this build' : `the baseline (${root})`
      console.log(`${name}: loading the pack of ${routes} routes, ${runs} fresh processes: ` +
        `${times[i].map((ms) => ms.toFixed(1)).join(' ')}   median ${median(times[i]).toFixed(1)} ms`)
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}
