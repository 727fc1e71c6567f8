import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import { rawRequest, rawGet, buildRequest, sleep } from './helpers'

const LIMIT = 1000

function buildApp (opts: any = {}): { app: any, calls: any[] } {
  const calls: any[] = []
  const app: any = enclave({ bodyLimit: LIMIT, ...opts })
  app.post('/echo', async (request: any) => {
    calls.push(request.body)
    return { body: request.body }
  })
  app.get('/get', async (request: any) => {
    calls.push(request.body)
    return { hasBody: request.body !== undefined }
  })
  app.get('/health', async () => ({ ok: true }))
  return { app, calls }
}

const tooLarge = {
  statusCode: 413,
  code: 'FST_ERR_CTP_BODY_TOO_LARGE',
  error: 'Payload Too Large',
  message: 'Request body is too large'
}

describe('body limits (inject)', () => {
  const { app, calls } = buildApp()
  after(() => app.close())

  test('a declared length past bodyLimit → 413 before reading', async () => {
    calls.length = 0
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(LIMIT) }) })
    assert.equal(res.statusCode, 413)
    assert.deepEqual(res.json(), tooLarge)
    assert.equal(calls.length, 0)
  })

  test('a content-length smaller than the real body does not lift the limit → 413', async () => {
    calls.length = 0
    const payload = JSON.stringify({ a: 'x'.repeat(LIMIT * 2) })
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-length': '10' }, payload })
    assert.equal(res.statusCode, 413)
    assert.deepEqual(res.json(), tooLarge)
    assert.equal(calls.length, 0)
  })

  test('a content-length that does not match a small body → 400 FST_ERR_CTP_INVALID_CONTENT_LENGTH', async () => {
    calls.length = 0
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-length': '3' }, payload: '{"a":1}' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    assert.equal(calls.length, 0)
  })

  test('a route bodyLimit overrides the server limit', async () => {
    const app2: any = enclave({ bodyLimit: LIMIT })
    app2.post('/small', { bodyLimit: 10 }, async (request: any) => request.body)
    const res = await app2.inject({ method: 'POST', url: '/small', headers: { 'content-type': 'application/json' }, payload: '{"a":"0123456789"}' })
    assert.equal(res.statusCode, 413)
    await app2.close()
  })

  test('malformed JSON → 400, handler not called', async () => {
    calls.length = 0
    for (const payload of ['{', '{"a":', '{"a":1}}', 'nul', '[1,2', '{"a":1,}', "{'a':1}", '\u0000', '{"a":"\\x"}']) {
      const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload })
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.payload}`)
      const body = res.json()
      assert.equal(body.statusCode, 400)
      assert.equal(body.error, 'Bad Request')
      assert.equal(typeof body.message, 'string')
    }
    assert.equal(calls.length, 0)
  })

  test('an empty body with a JSON content type → 400 FST_ERR_CTP_EMPTY_JSON_BODY', async () => {
    calls.length = 0
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json', 'content-length': '0' }]) {
      const res = await app.inject({ method: 'POST', url: '/echo', headers, payload: '' })
      assert.equal(res.statusCode, 400, res.payload)
      assert.deepEqual(res.json(), {
        statusCode: 400,
        code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
        error: 'Bad Request',
        message: "Body cannot be empty when content-type is set to 'application/json'"
      })
    }
    assert.equal(calls.length, 0)
  })

  test('a body on GET is ignored, even malformed or oversized', async () => {
    calls.length = 0
    for (const payload of ['{bad', 'x'.repeat(LIMIT * 3)]) {
      const res = await app.inject({ method: 'GET', url: '/get', headers: { 'content-type': 'application/json' }, payload })
      assert.equal(res.statusCode, 200, res.payload)
      assert.deepEqual(res.json(), { hasBody: false })
    }
    assert.deepEqual(calls, [undefined, undefined])
  })
})

describe('prototype poisoning', () => {
  const proto = '{"a":1,"__proto__":{"polluted":true}}'
  const ctor = '{"a":1,"constructor":{"prototype":{"polluted":true}}}'

  test('default (error): __proto__ and constructor.prototype → 400', async () => {
    const { app, calls } = buildApp()
    for (const payload of [proto, ctor, `{"nested":${proto}}`, `[${ctor}]`]) {
      const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload })
      assert.equal(res.statusCode, 400, payload)
      assert.equal(res.json().statusCode, 400)
      assert.equal(res.json().error, 'Bad Request')
    }
    assert.equal(calls.length, 0)
    assert.equal(({} as any).polluted, undefined)
    await app.close()
  })

  test('remove: the keys are stripped', async () => {
    const { app, calls } = buildApp({ onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove' })
    const a = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: proto })
    assert.equal(a.statusCode, 200)
    assert.deepEqual(a.json(), { body: { a: 1 } })
    assert.equal(Object.prototype.hasOwnProperty.call(calls[0], '__proto__'), false)
    assert.equal(calls[0].polluted, undefined)
    const b = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: ctor })
    assert.equal(b.statusCode, 200)
    assert.deepEqual(b.json(), { body: { a: 1 } })
    assert.equal(Object.prototype.hasOwnProperty.call(calls[1], 'constructor'), false)
    assert.equal(({} as any).polluted, undefined)
    await app.close()
  })

  test('ignore: kept as own properties, Object.prototype never polluted', async () => {
    const { app, calls } = buildApp({ onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' })
    const a = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: proto })
    assert.equal(a.statusCode, 200)
    assert.equal(Object.prototype.hasOwnProperty.call(calls[0], '__proto__'), true)
    assert.deepEqual(Object.getOwnPropertyDescriptor(calls[0], '__proto__')!.value, { polluted: true })
    assert.equal(Object.getPrototypeOf(calls[0]), Object.prototype)
    const b = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: ctor })
    assert.equal(b.statusCode, 200)
    assert.deepEqual(b.json(), { body: { a: 1, constructor: { prototype: { polluted: true } } } })
    assert.equal(({} as any).polluted, undefined)
    assert.equal(Object.prototype.constructor, Object)
    await app.close()
  })

  test('keys spelt with escapes are found too; a BOM is skipped as secure-json-parse skips it', async () => {
    const { app, calls } = buildApp()
    const escaped = ['{"\\u005f_proto__":{"polluted":true}}', '{"__pr\\u006fto__":{"polluted":true}}', '{"c\\u006fnstructor":{"prototype":{"polluted":true}}}']
    for (const payload of escaped) {
      const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload })
      assert.deepEqual([res.statusCode, res.json().message], [400, 'Object contains forbidden prototype property'], payload)
    }
    assert.equal(calls.length, 0)
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '\ufeff{"a":"x\\ny"}' })
    assert.deepEqual([res.statusCode, res.json()], [200, { body: { a: 'x\ny' } }])
    const removed = buildApp({ onProtoPoisoning: 'remove' })
    const stripped = await removed.app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":1,"\\u005f_proto__":{"p":1}}' })
    assert.deepEqual([stripped.statusCode, stripped.json()], [200, { body: { a: 1 } }])
    await app.close()
    await removed.app.close()
  })

  test('mixed: error on __proto__, remove on constructor', async () => {
    const { app } = buildApp({ onProtoPoisoning: 'error', onConstructorPoisoning: 'remove' })
    const a = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: proto })
    assert.equal(a.statusCode, 400)
    const b = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: ctor })
    assert.equal(b.statusCode, 200)
    assert.deepEqual(b.json(), { body: { a: 1 } })
    await app.close()
  })
})

describe('bodies over a real socket', () => {
  const { app, calls } = buildApp()
  let port = 0
  let aborted = 0
  app.addHook('onRequestAbort', async () => { aborted++ })
  before(async () => {
    await app.listen({ port: 0 })
    port = app.server.address().port
  })
  after(() => app.close())

  test('declared length past the limit → 413', async () => {
    calls.length = 0
    const body = JSON.stringify({ a: 'x'.repeat(LIMIT * 2) })
    const result = await rawRequest(port, buildRequest('POST', '/echo', { 'content-type': 'application/json' }, body))
    assert.equal(result.responses[0]?.status, 413, result.raw.toString('latin1'))
    assert.deepEqual(JSON.parse(result.responses[0].body.toString()), tooLarge)
    assert.equal(calls.length, 0)
  })

  test('chunked body without content-length past the limit → 413', async () => {
    calls.length = 0
    const head = 'POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
    const chunk = '{"a":"' + 'x'.repeat(600)
    const chunks = [head, `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`]
    for (let i = 0; i < 4; i++) chunks.push(`258\r\n${'y'.repeat(600)}\r\n`)
    chunks.push('2\r\n"}\r\n0\r\n\r\n')
    const result = await rawRequest(port, chunks, { interval: 5 })
    assert.equal(result.responses[0]?.status, 413, result.raw.toString('latin1'))
    assert.deepEqual(JSON.parse(result.responses[0].body.toString()), tooLarge)
    assert.equal(calls.length, 0)
  })

  test('chunked body within the limit is parsed', async () => {
    calls.length = 0
    const head = 'POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
    const result = await rawRequest(port, [head, '4\r\n{"a"\r\n', '3\r\n:1}\r\n', '0\r\n\r\n'], { interval: 5 })
    assert.equal(result.responses[0]?.status, 200, result.raw.toString('latin1'))
    assert.deepEqual(JSON.parse(result.responses[0].body.toString()), { body: { a: 1 } })
  })

  test('content-length smaller than the real body: only the declared bytes are read, the rest is refused', async () => {
    calls.length = 0
    const body = JSON.stringify({ a: 'x'.repeat(LIMIT * 2) })
    const result = await rawRequest(port, buildRequest('POST', '/echo', { 'content-type': 'application/json', 'content-length': '10' }, body))
    assert.ok(result.responses.length >= 1, result.raw.toString('latin1'))
    for (const response of result.responses) {
      assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`)
      assert.equal(typeof JSON.parse(response.body.toString()).message, 'string')
    }
    assert.equal(calls.length, 0)
  })

  test('a request aborted mid-body never reaches the handler and the server keeps serving', async () => {
    calls.length = 0
    aborted = 0
    const head = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 800\r\n\r\n'
    const result = await rawRequest(port, [head, '{"a":"' + 'x'.repeat(394)], { interval: 20, destroyAfterWrite: true })
    assert.equal(result.responses.length, 0)
    await sleep(100)
    assert.equal(calls.length, 0, 'handler called for an aborted request')
    assert.equal(aborted, 1, 'onRequestAbort ran once')
    const health = await rawGet(port, '/health')
    assert.equal(health.status, 200)
    // the aborted socket is gone: only sockets still open are counted
    const open = await new Promise<number>((resolve, reject) => app.server.getConnections((err: any, n: number) => err ? reject(err) : resolve(n)))
    assert.equal(open, 0)
  })

  test('many aborted uploads in parallel leave the server answering', async () => {
    calls.length = 0
    const head = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n'
    await Promise.all(Array.from({ length: 50 }, () => rawRequest(port, [head, '{"a":"' + 'x'.repeat(300)], { interval: 5, destroyAfterWrite: true })))
    await sleep(100)
    assert.equal(calls.length, 0)
    assert.equal((await rawGet(port, '/health')).status, 200)
  })
})
