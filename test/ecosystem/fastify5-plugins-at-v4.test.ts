/**
 * The current releases of the official plugins, made for Fastify 5 (each declares `fastify: '5.x'`), together in one
 * application at the Fastify 4 level (the main entry): an application moves to them one at a time. The packages are
 * the `@fastify5/*` npm aliases of package.json; the Fastify 4 majors under their own names are tested beside.
 */
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import cors from '@fastify5/cors'
import helmet from '@fastify5/helmet'
import swagger from '@fastify5/swagger'
import swaggerUi from '@fastify5/swagger-ui'
import jwt from '@fastify5/jwt'
import cookie from '@fastify5/cookie'
import rateLimit from '@fastify5/rate-limit'
import sensible from '@fastify5/sensible'
import fastifyStatic from '@fastify5/static'
import multipart from '@fastify5/multipart'
import enclave from '../../src'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-v5-plugins-'))
fs.writeFileSync(path.join(root, 'hello.txt'), 'hello from a Fastify 5 plugin\n')
fs.mkdirSync(path.join(root, 'guide'))
fs.writeFileSync(path.join(root, 'guide', 'index.html'), '<h1>guide</h1>')
after(() => fs.rmSync(root, { recursive: true, force: true }))

const boundary = '----EnclaveV5Boundary'

function multipartBody (fields: Record<string, string>, file: { name: string, filename: string, content: Buffer }): Buffer {
  const parts = Object.entries(fields).map(([name, value]) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n'
  return Buffer.concat([Buffer.from(parts.join('') + fileHead), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)])
}

/** One Fastify-4-level application with all ten plugins, as an application that moved to them would have. */
async function build (): Promise<any> {
  const app: any = enclave()
  await app.register(cors, { origin: ['https://client.example'], credentials: true })
  await app.register(helmet, { contentSecurityPolicy: false })
  await app.register(swagger, { openapi: { info: { title: 'Shop', version: '1.0.0' } } })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  await app.register(jwt, { secret: 'a-secret-of-at-least-some-length' })
  await app.register(cookie, { secret: 'cookie-secret' })
  await app.register(sensible)
  await app.register(multipart)
  await app.register(fastifyStatic, { root, prefix: '/files/', redirect: true })

  app.get('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } } },
      response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
    }
  }, async (request: any) => ({ id: request.params.id, name: 'tea', secret: 'not in the schema' }))

  app.post('/login', async (request: any, reply: any) => {
    const token = app.jwt.sign({ user: request.body.user })
    reply.setCookie('session', 'abc', { path: '/', httpOnly: true, signed: true })
    return { token }
  })
  app.get('/me', { onRequest: [async (request: any) => { await request.jwtVerify() }] }, async (request: any) => {
    const session = request.unsignCookie(request.cookies.session ?? '')
    return { user: request.user.user, session: session.valid ? session.value : null, theme: request.cookies.theme }
  })

  app.get('/teapot', async () => { throw app.httpErrors.imateapot('short and stout') })
  app.get('/missing', async (_request: any, reply: any) => reply.notFound())
  app.get('/guarded', async (request: any) => {
    app.assert(request.query.ok === 'yes', 403, 'not ok')
    return { ok: true }
  })

  app.post('/upload', async (request: any) => {
    const data = await request.file()
    const content = await data.toBuffer()
    return { field: data.fieldname, filename: data.filename, size: content.length, note: data.fields.note.value }
  })

  // rate-limit in its own context, so that only these routes are limited
  await app.register(async (limited: any) => {
    await limited.register(rateLimit, { max: 2, timeWindow: 60_000 })
    limited.get('/limited', async () => ({ ok: true }))
  })
  await app.ready()
  return app
}

const appReady = build()
after(async () => { await (await appReady).close() })

test('v5 plugins at the v4 level: the application reports Fastify 4 and loads every plugin', async () => {
  const app = await appReady
  assert.equal(app.version, '4.29.1')
  for (const name of ['@fastify/cors', '@fastify/helmet', '@fastify/swagger', '@fastify/swagger-ui', '@fastify/jwt',
    '@fastify/cookie', '@fastify/sensible', '@fastify/multipart', '@fastify/static']) {
    assert.equal(app.hasPlugin(name), true, name)
  }
})

