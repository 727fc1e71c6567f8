#!/usr/bin/env node
/**
 * Soak test: drives SOAK_REQUESTS (default 1,000,000) mixed requests — valid, invalid, oversized and aborted —
 * through real sockets against Enclave's built output (`dist/enclave.js`; run `npm run build` first), and reports
 * requests/s, unexpected answers and the server's heap/RSS every SOAK_REPORT_EVERY (default 100,000) requests.
 *
 * The server runs in a child process started with --expose-gc: each measurement forces two collections there, so
 * heap figures are live memory. Exit code 1 if any request got an unexpected answer, or if the heap after the run
 * is more than 10% above the heap after warm-up.
 *
 *   npm run build && node bench/soak.mjs
 *   SOAK_REQUESTS=200000 SOAK_CONNECTIONS=32 node bench/soak.mjs
 */
import { fork } from 'node:child_process'
import net from 'node:net'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

const here = path.dirname(fileURLToPath(import.meta.url))

async function runServer () {
  const { default: enclave } = await import(path.join(here, '..', 'dist', 'enclave.js'))
  const app = enclave({ bodyLimit: 16 * 1024 })
  const item = {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', maxLength: 50 }, tags: { type: 'array', items: { type: 'string' }, maxItems: 5 } }
  }
  let aborted = 0
  app.addHook('onRequestAbort', async () => { aborted++ })
  app.get('/health', async () => ({ ok: true }))
  app.get('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 20 } } },
      response: { 200: { type: 'object', properties: { id: { type: 'integer' }, q: { type: 'string' } } } }
    }
  }, async (request) => ({ id: request.params.id, q: request.query.q, secret: 'not serialized' }))
  app.post('/items', { schema: { body: item, response: { 201: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } },
    async (request, reply) => { reply.code(201); return { id: 1, name: request.body.name } })
  app.get('/fail', async () => { throw new Error('handler failed') })
  await app.listen({ port: 0 })
  // a driver that fails or is killed must not leave this server running
  process.on('disconnect', () => process.exit(1))
  process.send({ type: 'ready', port: app.server.address().port })
  process.on('message', (message) => {
    if (message.type === 'measure') {
      globalThis.gc()
      globalThis.gc()
      const m = process.memoryUsage()
      process.send({ type: 'memory', heapUsed: m.heapUsed, rss: m.rss, aborted })
    } else if (message.type === 'close') {
      app.close().then(() => process.exit(0))
    }
  })
}

// ---------------------------------------------------------------------------------------------------------------

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 1_000_000)
const REPORT_EVERY = Number(process.env.SOAK_REPORT_EVERY ?? 100_000)
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32)
const WARMUP = Number(process.env.SOAK_WARMUP ?? Math.min(50_000, Math.max(1_000, Math.floor(TOTAL / 20))))
const HEAP_TOLERANCE = 0.10

const bigBody = JSON.stringify({ name: 'x'.repeat(20_000) })
/** Each kind: the bytes of one keep-alive request and the status it must get. Weights sum to 100. */
const kinds = [
  { weight: 30, status: 200, bytes: 'GET /items/42?q=soak HTTP/1.1\r\nHost: s\r\n\r\n' },
  { weight: 20, status: 201, bytes: post('application/json', '{"name":"ann","tags":["a","b"]}') },
  { weight: 8, status: 200, bytes: 'GET /health HTTP/1.1\r\nHost: s\r\n\r\n' },
  { weight: 8, status: 400, bytes: post('application/json', '{"name":') },
  { weight: 7, status: 400, bytes: post('application/json', '{"tags":"a","extra":1}') },
  { weight: 5, status: 400, bytes: post('application/json', '{"name":"a","__proto__":{"x":1}}') },
  { weight: 5, status: 415, bytes: post('constructor', '{"name":"a"}') },
  { weight: 5, status: 400, bytes: 'GET /items/abc HTTP/1.1\r\nHost: s\r\n\r\n' },
  { weight: 4, status: 404, bytes: 'GET /nope/%E2%82%AC?x=1 HTTP/1.1\r\nHost: s\r\n\r\n' },
  { weight: 3, status: 500, bytes: 'GET /fail HTTP/1.1\r\nHost: s\r\n\r\n' },
  { weight: 2, status: 400, bytes: 'GET /items/%zz HTTP/1.1\r\nHost: s\r\n\r\n' },
  // separate sockets: an oversized body (answered 413, then closed) and an upload aborted half-way
  { weight: 2, status: 413, bytes: post('application/json', bigBody, true), ownSocket: true },
  { weight: 1, status: 'aborted', bytes: 'POST /items HTTP/1.1\r\nHost: s\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"name":"' + 'y'.repeat(1000), ownSocket: true }
].map((k) => ({ ...k, buffer: Buffer.from(k.bytes) }))

