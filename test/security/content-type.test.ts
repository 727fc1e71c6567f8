import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import { rawRequest, buildRequest } from './helpers'

const bodySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 10 } }
}

function buildApp (): { app: any, calls: any[] } {
  const calls: any[] = []
  const app: any = enclave()
  app.post('/v', { schema: { body: bodySchema } }, async (request: any) => {
    calls.push(request.body)
    return { ok: true, name: request.body.name }
  })
  app.get('/health', async () => ({ ok: true }))
  return { app, calls }
}

// Every spelling of the JSON media type a client could use: each is either validated or refused, never passed raw.
const jsonSpellings = [
  'application/json',
  'Application/JSON',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json ;charset=utf-8',
  'application/json\t;\tcharset=utf-8',
  'application/json;charset="utf-8"',
  'application/json;',
  'application/json; charset=utf-8; foo=bar',
  'application/JSON; Charset=UTF-8',
  'application/json;;',
  'application/json; charset',
  'application/json, text/plain',
  'application/json text/plain',
  'application/jsonx',
  'application/json+evil',
  'application/jso',
  'json',
  '/json',
  'application/',
  'text/plain',
  'text/plain; charset=utf-8',
  'TEXT/PLAIN',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x'
]
// Over the wire only: leading/trailing whitespace is optional whitespace that the HTTP parser may strip.
const wireOnlySpellings = [' application/json ', '\tapplication/json\t', '  Application/Json  ;  charset=utf-8  ']

const hostileNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype',
  'constructor/prototype', '__proto__/x', 'isPrototypeOf', '__defineGetter__']

describe('content-type spellings never bypass body validation (inject)', () => {
  const { app, calls } = buildApp()
  after(() => app.close())

  for (const contentType of [...jsonSpellings, ...wireOnlySpellings]) {
    test(`invalid body with ${JSON.stringify(contentType)} → 400 or 415, handler not called`, async () => {
      calls.length = 0
      const res = await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': contentType }, payload: '{"nope":1}' })
      assert.ok(res.statusCode === 400 || res.statusCode === 415, `status ${res.statusCode} for ${JSON.stringify(contentType)}: ${res.payload}`)
      const body = res.json()
      assert.equal(body.statusCode, res.statusCode)
      assert.equal(typeof body.message, 'string')
      assert.equal(calls.length, 0, `handler reached with ${JSON.stringify(contentType)}`)
    })

    test(`valid body with ${JSON.stringify(contentType)} → 200 (validated) or 415`, async () => {
      calls.length = 0
      const res = await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': contentType }, payload: '{"name":"ann"}' })
      if (res.statusCode === 200) {
        assert.deepEqual(res.json(), { ok: true, name: 'ann' })
        assert.deepEqual(calls, [{ name: 'ann' }])
      } else {
        assert.ok(res.statusCode === 400 || res.statusCode === 415, `status ${res.statusCode} for ${JSON.stringify(contentType)}`)
        assert.equal(calls.length, 0)
      }
    })
  }

  test('the JSON spellings that must be accepted are accepted', async () => {
    for (const contentType of ['application/json', 'Application/JSON', 'application/json;charset=utf-8',
      'application/json; charset=utf-8', 'application/json\t; charset=utf-8', 'application/JSON; Charset=UTF-8']) {
      const res = await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': contentType }, payload: '{"name":"ann"}' })
      assert.equal(res.statusCode, 200, `${JSON.stringify(contentType)}: ${res.payload}`)
    }
  })

  for (const name of hostileNames) {
    test(`content-type ${JSON.stringify(name)} → 415, no crash`, async () => {
      calls.length = 0
      const res = await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': name }, payload: '{"name":"ann"}' })
      assert.equal(res.statusCode, 415, res.payload)
      assert.deepEqual(res.json(), {
        statusCode: 415,
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        error: 'Unsupported Media Type',
        message: `Unsupported Media Type: ${name}`
      })
      assert.equal(calls.length, 0)
    })
  }

  test('the app still answers after the hostile content types', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' })
    assert.equal(res.statusCode, 200)
  })
})

