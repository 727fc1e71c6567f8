import { test } from 'node:test'
import assert from 'node:assert/strict'
import cookie from '@fastify/cookie'
import enclave from '../../src/index'

const secret = 'a-secret-with-enough-entropy'

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(cookie, { secret })
  app.get('/read', async (request: any) => ({ cookies: request.cookies }))
  app.get('/set', async (_request: any, reply: any) => {
    reply.setCookie('session', 'abc', { path: '/', httpOnly: true, sameSite: 'lax' })
    reply.setCookie('theme', 'dark', { maxAge: 3600 })
    return { ok: true }
  })
  app.get('/set-with-header', async (_request: any, reply: any) => {
    reply.header('set-cookie', 'manual=1')
    reply.cookie('helper', 'yes')
    return { ok: true }
  })
  app.get('/clear', async (_request: any, reply: any) => {
    reply.clearCookie('session', { path: '/' })
    return { ok: true }
  })
  app.get('/signed', async (_request: any, reply: any) => {
    reply.setCookie('user', 'ada', { signed: true, path: '/' })
    return { ok: true }
  })
  app.get('/verify', async (request: any) => request.unsignCookie(request.cookies.user))
  app.get('/sign-helpers', async () => {
    const signed = app.signCookie('value')
    return { signed, unsigned: app.unsignCookie(signed), parsed: app.parseCookie('a=1; b=two') }
  })
  await app.ready()
  return app
}

test('cookie: request.cookies is parsed from the Cookie header', async () => {
  const app = await build()
  const res = await app.inject({ url: '/read', headers: { cookie: 'a=1; b=hello%20world' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { cookies: { a: '1', b: 'hello world' } })
  const none = await app.inject({ url: '/read' })
  assert.deepEqual(none.json(), { cookies: {} })
  await app.close()
})

test('cookie: setCookie and clearCookie produce Set-Cookie headers', async () => {
  const app = await build()
  const set = await app.inject({ url: '/set' })
  assert.equal(set.statusCode, 200)
  assert.deepEqual(set.headers['set-cookie'], ['session=abc; Path=/; HttpOnly; SameSite=Lax', 'theme=dark; Max-Age=3600'])
  assert.deepEqual(set.cookies.map((c: any) => [c.name, c.value]), [['session', 'abc'], ['theme', 'dark']])

  const merged = await app.inject({ url: '/set-with-header' })
  assert.deepEqual(merged.headers['set-cookie'], ['manual=1', 'helper=yes'])

  const cleared = await app.inject({ url: '/clear' })
  assert.equal(cleared.headers['set-cookie'], 'session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  await app.close()
})

test('cookie: signed cookies round-trip and tampering is detected', async () => {
  const app = await build()
  const signed = await app.inject({ url: '/signed' })
  const setCookie = String(signed.headers['set-cookie'])
  const match = /^user=([^;]+); Path=\/$/.exec(setCookie)
  assert.ok(match, setCookie)
  const value = decodeURIComponent(match[1])
  assert.match(value, /^ada\.[A-Za-z0-9+/_-]+$/)
  assert.equal(value, app.signCookie('ada'))

  const valid = await app.inject({ url: '/verify', headers: { cookie: `user=${match[1]}` } })
  assert.deepEqual(valid.json(), { valid: true, renew: false, value: 'ada' })

  const tampered = await app.inject({ url: '/verify', headers: { cookie: `user=${encodeURIComponent(value.replace('ada', 'eve'))}` } })
  assert.deepEqual(tampered.json(), { valid: false, renew: false, value: null })

  const helpers = await app.inject({ url: '/sign-helpers' })
  const body = helpers.json()
  assert.equal(body.signed, app.signCookie('value'))
  assert.deepEqual(body.unsigned, { valid: true, renew: false, value: 'value' })
  assert.deepEqual(body.parsed, { a: '1', b: 'two' })
  await app.close()
})

test('cookie: secret rotation marks cookies signed with an old secret for renewal', async () => {
  const app: any = enclave()
  app.register(cookie, { secret: ['new-secret', 'old-secret'] })
  app.get('/verify', async (request: any) => request.unsignCookie(request.cookies.token))
  await app.ready()
  const old: any = enclave()
  old.register(cookie, { secret: 'old-secret' })
  await old.ready()
  const signedWithOld = old.signCookie('payload')
  const res = await app.inject({ url: '/verify', headers: { cookie: `token=${encodeURIComponent(signedWithOld)}` } })
  assert.deepEqual(res.json(), { valid: true, renew: true, value: 'payload' })
  await app.close()
  await old.close()
})

test('cookie: cookies set in an onSend hook and in an error handler are sent', async () => {
  const app: any = enclave()
  app.register(cookie)
  app.addHook('onSend', async (_request: any, reply: any) => { reply.setCookie('late', 'onsend') })
  app.setErrorHandler((error: any, _request: any, reply: any) => {
    reply.setCookie('error', 'yes')
    reply.code(418).send({ message: error.message })
  })
  app.get('/ok', async (_request: any, reply: any) => { reply.setCookie('early', 'handler'); return 'ok' })
  app.get('/fail', async () => { throw new Error('nope') })
  const ok = await app.inject({ url: '/ok' })
  assert.deepEqual(ok.headers['set-cookie'], ['early=handler', 'late=onsend'])
  const fail = await app.inject({ url: '/fail' })
  assert.equal(fail.statusCode, 418)
  assert.deepEqual(fail.json(), { message: 'nope' })
  assert.deepEqual(fail.headers['set-cookie'], ['error=yes', 'late=onsend'])
  await app.close()
})
