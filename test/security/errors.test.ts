import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import enclave from '../../src/index'
import { rawRequest, rawGet, buildRequest, withProcessErrorWatch } from './helpers'

type Kind = 'error' | 'string' | 'null' | 'undefined'
type Mode = 'sync' | 'async' | 'done'
const kinds: Kind[] = ['error', 'string', 'null', 'undefined']

function thrown (kind: Kind): unknown {
  switch (kind) {
    case 'error': return new Error('boom')
    case 'string': return 'boom'
    case 'null': return null
    case 'undefined': return undefined
  }
}

function kindOf (request: any): Kind { return request.headers['x-kind'] }
function modeOf (request: any): Mode { return request.headers['x-mode'] }

/** A hook in the mode the request asks for: throws synchronously, rejects, or calls `done(value)`. */
function failingHook (name: string): any {
  const payloadHook = name === 'preParsing' || name === 'preSerialization' || name === 'onSend' || name === 'onError'
  if (payloadHook) {
    return function (this: any, request: any, _reply: any, _payload: any, done: any) {
      const value = thrown(kindOf(request))
      if (modeOf(request) === 'async') return Promise.reject(value)
      if (modeOf(request) === 'done') return done(value)
      throw value
    }
  }
  return function (this: any, request: any, _reply: any, done: any) {
    const value = thrown(kindOf(request))
    if (modeOf(request) === 'async') return Promise.reject(value)
    if (modeOf(request) === 'done') return done(value)
    throw value
  }
}

const hookNames = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onError', 'onResponse']

function buildApp (): any {
  const app: any = enclave()
  app.get('/health', async () => ({ ok: true }))

  app.get('/handler', function (request: any) {
    const value = thrown(kindOf(request))
    if (modeOf(request) === 'async') return Promise.reject(value)
    throw value
  })

  for (const name of hookNames) {
    // onError only runs for an error: its route's handler fails with a proper Error
    const handler = name === 'onError'
      ? async () => { throw Object.assign(new Error('handler failed'), { statusCode: 503 }) }
      : async () => ({ ok: true })
    app.post(`/hook/${name}`, { [name]: failingHook(name) }, handler)
  }

  app.register(async (child: any) => {
    child.addContentTypeParser('application/x-fail', function (request: any, _payload: any, done: any) {
      const value = thrown(kindOf(request))
      if (modeOf(request) === 'async') return Promise.reject(value)
      if (modeOf(request) === 'done') return done(value)
      throw value
    })
    child.addContentTypeParser('application/x-fail-string', { parseAs: 'string' }, function (request: any, _body: any, done: any) {
      const value = thrown(kindOf(request))
      if (modeOf(request) === 'async') return Promise.reject(value)
      if (modeOf(request) === 'done') return done(value)
      throw value
    })
    child.post('/parser', async () => ({ reached: true }))
  })

  app.register(async (child: any) => {
    child.setSerializerCompiler(() => (data: any) => {
      throw thrown(data.kind)
    })
    child.get('/serializer', {
      schema: { response: { 200: { type: 'object', properties: { kind: { type: 'string' } } } } }
    }, async (request: any) => ({ kind: kindOf(request) }))
  })

  app.get('/reply-serializer', async (request: any, reply: any) => {
    reply.serializer(() => { throw thrown(kindOf(request)) })
    return { a: 1 }
  })

  app.register(async (child: any) => {
    child.setErrorHandler(function (_error: any, request: any) {
      const value = thrown(kindOf(request))
      if (modeOf(request) === 'async') return Promise.reject(value)
      throw value
    })
    child.get('/error-handler', async () => { throw new Error('first failure') })
  })

  app.register(async (child: any) => {
    child.setNotFoundHandler(function (request: any) {
      const value = thrown(kindOf(request))
      if (modeOf(request) === 'async') return Promise.reject(value)
      throw value
    })
  }, { prefix: '/nf' })

  return app
}

interface Case { name: string, method: string, url: string, modes: Mode[], contentType?: string, body?: string, expectStatus?: number }

