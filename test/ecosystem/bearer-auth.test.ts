import { test } from 'node:test'
import assert from 'node:assert/strict'
import bearerAuth from '@fastify/bearer-auth'
import enclave from '../../src/index'

const keys = new Set(['good-key'])

test('bearer-auth: the protected context answers 401 without a valid key; a sibling is unaffected', async () => {
  const app: any = enclave()
  app.register(async (instance: any) => {
    instance.register(bearerAuth, { keys })
    instance.get('/private', async () => ({ secret: true }))
  })
  app.register(async (instance: any) => {
    instance.get('/public', async () => ({ open: true }))
  })

  const missing = await app.inject({ url: '/private' })
  assert.equal(missing.statusCode, 401)
  assert.deepEqual(missing.json(), { error: 'missing authorization header' })

  const wrong = await app.inject({ url: '/private', headers: { authorization: 'Bearer bad-key' } })
  assert.equal(wrong.statusCode, 401)
  assert.deepEqual(wrong.json(), { error: 'invalid authorization header' })

  const wrongType = await app.inject({ url: '/private', headers: { authorization: 'Basic good-key' } })
  assert.equal(wrongType.statusCode, 401)
  assert.deepEqual(wrongType.json(), { error: 'invalid authorization header' })

  const ok = await app.inject({ url: '/private', headers: { authorization: 'Bearer good-key' } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { secret: true })

  const open = await app.inject({ url: '/public' })
  assert.equal(open.statusCode, 200)
  assert.deepEqual(open.json(), { open: true })
  await app.close()
})

test('bearer-auth: addHook false decorates verifyBearerAuth for use in route hooks', async () => {
  const app: any = enclave()
  app.register(bearerAuth, { keys, addHook: false })
  app.register(async (instance: any) => {
    instance.get('/on-request', { onRequest: instance.verifyBearerAuth }, async () => ({ route: 'onRequest' }))
    instance.get('/pre-handler', { preHandler: [instance.verifyBearerAuth] }, async () => ({ route: 'preHandler' }))
    instance.get('/open', async () => ({ route: 'open' }))
  })
  await app.ready()
  assert.equal(typeof app.verifyBearerAuth, 'function')
  assert.equal(typeof app.verifyBearerAuthFactory, 'function')

  for (const url of ['/on-request', '/pre-handler']) {
    const missing = await app.inject({ url })
    assert.equal(missing.statusCode, 401)
    assert.deepEqual(missing.json(), {
      statusCode: 401,
      code: 'FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER',
      error: 'Unauthorized',
      message: 'missing authorization header'
    })
    const wrong = await app.inject({ url, headers: { authorization: 'Bearer nope' } })
    assert.equal(wrong.statusCode, 401)
    assert.equal(wrong.json().code, 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER')
    const ok = await app.inject({ url, headers: { authorization: 'Bearer good-key' } })
    assert.equal(ok.statusCode, 200)
  }
  assert.deepEqual((await app.inject({ url: '/pre-handler', headers: { authorization: 'Bearer good-key' } })).json(), { route: 'preHandler' })
  const open = await app.inject({ url: '/open' })
  assert.equal(open.statusCode, 200)
  assert.deepEqual(open.json(), { route: 'open' })
  await app.close()
})
