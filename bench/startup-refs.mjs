/**
 * Start-up of an application whose routes reach a shared schema by `$ref` (body and response): schemas outside
 * Enclave's generators, compiled by Ajv and fast-json-stringify, and kept by the compile cache as their standalone
 * code. Runs fresh processes: without the cache, a first start with an empty cache, then warm starts.
 *   node bench/startup-refs.mjs [routes=300] [warmRuns=3]        (npm run build first)
 * A child run: node bench/startup-refs.mjs --child <routes> [cacheDir]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { ENCLAVE_ENTRY, loadFactory } from './servers/frameworks.mjs'

const self = fileURLToPath(import.meta.url)

async function child (routes, dir) {
  const enclave = loadFactory('enclave')
  const app = enclave({ logger: false, ...(dir ? { compileCache: { dir } } : {}) })
  app.addSchema({ $id: 'user', type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 }, email: { type: 'string', format: 'email' } } })
  for (let i = 0; i < routes; i++) {
    const schema = {
      body: { type: 'object', required: ['user'], properties: { user: { $ref: 'user#' }, [`f${i}`]: { type: 'integer', minimum: i } } },
      response: { 200: { type: 'object', properties: { user: { $ref: 'user#' }, [`f${i}`]: { type: 'integer' } } } }
    }
    app.post(`/r/${i}`, { schema }, async (request) => ({ ...request.body, secret: true }))
  }
  await app.ready()
  const readyMs = performance.now()
  for (let i = 0; i < routes; i++) {
    const res = await app.inject({ method: 'POST', url: `/r/${i}`, payload: { user: { name: 'a', email: 'a@b.co' }, [`f${i}`]: i } })
    const expected = JSON.stringify({ user: { name: 'a', email: 'a@b.co' }, [`f${i}`]: i })
    if (res.statusCode !== 200 || res.payload !== expected) throw new Error(`route ${i}: ${res.statusCode} ${res.payload}`)
  }
  const totalMs = performance.now()
  await app.close()
  process.stdout.write(`REFS_RESULT ${JSON.stringify({ readyMs, passMs: totalMs - readyMs, totalMs })}\n`)
}

/** One fresh process on the server core, as the bench runs servers. */
async function run (routes, dir) {
  // imported by the parent only: loading it runs `taskset` and `getconf`, which a child would count in its times
  const { runNodeScript } = await import('./lib/processes.mjs')
  const args = [self, '--child', String(routes), ...(dir ? [dir] : [])]
  const { readyMs, passMs, totalMs } = await runNodeScript(args, 'REFS_RESULT ')
  return `ready ${Math.round(readyMs)} ms, first request to every route ${Math.round(passMs)} ms, total ${Math.round(totalMs)} ms`
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--child') {
  await child(Number(rest[0]), rest[1])
} else {
  const routes = Number(first ?? 300)
  const warmRuns = Number(rest[0] ?? 3)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-refs-cache-'))
  try {
    console.log(`${routes} routes with $ref body and response schemas (${path.relative(process.cwd(), ENCLAVE_ENTRY)})`)
    console.log(`  no cache:          ${await run(routes)}`)
    console.log(`  empty cache:       ${await run(routes, dir)}`)
    for (let i = 0; i < warmRuns; i++) console.log(`  warm ${i + 1}:            ${await run(routes, dir)}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