const cases: Case[] = [
  { name: 'handler', method: 'GET', url: '/handler', modes: ['sync', 'async'] },
  ...hookNames.map((name): Case => ({
    name: `${name} hook`,
    method: 'POST',
    url: `/hook/${name}`,
    modes: ['sync', 'async', 'done'],
    contentType: 'application/json',
    body: '{"a":1}',
    // the response is already written when onResponse fails; onError cannot change the status of the error it sees
    expectStatus: name === 'onResponse' ? 200 : name === 'onError' ? 503 : undefined
  })),
  { name: 'content-type parser (stream)', method: 'POST', url: '/parser', modes: ['sync', 'async', 'done'], contentType: 'application/x-fail', body: 'x' },
  { name: 'content-type parser (parseAs)', method: 'POST', url: '/parser', modes: ['sync', 'async', 'done'], contentType: 'application/x-fail-string', body: 'x' },
  { name: 'serializer compiler', method: 'GET', url: '/serializer', modes: ['sync'] },
  { name: 'reply.serializer', method: 'GET', url: '/reply-serializer', modes: ['sync'] },
  { name: 'error handler', method: 'GET', url: '/error-handler', modes: ['sync', 'async'] },
  { name: 'not-found handler', method: 'GET', url: '/nf/missing', modes: ['sync', 'async'] }
]

/**
 * Fastify's default handler sends a thrown string itself as the body; an error response for everything else, and
 * where sending it fails again (an onSend hook that always fails, a serializer that always throws).
 */
function answersThrownString (c: Case, kind: Kind): boolean {
  return kind === 'string' && c.expectStatus === undefined && !['onSend hook', 'serializer compiler', 'reply.serializer'].includes(c.name)
}

/** The one error response a failing site must produce (or the route's own answer when the failure comes too late). */
function checkErrorPayload (c: Case, kind: Kind, response: { status: number, headers: Record<string, string>, body: Buffer }): void {
  const payload = JSON.parse(response.body.toString())
  if (c.expectStatus === 200) {
    assert.equal(response.status, 200)
    assert.deepEqual(payload, { ok: true })
    return
  }
  assert.equal(response.status, c.expectStatus ?? 500, response.body.toString())
  assert.match(response.headers['content-type'], /^application\/json/)
  assert.equal(payload.statusCode, response.status)
  assert.equal(typeof payload.error, 'string')
  assert.equal(typeof payload.message, 'string')
  if (kind === 'error' && c.expectStatus === undefined) assert.match(payload.message, /boom/)
  // onError sees the handler's error; its own failure is only logged
  if (c.expectStatus === 503) assert.equal(payload.message, 'handler failed')
  assert.notDeepEqual(payload, { reached: true })
}

describe('a failure anywhere yields one well-formed error response', () => {
  const app = buildApp()
  let port = 0
  before(async () => {
    await app.listen({ port: 0 })
    port = app.server.address().port
  })
  after(() => app.close())

  for (const c of cases) {
    for (const mode of c.modes) {
      for (const kind of kinds) {
        // `done(null)` / `done(undefined)` mean success, not failure
        if (mode === 'done' && (kind === 'null' || kind === 'undefined')) continue
        test(`${c.name}: ${mode} ${kind}`, async () => {
          const headers: Record<string, string> = { 'x-kind': kind, 'x-mode': mode }
          if (c.contentType !== undefined) headers['content-type'] = c.contentType
          let result: any
          const fired = await withProcessErrorWatch(async () => {
            result = await rawRequest(port, buildRequest(c.method, c.url, headers, c.body))
          })
          assert.deepEqual(fired, [], 'unhandledRejection / uncaughtException emitted')
          assert.equal(result.responses.length, 1, `exactly one response, got: ${result.raw.toString('latin1')}`)
          assert.equal(result.rest.length, 0, `trailing bytes: ${result.rest.toString('latin1')}`)
          const response = result.responses[0]
          if (answersThrownString(c, kind)) {
            // a thrown string reaching the default handler is the body itself, as Fastify sends it
            assert.equal(response.status, 500)
            assert.match(response.headers['content-type'], /^text\/plain/)
            assert.equal(response.body.toString(), 'boom')
          } else {
            checkErrorPayload(c, kind, response)
          }
          const health = await rawGet(port, '/health')
          assert.equal(health.status, 200)
        })
      }
    }
  }
})