test('cors 11: a preflight is answered 204 with the allowed origin, credentials and methods', async () => {
  const app = await appReady
  const res = await app.inject({
    method: 'OPTIONS',
    url: '/items/1',
    headers: { origin: 'https://client.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }
  })
  assert.equal(res.statusCode, 204)
  assert.equal(res.headers['access-control-allow-origin'], 'https://client.example')
  assert.equal(res.headers['access-control-allow-credentials'], 'true')
  assert.equal(res.headers['access-control-allow-methods'], 'GET,HEAD,POST')
  assert.equal(res.headers['access-control-allow-headers'], 'authorization')
  assert.equal(res.headers.vary, 'Origin, Access-Control-Request-Headers')
  assert.equal(res.body, '')

  const other = await app.inject({ url: '/items/1', headers: { origin: 'https://elsewhere.example' } })
  assert.equal(other.statusCode, 200)
  assert.equal(other.headers['access-control-allow-origin'], undefined)
})

test('helmet 13 sets its headers on every reply; the response schema still filters the payload', async () => {
  const app = await appReady
  const res = await app.inject({ url: '/items/7' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { id: 7, name: 'tea' })
  assert.equal(res.headers['x-content-type-options'], 'nosniff')
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains')
  assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin')
  assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin')
  assert.equal(res.headers['referrer-policy'], 'no-referrer')
  assert.equal(res.headers['x-dns-prefetch-control'], 'off')
  assert.equal(res.headers['x-xss-protection'], '0')
  assert.equal(res.headers['content-security-policy'], undefined)
})

test('swagger 9 + swagger-ui 6: the OpenAPI document describes the routes and the UI page is served', async () => {
  const app = await appReady
  const json = await app.inject({ url: '/docs/json' })
  assert.equal(json.statusCode, 200)
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8')
  const spec = json.json()
  assert.equal(spec.openapi, '3.0.3')
  assert.deepEqual(spec.info, { title: 'Shop', version: '1.0.0' })
  assert.deepEqual(spec.paths['/items/{id}'].get, {
    parameters: [{ schema: { type: 'integer' }, in: 'path', name: 'id', required: true }],
    responses: {
      200: {
        description: 'Default Response',
        content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } }
      }
    }
  })
  assert.equal(spec.paths['/docs/json'], undefined)

  const yaml = await app.inject({ url: '/docs/yaml' })
  assert.equal(yaml.statusCode, 200)
  assert.equal(yaml.headers['content-type'], 'application/x-yaml')
  assert.match(yaml.body, /^openapi: 3\.0\.3\n/)

  const page = await app.inject({ url: '/docs' })
  assert.equal(page.statusCode, 200)
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  assert.match(page.body, /<title>Swagger UI<\/title>/)

  const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' })
  assert.equal(initializer.statusCode, 200)
  assert.equal(initializer.headers['content-type'], 'application/javascript; charset=utf-8')

  // swagger-ui calls reply.redirect(url) with Fastify 5's argument order: the v4 level takes it
  const redirect = await app.inject({ url: '/docs/static/index.html' })
  assert.equal(redirect.statusCode, 302)
  assert.equal(redirect.headers.location, '/docs/')
})

