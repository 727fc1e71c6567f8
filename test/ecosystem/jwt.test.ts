import { test } from 'node:test'
import assert from 'node:assert/strict'
import jwt from '@fastify/jwt'
import cookie from '@fastify/cookie'
import enclave from '../../src/index'

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(jwt, { secret: 'a-very-secret-key', sign: { expiresIn: '1h' } })
  app.post('/login', { schema: { body: { type: 'object', required: ['user'], properties: { user: { type: 'string' } } } } },
    async (request: any, reply: any) => ({ token: await reply.jwtSign({ user: request.body.user }) }))
  app.register(async (instance: any) => {
    instance.addHook('onRequest', async (request: any) => { await request.jwtVerify() })
    instance.get('/me', async (request: any) => ({ user: request.user.user }))
  })
  return app
}

test('jwt: reply.jwtSign issues a token that request.jwtVerify accepts in an onRequest hook', async () => {
  const app = await build()
  const login = await app.inject({ method: 'POST', url: '/login', payload: { user: 'ada' } })
  assert.equal(login.statusCode, 200)
  const { token } = login.json()
  assert.equal(typeof token, 'string')
  assert.deepEqual(app.jwt.decode(token).user, 'ada')

  const me = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { user: 'ada' })
  await app.close()
})

test('jwt: a missing, malformed or forged token answers 401 with the plugin\'s error codes', async () => {
  const app = await build()
  const missing = await app.inject('/me')
  assert.equal(missing.statusCode, 401)
  assert.deepEqual(missing.json(), {
    statusCode: 401,
    code: 'FST_JWT_NO_AUTHORIZATION_IN_HEADER',
    error: 'Unauthorized',
    message: 'No Authorization was found in request.headers'
  })

  const malformed = await app.inject({ url: '/me', headers: { authorization: 'Bearer not-a-token' } })
  assert.equal(malformed.statusCode, 401)
  assert.equal(malformed.json().code, 'FST_JWT_AUTHORIZATION_TOKEN_INVALID')

  const other: any = enclave()
  other.register(jwt, { secret: 'another-secret' })
  await other.ready()
  const forged = await app.inject({ url: '/me', headers: { authorization: `Bearer ${other.jwt.sign({ user: 'eve' })}` } })
  assert.equal(forged.statusCode, 401)
  assert.deepEqual(forged.json(), {
    statusCode: 401,
    code: 'FST_JWT_AUTHORIZATION_TOKEN_INVALID',
    error: 'Unauthorized',
    message: 'Authorization token is invalid: The token signature is invalid.'
  })
  await other.close()
  await app.close()
})

test('jwt: the token can be read from a cookie set by @fastify/cookie', async () => {
  const app: any = enclave()
  app.register(cookie)
  app.register(jwt, { secret: 'a-very-secret-key', cookie: { cookieName: 'token', signed: false } })
  app.get('/login', async (_request: any, reply: any) => {
    const token = await reply.jwtSign({ user: 'grace' })
    return reply.setCookie('token', token, { path: '/' }).send({ ok: true })
  })
  app.get('/me', { onRequest: [async (request: any) => { await request.jwtVerify() }] }, async (request: any) => ({ user: request.user.user }))

  const login = await app.inject('/login')
  assert.equal(login.statusCode, 200)
  const cookieHeader = login.cookies.find((c: any) => c.name === 'token')
  const me = await app.inject({ url: '/me', cookies: { token: cookieHeader.value } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { user: 'grace' })

  const none = await app.inject('/me')
  assert.equal(none.statusCode, 401)
  assert.equal(none.json().code, 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE')
  await app.close()
})