describe('the same failures through inject never emit process-level errors', () => {
  test('no unhandledRejection / uncaughtException across every site, mode and value', async () => {
    const app = buildApp()
    await app.ready()
    const malformed: string[] = []
    const fired = await withProcessErrorWatch(async () => {
      for (const c of cases) {
        for (const mode of c.modes) {
          for (const kind of kinds) {
            if (mode === 'done' && (kind === 'null' || kind === 'undefined')) continue
            const res = await app.inject({ method: c.method, url: c.url, headers: { 'x-kind': kind, 'x-mode': mode, ...(c.contentType ? { 'content-type': c.contentType } : {}) }, payload: c.body })
            const expected = c.expectStatus ?? 500
            let body: any
            try { body = res.json() } catch { body = undefined }
            const ok = answersThrownString(c, kind)
              ? res.statusCode === 500 && res.payload === 'boom'
              : res.statusCode === expected && body !== undefined &&
                (expected === 200 ? body.ok === true : body.statusCode === expected && typeof body.message === 'string')
            if (!ok) malformed.push(`${c.name} ${mode} ${kind}: ${res.statusCode} ${res.payload}`)
          }
        }
      }
      const health = await app.inject('/health')
      assert.equal(health.statusCode, 200)
    })
    assert.deepEqual(fired, [])
    assert.deepEqual(malformed, [])
    await app.close()
  })
})

describe('a reply sent twice', () => {
  function capture (): { stream: Writable, lines: any[] } {
    const lines: any[] = []
    const stream = new Writable({
      write (chunk, _enc, cb) {
        for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line))
        cb()
      }
    })
    return { stream, lines }
  }

  test('send, send: the first is sent once, the second logs a warning', async (t) => {
    const { stream, lines } = capture()
    const app: any = enclave({ logger: { level: 'warn', stream } })
    t.after(() => { if (app.server.listening) { app.server.closeAllConnections(); app.server.close() } })
    app.get('/twice', (_request: any, reply: any) => {
      reply.send({ first: true })
      reply.send({ second: true })
    })
    app.get('/async-twice', async (_request: any, reply: any) => {
      reply.send({ first: true })
      return { second: true }
    })
    await app.listen({ port: 0 })
    const port = app.server.address().port
    for (const url of ['/twice', '/async-twice']) {
      const result = await rawRequest(port, buildRequest('GET', url, {}))
      assert.equal(result.responses.length, 1, result.raw.toString('latin1'))
      assert.equal(result.rest.length, 0)
      assert.equal(result.responses[0].status, 200)
      assert.deepEqual(JSON.parse(result.responses[0].body.toString()), { first: true })
    }
    const warnings = lines.filter((l) => l.level === 40)
    assert.ok(warnings.length >= 1, JSON.stringify(lines))
    assert.equal(warnings[0].msg, 'Reply was already sent, did you forget to "return reply" in "/twice" (GET)?')
    assert.equal(warnings[0].err.code, 'FST_ERR_REP_ALREADY_SENT')
    assert.equal((await rawGet(port, '/twice')).status, 200)
    await app.close()
  })
})

describe('garbage after a request that is still being answered', () => {
  let app: any
  let port: number
  before(async () => {
    app = enclave()
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return { slow: true }
    })
    await app.listen({ port: 0 })
    port = app.server.address().port
  })
  after(() => app.close())

  test('an asynchronous answer is sent whole, then the 400 for the garbage (never inside it), then the connection closes', async () => {
    const result = await rawRequest(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n\x01garbage\r\n\r\n')
    assert.equal(result.ended, 'end')
    assert.deepEqual(result.responses.map((r) => [r.status, r.body.toString()]), [
      [200, '{"slow":true}'],
      [400, '{"error":"Bad Request","message":"Client Error","statusCode":400}']
    ])
    assert.equal(result.rest.length, 0)
  })

  test('a HEAD request with more body bytes than its Content-Length gets its answer, then a 400 for the extra bytes, and the connection closes', async () => {
    const result = await rawRequest(port, 'HEAD /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n1.5', { headRequest: true })
    assert.equal(result.ended, 'end')
    assert.deepEqual(result.responses.map((r) => r.status), [404, 400])
    assert.equal(result.responses[0].body.length, 0)
    assert.deepEqual(JSON.parse(result.responses[1].body.toString()), { error: 'Bad Request', message: 'Client Error', statusCode: 400 })
    assert.equal(result.rest.length, 0)
  })

  test('garbage on an idle kept-alive connection still gets a 400', async () => {
    const result = await rawRequest(port, ['GET /nope HTTP/1.1\r\nHost: x\r\n\r\n', '\x01garbage\r\n\r\n'], { interval: 100 })
    assert.deepEqual(result.responses.map((r) => r.status), [404, 400])
    assert.deepEqual(JSON.parse(result.responses[1].body.toString()), { error: 'Bad Request', message: 'Client Error', statusCode: 400 })
  })
})
