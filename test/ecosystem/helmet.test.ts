import { test } from 'node:test'
import assert from 'node:assert/strict'
import helmet from '@fastify/helmet'
import enclave from '../../src/index'

test('helmet: the default security headers are set on every route', async () => {
  const app: any = enclave()
  app.register(helmet)
  app.get('/', async () => ({ hello: 'world' }))
  const res = await app.inject({ url: '/' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { hello: 'world' })
  assert.equal(res.headers['x-content-type-options'], 'nosniff')
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(res.headers['strict-transport-security'], 'max-age=15552000; includeSubDomains')
  assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin')
  assert.equal(res.headers['referrer-policy'], 'no-referrer')
  assert.equal(res.headers['x-dns-prefetch-control'], 'off')
  assert.match(String(res.headers['content-security-policy']), /^default-src 'self';/)
  assert.equal(res.headers['x-powered-by'], undefined)
  await app.close()
})

test('helmet: route option helmet: false skips the route; a route object overrides the global configuration', async () => {
  const app: any = enclave()
  app.register(helmet, { frameguard: { action: 'deny' } })
  app.register(async (instance: any) => {
    instance.get('/plain', { helmet: false }, async () => ({ plain: true }))
    instance.get('/custom', { helmet: { frameguard: false, referrerPolicy: { policy: 'same-origin' } } }, async () => ({ custom: true }))
    instance.get('/global', async () => ({ global: true }))
  })

  const plain = await app.inject({ url: '/plain' })
  assert.equal(plain.statusCode, 200)
  assert.deepEqual(plain.json(), { plain: true })
  assert.equal(plain.headers['x-frame-options'], undefined)
  assert.equal(plain.headers['content-security-policy'], undefined)
  assert.equal(plain.headers['x-content-type-options'], undefined)

  const custom = await app.inject({ url: '/custom' })
  assert.equal(custom.statusCode, 200)
  assert.equal(custom.headers['x-frame-options'], undefined)
  assert.equal(custom.headers['referrer-policy'], 'same-origin')
  assert.equal(custom.headers['x-content-type-options'], 'nosniff')

  const global = await app.inject({ url: '/global' })
  assert.equal(global.headers['x-frame-options'], 'DENY')
  assert.equal(global.headers['referrer-policy'], 'no-referrer')
  await app.close()
})

test('helmet: global false applies headers only through reply.helmet() or route configuration', async () => {
  const app: any = enclave()
  app.register(helmet, { global: false })
  app.register(async (instance: any) => {
    instance.get('/none', async () => ({ none: true }))
    instance.get('/manual', async (_request: any, reply: any) => {
      reply.helmet()
      return { manual: true }
    })
    instance.get('/route', { helmet: { frameguard: { action: 'deny' } } }, async () => ({ route: true }))
  })
  const none = await app.inject({ url: '/none' })
  assert.equal(none.headers['x-content-type-options'], undefined)
  const manual = await app.inject({ url: '/manual' })
  assert.deepEqual(manual.json(), { manual: true })
  assert.equal(manual.headers['x-content-type-options'], 'nosniff')
  const route = await app.inject({ url: '/route' })
  assert.equal(route.headers['x-frame-options'], 'DENY')
  await app.close()
})

test('helmet: enableCSPNonces exposes reply.cspNonce and adds the nonces to the policy', async () => {
  const app: any = enclave()
  app.register(helmet, { enableCSPNonces: true })
  app.get('/', async (_request: any, reply: any) => reply.cspNonce)
  const res = await app.inject({ url: '/' })
  const { script, style } = res.json()
  assert.match(script, /^[0-9a-f]{32}$/)
  assert.match(style, /^[0-9a-f]{32}$/)
  const csp = String(res.headers['content-security-policy'])
  assert.ok(csp.includes(`script-src 'self' 'nonce-${script}'`), csp)
  assert.ok(csp.includes(`'nonce-${style}'`), csp)
  await app.close()
})

test('helmet: headers are also present on 404 and error responses', async () => {
  const app: any = enclave()
  app.register(helmet)
  app.get('/boom', async () => { throw new Error('boom') })
  const notFound = await app.inject({ url: '/missing' })
  assert.equal(notFound.statusCode, 404)
  assert.equal(notFound.headers['x-content-type-options'], 'nosniff')
  const boom = await app.inject({ url: '/boom' })
  assert.equal(boom.statusCode, 500)
  assert.equal(boom.headers['x-content-type-options'], 'nosniff')
  assert.deepEqual(boom.json(), { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
  await app.close()
})
