import { test } from 'node:test'
import assert from 'node:assert/strict'
import rateLimit from '@fastify/rate-limit'
import enclave from '../../src/index'

test('rate-limit: x-ratelimit-* headers count down, then 429 with retry-after', async () => {
  const app: any = enclave()
  await app.register(rateLimit, { max: 2, timeWindow: 60000 })
  app.get('/', async () => ({ hello: 'world' }))

  const first = await app.inject({ url: '/' })
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers['x-ratelimit-limit'], '2')
  assert.equal(first.headers['x-ratelimit-remaining'], '1')
  assert.equal(first.headers['x-ratelimit-reset'], '60')

  const second = await app.inject({ url: '/' })
  assert.equal(second.statusCode, 200)
  assert.equal(second.headers['x-ratelimit-remaining'], '0')

  const third = await app.inject({ url: '/' })
  assert.equal(third.statusCode, 429)
  assert.equal(third.headers['x-ratelimit-limit'], '2')
  assert.equal(third.headers['x-ratelimit-remaining'], '0')
  assert.equal(third.headers['x-ratelimit-reset'], '60')
  assert.equal(third.headers['retry-after'], '60')
  assert.equal(third.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(third.json(), { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' })
  await app.close()
})

test('rate-limit: per-route config.rateLimit overrides the global limit, false disables it', async () => {
  const app: any = enclave()
  await app.register(rateLimit, { max: 100, timeWindow: '1 minute' })
  app.get('/strict', { config: { rateLimit: { max: 1, timeWindow: '2 minutes' } } }, async () => ({ route: 'strict' }))
  app.get('/free', { config: { rateLimit: false } }, async () => ({ route: 'free' }))
  app.register(async (child: any) => {
    child.get('/child', async () => ({ route: 'child' }))
  })

  const strict1 = await app.inject({ url: '/strict' })
  assert.equal(strict1.statusCode, 200)
  assert.equal(strict1.headers['x-ratelimit-limit'], '1')
  assert.equal(strict1.headers['x-ratelimit-remaining'], '0')
  assert.equal(strict1.headers['x-ratelimit-reset'], '120')
  const strict2 = await app.inject({ url: '/strict' })
  assert.equal(strict2.statusCode, 429)
  assert.deepEqual(strict2.json(), { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 2 minutes' })

  for (let i = 0; i < 3; i++) {
    const free = await app.inject({ url: '/free' })
    assert.equal(free.statusCode, 200)
    assert.equal(free.headers['x-ratelimit-limit'], undefined)
  }

  const child = await app.inject({ url: '/child' })
  assert.equal(child.statusCode, 200)
  assert.equal(child.headers['x-ratelimit-limit'], '100')
  assert.equal(child.headers['x-ratelimit-remaining'], '99')
  await app.close()
})

test('rate-limit: a custom errorResponseBuilder and keyGenerator are honoured', async () => {
  const app: any = enclave()
  await app.register(rateLimit, {
    max: 1,
    timeWindow: 1000,
    keyGenerator: (request: any) => request.headers['x-api-key'],
    errorResponseBuilder: (_request: any, context: any) => ({ statusCode: 429, code: 'SLOW_DOWN', error: 'Too Many Requests', message: `max ${context.max} per ${context.after}` })
  })
  app.get('/', async () => 'ok')
  assert.equal((await app.inject({ url: '/', headers: { 'x-api-key': 'a' } })).statusCode, 200)
  assert.equal((await app.inject({ url: '/', headers: { 'x-api-key': 'b' } })).statusCode, 200)
  const limited = await app.inject({ url: '/', headers: { 'x-api-key': 'a' } })
  assert.equal(limited.statusCode, 429)
  assert.deepEqual(limited.json(), { statusCode: 429, code: 'SLOW_DOWN', error: 'Too Many Requests', message: 'max 1 per 1 second' })
  await app.close()
})

test('rate-limit: global false with app.rateLimit() as a route hook and on the not-found handler', async () => {
  const app: any = enclave()
  await app.register(rateLimit, { global: false, max: 1, timeWindow: 60000 })
  app.get('/limited', { onRequest: app.rateLimit() }, async () => ({ limited: true }))
  app.get('/custom', { preHandler: app.rateLimit({ max: 2 }) }, async () => ({ custom: true }))
  app.get('/unlimited', async () => ({ unlimited: true }))
  app.setNotFoundHandler({ preHandler: app.rateLimit({ max: 1 }) }, (_request: any, reply: any) => { reply.code(404).send({ nope: true }) })

  assert.equal((await app.inject({ url: '/limited' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/limited' })).statusCode, 429)
  const custom = await app.inject({ url: '/custom' })
  assert.equal(custom.headers['x-ratelimit-limit'], '2')
  assert.equal((await app.inject({ url: '/custom' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/custom' })).statusCode, 429)
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({ url: '/unlimited' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-ratelimit-limit'], undefined)
  }
  const missing = await app.inject({ url: '/missing' })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { nope: true })
  const missingAgain = await app.inject({ url: '/missing-too' })
  assert.equal(missingAgain.statusCode, 429)
  await app.close()
})

test('rate-limit: hook preHandler runs after the body is parsed', async () => {
  const app: any = enclave()
  await app.register(rateLimit, { max: 1, timeWindow: 60000, hook: 'preHandler', keyGenerator: (request: any) => request.body.user })
  app.post('/', async (request: any) => ({ user: request.body.user }))
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { user: 'a' } })).statusCode, 200)
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { user: 'b' } })).statusCode, 200)
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { user: 'a' } })).statusCode, 429)
  await app.close()
})
