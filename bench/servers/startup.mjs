/**
 * Scenario f, one run: node bench/servers/startup.mjs <enclave|fastify|fastify5|node> [routes=1000] [compileCacheDir]
 * Builds `routes` POST routes, each with its own body and response schema (`startup-app.mjs`; `node` is the bare
 * node:http floor of `startup-node-http.mjs`), and measures, from
 * process start: time to `ready()`, RSS at ready, then one real HTTP request per route (so work deferred to the
 * first request is counted) and a second pass, the steady state. With a compile-cache directory (Enclave only),
 * the app is created with `compileCache: { dir }`: a warm start when the directory was filled beforehand.
 * Prints `STARTUP_RESULT {json}`.
 *
 * The requests are sent one at a time on one keep-alive connection by a minimal client over `node:net` in this
 * same process (so the server's background work, if any, competes with it): pre-encoded request bytes and a
 * Content-Length framed reader, which costs a fraction of `http.request` and so leaves the server's time visible.
 */
import { performance } from 'node:perf_hooks'
import net from 'node:net'
import { isDeepStrictEqual } from 'node:util'
import { loadFactory, FrameworkUnavailableError } from './frameworks.mjs'
import { buildStartupApp, expectedResponse, requestBody } from './startup-app.mjs'
import { createFloorApp } from './startup-node-http.mjs'

const [kind, routeCountArg = '1000', cacheDir] = process.argv.slice(2)
const routeCount = Number(routeCountArg)
const HEADER_END = Buffer.from('\r\n\r\n')

/** Sequential HTTP/1.1 requests on one socket; each resolves with the status and the body text. */
class SequentialClient {
  #socket
  #buffer = Buffer.alloc(0)
  #pending = null

  constructor (socket) {
    this.#socket = socket
    socket.setNoDelay(true)
    socket.on('data', (chunk) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk])
      this.#tryComplete()
    })
    socket.on('error', (error) => this.#pending?.reject(error))
    socket.on('close', () => this.#pending?.reject(new Error('connection closed')))
  }

  static connect (port) {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new SequentialClient(socket)))
      socket.once('error', reject)
    })
  }

  request (bytes) {
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject }
      this.#socket.write(bytes)
    })
  }

  #tryComplete () {
    const headerEnd = this.#buffer.indexOf(HEADER_END)
    if (headerEnd === -1 || this.#pending === null) return
    const head = this.#buffer.toString('latin1', 0, headerEnd)
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)
    if (length === null) {
      this.#pending.reject(new Error(`response without content-length: ${head}`))
      return
    }
    const bodyStart = headerEnd + HEADER_END.length
    const bodyEnd = bodyStart + Number(length[1])
    if (this.#buffer.length < bodyEnd) return
    const status = Number(head.slice(9, 12))
    const body = this.#buffer.toString('utf8', bodyStart, bodyEnd)
    this.#buffer = this.#buffer.subarray(bodyEnd)
    const { resolve } = this.#pending
    this.#pending = null
    resolve({ status, body })
  }
}

function encodeRequest (i) {
  const body = requestBody(i)
  return Buffer.from(`POST /route/${i} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
}

function isExpected ({ status, body }, i) {
  if (status !== 200) return false
  const expected = expectedResponse(i)
  if (body === JSON.stringify(expected)) return true
  try {
    return isDeepStrictEqual(JSON.parse(body), expected)
  } catch {
    return false
  }
}

function percentile (sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]
}

/** One request per route, sequentially; elapsed ms, wrong answers, and per-request latency percentiles (ms). */
async function requestEveryRoute (client, requests) {
  const latencies = new Float64Array(requests.length)
  let wrong = 0
  const started = performance.now()
  for (let i = 0; i < requests.length; i++) {
    const sent = performance.now()
    const response = await client.request(requests[i])
    latencies[i] = performance.now() - sent
    if (!isExpected(response, i)) wrong++
  }
  const ms = performance.now() - started
  latencies.sort()
  return { ms, wrong, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies[latencies.length - 1] }
}

function cpuSecondsUsed () {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

try {
  const loadStarted = performance.now()
  const factory = kind === 'node' ? createFloorApp : loadFactory(kind)
  const app = buildStartupApp(factory, routeCount, cacheDir ? { compileCache: { dir: cacheDir } } : {})
  await app.ready()
  // performance.now() counts from the process's time origin, i.e. process start.
  const readyMs = performance.now()
  const rssReadyMiB = process.memoryUsage.rss() / 2 ** 20
  await app.listen({ port: 0, host: '127.0.0.1' })
  const requests = Array.from({ length: routeCount }, (_, i) => encodeRequest(i))
  const client = await SequentialClient.connect(app.server.address().port)
  const first = await requestEveryRoute(client, requests)
  const second = await requestEveryRoute(client, requests)
  const rssAfterMiB = process.memoryUsage.rss() / 2 ** 20
  await app.close()
  const result = {
    kind,
    routes: routeCount,
    warm: cacheDir !== undefined,
    bootMs: loadStarted,
    readyMs,
    rssReadyMiB,
    firstPassMs: first.ms,
    secondPassMs: second.ms,
    readyPlusFirstPassMs: readyMs + first.ms,
    firstP50Ms: first.p50,
    firstP99Ms: first.p99,
    firstMaxMs: first.max,
    secondP50Ms: second.p50,
    secondP99Ms: second.p99,
    rssAfterMiB,
    wrongResponses: first.wrong + second.wrong,
    cpuSeconds: cpuSecondsUsed()
  }
  process.stdout.write(`STARTUP_RESULT ${JSON.stringify(result)}\n`)
  process.exit(0)
} catch (error) {
  const reason = error instanceof FrameworkUnavailableError ? error.message : (error?.stack ?? String(error))
  process.stdout.write(`STARTUP_RESULT ${JSON.stringify({ kind, unavailable: reason.split('\n')[0] })}\n`)
  process.exit(2)
}