describe('content-type spellings over a real socket', () => {
  const { app, calls } = buildApp()
  let port = 0
  before(async () => {
    await app.listen({ port: 0 })
    port = app.server.address().port
  })
  after(() => app.close())

  for (const contentType of [...jsonSpellings, ...wireOnlySpellings, ...hostileNames]) {
    test(`wire: invalid body with ${JSON.stringify(contentType)} never reaches the handler`, async () => {
      calls.length = 0
      const result = await rawRequest(port, buildRequest('POST', '/v', { 'content-type': contentType }, '{"nope":1}'))
      assert.equal(result.responses.length, 1, result.raw.toString('latin1'))
      const status = result.responses[0].status
      assert.ok(status === 400 || status === 415, `status ${status} for ${JSON.stringify(contentType)}`)
      assert.equal(JSON.parse(result.responses[0].body.toString()).statusCode, status)
      assert.equal(calls.length, 0)
    })
  }
})

describe('custom parsers: exact media types, RegExp against the whole media type', () => {
  test('a string parser matches its media type only, never a prefix or an extension of it', async () => {
    const app: any = enclave()
    app.addContentTypeParser('application/x-thing', { parseAs: 'string' }, (_req: any, body: any, done: any) => done(null, { thing: body }))
    app.post('/', async (request: any) => request.body)
    const ok = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'Application/X-Thing ; charset=utf-8' }, payload: 'a' })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json(), { thing: 'a' })
    for (const contentType of ['application/x-thingy', 'application/x-thin', 'application/x-thing+json', 'xapplication/x-thing']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': contentType }, payload: 'a' })
      assert.equal(res.statusCode, 415, `${contentType}: ${res.payload}`)
    }
    await app.close()
  })

  test('an anchored RegExp is tested against the whole media type (parameters excluded), not a prefix of the header', async () => {
    const app: any = enclave()
    app.addContentTypeParser(/^application\/vnd\.enclave$/, { parseAs: 'string' }, (_req: any, body: any, done: any) => done(null, { vnd: body }))
    app.post('/', async (request: any) => request.body)
    for (const contentType of ['application/vnd.enclave', 'application/vnd.enclave; charset=utf-8', 'APPLICATION/VND.ENCLAVE']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': contentType }, payload: 'b' })
      assert.equal(res.statusCode, 200, `${contentType}: ${res.payload}`)
      assert.deepEqual(res.json(), { vnd: 'b' })
    }
    for (const contentType of ['application/vnd.enclave-evil', 'application/vnd.enclavex; charset=utf-8', 'application/vnd.enclave+json']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': contentType }, payload: 'b' })
      assert.equal(res.statusCode, 415, `${contentType}: ${res.payload}`)
    }
    await app.close()
  })

  test('a RegExp parser does not capture JSON spellings away from the validated JSON parser', async () => {
    const app: any = enclave()
    app.addContentTypeParser(/^image\/.*/, { parseAs: 'buffer' }, (_req: any, body: any, done: any) => done(null, body))
    app.post('/v', { schema: { body: bodySchema } }, async () => ({ ok: true }))
    const res = await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': 'image/png' }, payload: 'x' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().code, 'FST_ERR_VALIDATION')
    await app.close()
  })

  test('hostile content types are 415 even with a RegExp parser and a custom string parser registered', async () => {
    const app: any = enclave()
    app.addContentTypeParser(/^text\/x-.*$/, { parseAs: 'string' }, (_req: any, body: any, done: any) => done(null, body))
    app.addContentTypeParser('application/x-a', { parseAs: 'string' }, (_req: any, body: any, done: any) => done(null, body))
    app.post('/', async () => ({ ok: true }))
    for (const name of hostileNames) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': name }, payload: 'x' })
      assert.equal(res.statusCode, 415, `${name}: ${res.payload}`)
    }
    await app.close()
  })
})