function post (contentType, body, close = false) {
  return `POST /items HTTP/1.1\r\nHost: s\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`
}

const table = []
for (const kind of kinds) for (let i = 0; i < kind.weight; i++) table.push(kind)

async function runDriver () {
  const child = fork(fileURLToPath(import.meta.url), ['server'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => m.type === 'ready' ? resolve(m.port) : reject(new Error('unexpected message')))
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  const measure = () => new Promise((resolve) => {
    child.once('message', resolve)
    child.send({ type: 'measure' })
  })

  console.log(`soak: ${TOTAL.toLocaleString('en-US')} requests, ${CONNECTIONS} connections, warm-up ${WARMUP.toLocaleString('en-US')}, node ${process.version}, ${os.cpus()[0].model} x${os.cpus().length}`)
  let issued = 0
  let completed = 0
  let errors = 0
  const errorSamples = []
  const statusCounts = {}
  let next = 0
  let baseline = null
  let phaseStart = performance.now()
  let phaseCompleted = 0
  const rows = []
  let checkpointPending = null
  const runStart = performance.now()

  // Between checkpoints the load pauses, so every measurement sees the same (idle) server.
  const END = WARMUP + TOTAL
  const nextCheckpoint = () => (baseline === null ? WARMUP : Math.min(END, (Math.floor((completed - WARMUP) / REPORT_EVERY) + 1) * REPORT_EVERY + WARMUP))
  let target = nextCheckpoint()

  function record (kind, status) {
    completed++
    statusCounts[status] = (statusCounts[status] ?? 0) + 1
    if (status !== kind.status) {
      errors++
      if (errorSamples.length < 10) errorSamples.push(`expected ${kind.status}, got ${status} for ${kind.bytes.slice(0, 60)}`)
    }
  }

  function take () {
    if (issued >= target) return null
    issued++
    next = (next + 7919) % table.length // a fixed stride through the weighted table: deterministic mix
    return table[next]
  }

  await new Promise((resolve) => {
    let active = 0
    const tick = async () => {
      if (completed < target || active > 0) return
      if (completed >= END && baseline !== null) {
        await checkpoint()
        resolve()
        return
      }
      await checkpoint()
      target = nextCheckpoint()
      if (completed >= END) { resolve(); return }
      for (let i = 0; i < CONNECTIONS; i++) startWorker()
    }
    const startWorker = () => {
      active++
      worker(port, take, record, () => { active--; tick() })
    }
    for (let i = 0; i < CONNECTIONS; i++) startWorker()
  })

  async function checkpoint () {
    if (checkpointPending) return checkpointPending
    checkpointPending = (async () => {
      const elapsed = (performance.now() - phaseStart) / 1000
      const m = await measure()
      const rate = (completed - phaseCompleted) / elapsed
      if (baseline === null) {
        baseline = m
        console.log(`warm-up done at ${completed.toLocaleString('en-US')}: heap ${mb(m.heapUsed)} MB, rss ${mb(m.rss)} MB (baseline)`)
        console.log('| requests | req/s (interval) | unexpected answers (total) | heap MB | heap vs warm-up | RSS MB |')
        console.log('|---:|---:|---:|---:|---:|---:|')
      } else {
        const row = { requests: completed - WARMUP, rate, errors, heap: m.heapUsed, rss: m.rss }
        rows.push(row)
        console.log(`| ${row.requests.toLocaleString('en-US')} | ${Math.round(rate).toLocaleString('en-US')} | ${errors} | ${mb(m.heapUsed)} | ${pct(m.heapUsed / baseline.heapUsed - 1)} | ${mb(m.rss)} |`)
      }
      phaseStart = performance.now()
      phaseCompleted = completed
      checkpointPending = null
      return m
    })()
    return checkpointPending
  }

  const final = await measure()
  const growth = final.heapUsed / baseline.heapUsed - 1
  const seconds = (performance.now() - runStart) / 1000
  console.log(`\ntotal: ${(completed - WARMUP).toLocaleString('en-US')} requests after a ${WARMUP.toLocaleString('en-US')}-request warm-up in ${seconds.toFixed(1)} s, unexpected answers: ${errors}, aborted uploads seen by the server: ${final.aborted}`)
  console.log(`statuses: ${JSON.stringify(statusCounts)}`)
  console.log(`heap after warm-up ${mb(baseline.heapUsed)} MB → after the run ${mb(final.heapUsed)} MB (${pct(growth)}); rss ${mb(baseline.rss)} → ${mb(final.rss)} MB`)
  if (errorSamples.length > 0) console.log('samples:\n  ' + errorSamples.join('\n  '))
  child.send({ type: 'close' })
  await new Promise((resolve) => child.once('exit', resolve))
  const ok = errors === 0 && growth <= HEAP_TOLERANCE
  console.log(ok ? 'PASS' : `FAIL: ${errors > 0 ? `${errors} unexpected answers; ` : ''}${growth > HEAP_TOLERANCE ? `heap grew ${pct(growth)} (> 10%)` : ''}`)
  process.exitCode = ok ? 0 : 1
}

function mb (bytes) { return (bytes / 1024 / 1024).toFixed(1) }
function pct (x) { return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` }

/**
 * One keep-alive connection sending requests one after another. Requests that need their own socket (413, aborted)
 * are sent on a fresh one. Calls `onIdle` when `take` has nothing more to give.
 */
function worker (port, take, record, onIdle) {
  let socket = null
  let buffer = Buffer.alloc(0)
  let current = null

  const send = () => {
    const kind = take()
    if (kind === null) {
      if (socket !== null) socket.destroy()
      onIdle()
      return
    }
    if (kind.ownSocket) {
      oneShot(port, kind, (status) => { record(kind, status); send() })
      return
    }
    current = kind
    if (socket === null || socket.destroyed) open()
    socket.write(kind.buffer)
  }

  const open = () => {
    buffer = Buffer.alloc(0)
    socket = net.connect(port, '127.0.0.1')
    socket.setNoDelay(true)
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      const parsed = parseOne(buffer)
      if (parsed === null) return
      buffer = buffer.subarray(parsed.length)
      const kind = current
      current = null
      record(kind, parsed.status)
      if (parsed.close) { socket.destroy(); socket = null }
      send()
    })
    // only this socket's end counts: after a `Connection: close` answer the worker has already moved to a new one,
    // and the old socket's 'close' must not be taken for the new socket's request
    const own = socket
    const onGone = () => {
      if (own === socket && current !== null) {
        const kind = current
        current = null
        record(kind, 'socket closed')
        socket = null
        send()
      }
    }
    socket.on('error', onGone)
    socket.on('close', onGone)
  }

  send()
}

/** A request on its own socket: 'aborted' kinds are destroyed after writing; the others wait for the answer. */
function oneShot (port, kind, done) {
  const socket = net.connect(port, '127.0.0.1')
  let finished = false
  let buffer = Buffer.alloc(0)
  const finish = (status) => {
    if (finished) return
    finished = true
    socket.destroy()
    done(status)
  }
  socket.on('connect', () => {
    socket.write(kind.buffer)
    if (kind.status === 'aborted') setImmediate(() => finish('aborted'))
  })
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk])
    const parsed = parseOne(buffer)
    if (parsed !== null) finish(parsed.status)
  })
  socket.on('error', () => finish(kind.status === 'aborted' ? 'aborted' : 'socket error'))
  socket.on('close', () => finish(kind.status === 'aborted' ? 'aborted' : 'socket closed'))
}

/** One complete response at the start of `buffer` (content-length framed), or null if more bytes are needed. */
function parseOne (buffer) {
  const headEnd = buffer.indexOf('\r\n\r\n')
  if (headEnd === -1) return null
  const head = buffer.subarray(0, headEnd).toString('latin1')
  const status = Number(head.slice(9, 12))
  const lengthMatch = /\r\ncontent-length: *(\d+)/i.exec(head)
  const length = lengthMatch === null ? 0 : Number(lengthMatch[1])
  if (buffer.length < headEnd + 4 + length) return null
  return { status, length: headEnd + 4 + length, close: /\r\nconnection: *close/i.test(head) }
}

// Dispatched last: the driver's constants above must be initialised first.
if (process.argv[2] === 'server') {
  await runServer()
} else {
  await runDriver()
}
