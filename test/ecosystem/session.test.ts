import { test } from 'node:test'
import assert from 'node:assert/strict'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import enclave from '../../src/index'

const secret = 'a secret with minimum length of 32 characters'

function build (options: Record<string, unknown> = {}): any {
  const app: any = enclave()
  app.register(cookie)
  app.register(session, { secret, cookie: { secure: false }, saveUninitialized: false, ...options })
  app.post('/login', {
    schema: { body: { type: 'object', required: ['user'], properties: { user: { type: 'string' } } } }
  }, async (request: any) => {
    request.session.set('user', request.body.user)
    return { ok: true }
  })
  app.get('/me', async (request: any) => ({ user: request.session.get('user') ?? null }))
  app.post('/rotate', async (request: any) => {
    await request.session.regenerate(['user'])
    return { rotated: true }
  })
  app.post('/logout', async (request: any) => {
    await request.session.destroy()
    return { out: true }
  })
  return app
}

async function login (app: any, user = 'ada'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/login', payload: { user } })
  assert.equal(res.statusCode, 200)
  return res.cookies.find((c: any) => c.name === 'sessionId').value
}

test('session: a value set in the session comes back with its signed cookie', async () => {
  const app = build()
  const res = await app.inject({ method: 'POST', url: '/login', payload: { user: 'ada' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { ok: true })
  const [setCookie] = [res.headers['set-cookie']].flat()
  assert.match(setCookie, /^sessionId=[\w-]{32}\.[\w%]+; Path=\/; HttpOnly$/)
  const sessionId = res.cookies[0].value
  const me = await app.inject({ url: '/me', cookies: { sessionId } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { user: 'ada' })
  await app.close()
})

test('session: without a cookie the session is empty, and saveUninitialized false sets none', async () => {
  const app = build()
  const res = await app.inject('/me')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { user: null })
  assert.equal(res.headers['set-cookie'], undefined)
  await app.close()
})

test('session: a cookie whose signature does not match is refused and cleared', async () => {
  const app = build()
  const sessionId = await login(app)
  const forged = sessionId.slice(0, -3) + 'abc'
  const res = await app.inject({ url: '/me', cookies: { sessionId: forged } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { user: null })
  assert.equal(res.headers['set-cookie'], 'sessionId=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  await app.close()
})

test('session: regenerate() issues a new id and keeps the fields asked for; destroy() ends the session', async () => {
  const app = build()
  const first = await login(app)
  const rotated = await app.inject({ method: 'POST', url: '/rotate', cookies: { sessionId: first } })
  assert.equal(rotated.statusCode, 200)
  const second = rotated.cookies.find((c: any) => c.name === 'sessionId').value
  assert.notEqual(second, first)
  assert.deepEqual((await app.inject({ url: '/me', cookies: { sessionId: second } })).json(), { user: 'ada' })

  const out = await app.inject({ method: 'POST', url: '/logout', cookies: { sessionId: second } })
  assert.equal(out.statusCode, 200)
  assert.deepEqual(out.json(), { out: true })
  assert.deepEqual((await app.inject({ url: '/me', cookies: { sessionId: second } })).json(), { user: null })
  await app.close()
})

test('session: a custom cookie name, maxAge (as Expires) and sameSite are applied over a real socket', async (t) => {
  const app = build({ cookieName: 'sid', cookie: { secure: false, maxAge: 60_000, sameSite: 'lax' } })
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const res = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user":"grace"}' })
  assert.equal(res.status, 200)
  const setCookie = res.headers.get('set-cookie') ?? ''
  assert.match(setCookie, /^sid=[^;]+; Path=\/; Expires=([^;]+ GMT); HttpOnly; SameSite=Lax$/)
  const expires = Date.parse(/Expires=([^;]+)/.exec(setCookie)?.[1] ?? '')
  assert.ok(Math.abs(expires - (Date.now() + 60_000)) < 5_000, setCookie)
  const me = await fetch(`${base}/me`, { headers: { cookie: setCookie.split(';')[0] } })
  assert.deepEqual(await me.json(), { user: 'grace' })
})