test('jwt 10 + cookie 11: a token signed at login is verified, and cookies are set signed and parsed', async () => {
  const app = await appReady
  const login = await app.inject({ method: 'POST', url: '/login', payload: { user: 'ada' } })
  assert.equal(login.statusCode, 200)
  const { token } = login.json()
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
  assert.equal(login.headers['set-cookie'], `session=${app.signCookie('abc')}; Path=/; HttpOnly; SameSite=Lax`)

  const me = await app.inject({
    url: '/me',
    headers: { authorization: `Bearer ${token}` },
    cookies: { session: app.signCookie('abc'), theme: 'dark' }
  })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { user: 'ada', session: 'abc', theme: 'dark' })

  const anonymous = await app.inject({ url: '/me' })
  assert.equal(anonymous.statusCode, 401)
  assert.deepEqual(anonymous.json(), {
    statusCode: 401, code: 'FST_JWT_NO_AUTHORIZATION_IN_HEADER', error: 'Unauthorized', message: 'No Authorization was found in request.headers'
  })

  const forged = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token.slice(0, -2)}xx` } })
  assert.equal(forged.statusCode, 401)
  assert.equal(forged.json().code, 'FST_JWT_AUTHORIZATION_TOKEN_INVALID')
})

test('sensible 6: httpErrors, reply helpers and assert answer with their status and message', async () => {
  const app = await appReady
  const teapot = await app.inject({ url: '/teapot' })
  assert.equal(teapot.statusCode, 418)
  assert.deepEqual(teapot.json(), { statusCode: 418, error: 'I\'m a Teapot', message: 'short and stout' })

  const missing = await app.inject({ url: '/missing' })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Not Found' })

  const refused = await app.inject({ url: '/guarded?ok=no' })
  assert.equal(refused.statusCode, 403)
  assert.deepEqual(refused.json(), { statusCode: 403, error: 'Forbidden', message: 'not ok' })
  assert.deepEqual((await app.inject({ url: '/guarded?ok=yes' })).json(), { ok: true })
})

test('rate-limit 11: the third request in the window is refused 429 with the limit headers', async () => {
  const app = await appReady
  const first = await app.inject({ url: '/limited' })
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers['x-ratelimit-limit'], '2')
  assert.equal(first.headers['x-ratelimit-remaining'], '1')
  assert.equal(first.headers['x-ratelimit-reset'], '60')
  assert.equal((await app.inject({ url: '/limited' })).statusCode, 200)
  const refused = await app.inject({ url: '/limited' })
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.headers['retry-after'], '60')
  assert.equal(refused.headers['x-ratelimit-remaining'], '0')
  assert.deepEqual(refused.json(), { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' })
  // routes outside the limited context are not counted
  assert.equal((await app.inject({ url: '/items/1' })).headers['x-ratelimit-limit'], undefined)
})

test('static 10: a file is served, and a directory without its slash is redirected 301 by reply.redirect(url, code)', async () => {
  const app = await appReady
  const file = await app.inject({ url: '/files/hello.txt' })
  assert.equal(file.statusCode, 200)
  assert.equal(file.headers['content-type'], 'text/plain; charset=utf-8')
  assert.equal(file.headers['content-length'], '30')
  assert.equal(file.body, 'hello from a Fastify 5 plugin\n')

  const directory = await app.inject({ url: '/files/guide' })
  assert.equal(directory.statusCode, 301)
  assert.equal(directory.headers.location, '/files/guide/')
  const index = await app.inject({ url: '/files/guide/' })
  assert.equal(index.statusCode, 200)
  assert.equal(index.body, '<h1>guide</h1>')

  const absent = await app.inject({ url: '/files/absent.txt' })
  assert.equal(absent.statusCode, 404)
  assert.deepEqual(absent.json(), { message: 'Route GET:/files/absent.txt not found', error: 'Not Found', statusCode: 404 })
})

test('multipart 10: an uploaded file and its fields reach the handler', async () => {
  const app = await appReady
  const content = Buffer.concat([Buffer.from('bytes\r\n--not-the-boundary\r\n'), Buffer.alloc(10_000, 1)])
  const res = await app.inject({
    method: 'POST',
    url: '/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: multipartBody({ note: 'a receipt' }, { name: 'receipt', filename: 'receipt.bin', content })
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { field: 'receipt', filename: 'receipt.bin', size: content.length, note: 'a receipt' })

  const notMultipart = await app.inject({ method: 'POST', url: '/upload', payload: { note: 'json' } })
  assert.equal(notMultipart.statusCode, 406)
  assert.equal(notMultipart.json().code, 'FST_INVALID_MULTIPART_CONTENT_TYPE')
})
