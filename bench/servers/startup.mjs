/**
 * Scenario f, one run: node bench/servers/startup.mjs <enclave|fastify> [routes=1000]
 * Builds `routes` POST routes, each with its own body and response schema, and measures, from process start:
 * time to `ready()`, RSS at ready, then one real HTTP request per route (so work deferred to the first request is
 * counted) and a second pass for comparison. Prints `STARTUP_RESULT {json}`.
 */
import { performance } from 'node:perf_hooks'
import http from 'node:http'
import { isDeepStrictEqual } from 'node:util'
import { loadFactory, FrameworkUnavailableError } from './frameworks.mjs'

const [kind, routeCountArg = '1000'] = process.argv.slice(2)
const routeCount = Number(routeCountArg)

function bodySchema (i) {
  return {
    type: 'object',
    required: ['name', 'count', `field${i}`],
    properties: {
      name: { type: 'string', maxLength: 16 + (i % 64) },
      count: { type: 'integer', minimum: i },
      flag: { type: 'boolean' },
      tags: { type: 'array', maxItems: 1 + (i % 8), items: { type: 'string' } },
      [`field${i}`]: { type: 'string' }
    }
  }
}

function responseSchema (i) {
  return {
    type: 'object',
    properties: {
      route: { type: 'integer' },
      name: { type: 'string' },
      count: { type: 'integer' },
      [`field${i}`]: { type: 'string' }
    }
  }
}

function buildRoutes (app) {
  for (let i = 0; i < routeCount; i++) {
    const schema = { body: bodySchema(i), response: { 200: responseSchema(i) } }
    app.post(`/route/${i}`, { schema }, async function handler (request) {
      return { route: i, ...request.body, secret: 'not declared' }
    })
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

function post (port, i) {
  const body = JSON.stringify({ name: 'n', count: i, [`field${i}`]: 'v', extra: true })
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/route/${i}`, agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => resolve(res.statusCode === 200 && isExpected(text, i)))
    })
    req.on('error', reject)
    req.end(body)
  })
}

function isExpected (text, i) {
  try {
    return isDeepStrictEqual(JSON.parse(text), { route: i, name: 'n', count: i, [`field${i}`]: 'v' })
  } catch {
    return false
  }
}

/** One request per route, sequentially on one keep-alive connection; returns elapsed ms and wrong answers. */
async function requestEveryRoute (port) {
  const started = performance.now()
  let wrong = 0
  for (let i = 0; i < routeCount; i++) if (!(await post(port, i))) wrong++
  return { ms: performance.now() - started, wrong }
}

function cpuSecondsUsed () {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

try {
  const loadStarted = performance.now()
  const factory = loadFactory(kind)
  const app = factory({ logger: false })
  buildRoutes(app)
  await app.ready()
  // performance.now() counts from the process's time origin, i.e. process start.
  const readyMs = performance.now()
  const rssReadyMiB = process.memoryUsage.rss() / 2 ** 20
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  const first = await requestEveryRoute(port)
  const second = await requestEveryRoute(port)
  const rssAfterMiB = process.memoryUsage.rss() / 2 ** 20
  agent.destroy()
  await app.close()
  const result = {
    kind,
    routes: routeCount,
    bootMs: loadStarted,
    readyMs,
    rssReadyMiB,
    firstPassMs: first.ms,
    secondPassMs: second.ms,
    readyPlusFirstPassMs: readyMs + first.ms,
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
