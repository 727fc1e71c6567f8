import { test } from 'node:test'
import assert from 'node:assert/strict'
import underPressure from '@fastify/under-pressure'
import enclave from '../../src/index'

const unavailable = { statusCode: 503, code: 'FST_UNDER_PRESSURE', error: 'Service Unavailable', message: 'Service Unavailable' }

test('under-pressure: a failing healthCheck makes every route answer 503 with Retry-After', async () => {
  let healthy = false
  const app: any = enclave()
  app.register(underPressure, { healthCheck: async () => healthy, healthCheckInterval: 5, exposeStatusRoute: true })
  app.get('/', async () => ({ hello: 'world' }))
  await app.ready()

  const res = await app.inject({ url: '/' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.headers['retry-after'], '10')
  assert.deepEqual(res.json(), unavailable)

  const status = await app.inject({ url: '/status' })
  assert.equal(status.statusCode, 503)
  assert.deepEqual(status.json(), unavailable)
  assert.equal(app.isUnderPressure(), true)

  healthy = true
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(app.isUnderPressure(), false)
  const recovered = await app.inject({ url: '/' })
  assert.equal(recovered.statusCode, 200)
  assert.deepEqual(recovered.json(), { hello: 'world' })
  await app.close()
})

test('under-pressure: exposeStatusRoute answers {status: "ok"} through its response schema', async () => {
  const app: any = enclave()
  app.register(underPressure, {
    exposeStatusRoute: { url: '/alive', routeResponseSchemaOpts: { uptime: { type: 'string' } } },
    healthCheck: async () => ({ uptime: 'long', dropped: 'not in the schema' })
  })
  await app.ready()
  const res = await app.inject({ url: '/alive' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(res.json(), { status: 'ok', uptime: 'long' })
  assert.equal((await app.inject({ url: '/status' })).statusCode, 404)
  assert.deepEqual(Object.keys(app.memoryUsage()).sort(), ['eventLoopDelay', 'eventLoopUtilized', 'heapUsed', 'rssBytes'])
  await app.close()
})

test('under-pressure: a blocked event loop beyond maxEventLoopDelay answers 503; pressureHandler can override', async () => {
  const app: any = enclave()
  app.register(underPressure, { maxEventLoopDelay: 1, sampleInterval: 10 })
  app.register(async (child: any) => {
    child.get('/custom', {
      config: { pressureHandler: (_request: any, reply: any, type: string) => { reply.code(503).send({ custom: type }) } }
    }, async () => ({ ok: true }))
  })
  app.get('/', async () => ({ ok: true }))
  await app.ready()
  // keep the event loop blocked (30 ms at a time) so that every sample is far beyond the 1 ms threshold
  const blocker = setInterval(() => {
    const until = Date.now() + 30
    while (Date.now() < until) { /* busy wait */ }
  }, 1)
  try {
    await new Promise((resolve) => setTimeout(resolve, 150))
    assert.equal(app.isUnderPressure(), true)
    const res = await app.inject({ url: '/' })
    assert.equal(res.statusCode, 503)
    assert.equal(res.headers['retry-after'], '10')
    assert.deepEqual(res.json(), unavailable)
    const custom = await app.inject({ url: '/custom' })
    assert.equal(custom.statusCode, 503)
    assert.deepEqual(custom.json(), { custom: 'eventLoopDelay' })
  } finally {
    clearInterval(blocker)
    await app.close()
  }
})

test('under-pressure: customError, retryAfter and message are honoured', async () => {
  const app: any = enclave()
  app.register(underPressure, { healthCheck: async () => false, healthCheckInterval: 1000, retryAfter: 42, message: 'Try later' })
  app.get('/', async () => ({ ok: true }))
  const res = await app.inject({ url: '/' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.headers['retry-after'], '42')
  assert.deepEqual(res.json(), { statusCode: 503, code: 'FST_UNDER_PRESSURE', error: 'Service Unavailable', message: 'Try later' })
  await app.close()
})
