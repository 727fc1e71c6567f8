import { test } from 'node:test'
import assert from 'node:assert/strict'
import auth from '@fastify/auth'
import enclave from '../../src/index'

async function build (): Promise<any> {
  const app: any = enclave()
  app.decorate('verifyKey', async (request: any) => {
    if (request.headers['x-key'] !== 'k') throw Object.assign(new Error('bad key'), { statusCode: 401 })
  })
  app.decorate('verifyUser', (request: any, _reply: any, done: (err?: Error) => void) => {
    done(request.headers['x-user'] === 'ada' ? undefined : Object.assign(new Error('unknown user'), { statusCode: 401 }))
  })
  await app.register(auth)
  app.get('/either', { onRequest: app.auth([app.verifyKey, app.verifyUser]) }, async () => ({ ok: 'either' }))
  app.get('/both', { preHandler: app.auth([app.verifyKey, app.verifyUser], { relation: 'and' }) }, async () => ({ ok: 'both' }))
  app.get('/composite', { preHandler: app.auth([app.verifyUser, [app.verifyKey, app.verifyUser]]) }, async () => ({ ok: 'composite' }))
  return app
}

test('auth: relation "or" lets the first passing verifier through and answers the last error otherwise', async () => {
  const app = await build()
  const byKey = await app.inject({ url: '/either', headers: { 'x-key': 'k' } })
  assert.equal(byKey.statusCode, 200)
  assert.deepEqual(byKey.json(), { ok: 'either' })
  const byUser = await app.inject({ url: '/either', headers: { 'x-user': 'ada' } })
  assert.equal(byUser.statusCode, 200)
  const neither = await app.inject('/either')
  assert.equal(neither.statusCode, 401)
  assert.deepEqual(neither.json(), { statusCode: 401, error: 'Unauthorized', message: 'unknown user' })
  await app.close()
})

test('auth: relation "and" needs every verifier; a nested array is an "and" group', async () => {
  const app = await build()
  const onlyKey = await app.inject({ url: '/both', headers: { 'x-key': 'k' } })
  assert.equal(onlyKey.statusCode, 401)
  assert.deepEqual(onlyKey.json(), { statusCode: 401, error: 'Unauthorized', message: 'unknown user' })
  const both = await app.inject({ url: '/both', headers: { 'x-key': 'k', 'x-user': 'ada' } })
  assert.equal(both.statusCode, 200)
  assert.deepEqual(both.json(), { ok: 'both' })

  const composite = await app.inject({ url: '/composite', headers: { 'x-user': 'ada' } })
  assert.equal(composite.statusCode, 200)
  const none = await app.inject({ url: '/composite', headers: { 'x-key': 'k' } })
  assert.equal(none.statusCode, 401)
  await app.close()
})
