import { test } from 'node:test'
import assert from 'node:assert/strict'
import cors from '@fastify/cors'
import enclave from '../../src/index'

test('cors: preflight is answered 204 with the CORS headers, before the route handler', async () => {
  const app: any = enclave()
  app.register(cors)
  app.post('/items', async () => ({ created: true }))

  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/items',
    headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-custom' }
  })
  assert.equal(preflight.statusCode, 204)
  assert.equal(preflight.headers['access-control-allow-origin'], '*')
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE')
  assert.equal(preflight.headers['access-control-allow-headers'], 'x-custom')
  assert.equal(preflight.headers.vary, 'Access-Control-Request-Headers')
  assert.equal(preflight.headers['content-length'], '0')
  assert.equal(preflight.body, '')

  // strictPreflight (default): an OPTIONS request without the preflight headers is rejected
  const invalid = await app.inject({ method: 'OPTIONS', url: '/items' })
  assert.equal(invalid.statusCode, 400)
  assert.equal(invalid.headers['content-type'], 'text/plain')
  assert.equal(invalid.body, 'Invalid Preflight Request')
  await app.close()
})

test('cors: simple requests get Access-Control-Allow-Origin', async () => {
  const app: any = enclave()
  app.register(cors, { exposedHeaders: ['x-total'] })
  app.get('/items', async (_request: any, reply: any) => {
    reply.header('x-total', '3')
    return [1, 2, 3]
  })
  const res = await app.inject({ url: '/items', headers: { origin: 'https://client.example' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['access-control-allow-origin'], '*')
  assert.equal(res.headers['access-control-expose-headers'], 'x-total')
  assert.deepEqual(res.json(), [1, 2, 3])
  await app.close()
})

test('cors: the origin option reflects allowed origins only and sets Vary: Origin', async () => {
  const app: any = enclave()
  app.register(cors, { origin: ['https://allowed.example', /\.trusted\.example$/], credentials: true, maxAge: 600, methods: ['GET', 'PUT'] })
  app.get('/data', async () => ({ ok: true }))

  const allowed = await app.inject({ url: '/data', headers: { origin: 'https://allowed.example' } })
  assert.equal(allowed.statusCode, 200)
  assert.equal(allowed.headers['access-control-allow-origin'], 'https://allowed.example')
  assert.equal(allowed.headers['access-control-allow-credentials'], 'true')
  assert.equal(allowed.headers.vary, 'Origin')

  const byRegExp = await app.inject({ url: '/data', headers: { origin: 'https://api.trusted.example' } })
  assert.equal(byRegExp.headers['access-control-allow-origin'], 'https://api.trusted.example')

  const denied = await app.inject({ url: '/data', headers: { origin: 'https://evil.example' } })
  assert.equal(denied.statusCode, 200)
  assert.equal(denied.headers['access-control-allow-origin'], undefined)
  assert.equal(denied.headers.vary, 'Origin')

  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/data',
    headers: { origin: 'https://allowed.example', 'access-control-request-method': 'PUT' }
  })
  assert.equal(preflight.statusCode, 204)
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://allowed.example')
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET, PUT')
  assert.equal(preflight.headers['access-control-max-age'], '600')
  assert.equal(preflight.headers.vary, 'Origin, Access-Control-Request-Headers')
  await app.close()
})

test('cors: origin false disables CORS; the preflight route then answers 404', async () => {
  const app: any = enclave()
  app.register(cors, { origin: false })
  app.get('/data', async () => ({ ok: true }))
  const res = await app.inject({ url: '/data', headers: { origin: 'https://client.example' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['access-control-allow-origin'], undefined)
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/data',
    headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' }
  })
  assert.equal(preflight.statusCode, 404)
  assert.deepEqual(preflight.json(), { message: 'Route OPTIONS:/data not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('cors: an async delegator chooses options per request; preflight reaches routes in prefixed children', async () => {
  const app: any = enclave()
  app.register(cors, {
    hook: 'preHandler',
    delegator: async (request: any) => ({ origin: request.headers.origin === 'https://good.example' })
  })
  app.register(async (child: any) => {
    child.put('/things/:id', async (request: any) => ({ id: request.params.id }))
  }, { prefix: '/api' })

  const good = await app.inject({ method: 'PUT', url: '/api/things/1', headers: { origin: 'https://good.example' } })
  assert.equal(good.statusCode, 200)
  assert.equal(good.headers['access-control-allow-origin'], 'https://good.example')
  assert.equal(good.headers.vary, 'Origin')
  assert.deepEqual(good.json(), { id: '1' })

  const bad = await app.inject({ method: 'PUT', url: '/api/things/1', headers: { origin: 'https://bad.example' } })
  assert.equal(bad.statusCode, 200)
  assert.equal(bad.headers['access-control-allow-origin'], undefined)

  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/api/things/1',
    headers: { origin: 'https://good.example', 'access-control-request-method': 'PUT' }
  })
  assert.equal(preflight.statusCode, 204)
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://good.example')
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE')
  await app.close()
})
