/**
 * The response writer (src/reply/send.ts): the content type each kind of payload gets, the Content-Length the
 * body gets, the statuses that never carry a body, HEAD answers, streams, and failures before the first byte.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import net from 'node:net'
import { once } from 'node:events'
import { enclave, logSink } from '../helpers'

test('each kind of payload gets its content type and its exact length', async () => {
  const app = enclave()
  app.get('/string', () => 'héllo')
  app.get('/object', () => ({ a: 1 }))
  app.get('/null', (_request: any, reply: any) => { reply.send(null) })
  app.get('/buffer', () => Buffer.from([1, 2, 3]))
  app.get('/typed-array', () => new Uint8Array([4, 5]))
  const expected: Array<[string, string, string]> = [
    ['/string', 'text/plain; charset=utf-8', 'héllo'],
    ['/object', 'application/json; charset=utf-8', '{"a":1}'],
    ['/null', 'application/json; charset=utf-8', 'null'],
    ['/buffer', 'application/octet-stream', '\u0001\u0002\u0003'],
    ['/typed-array', 'application/octet-stream', '\u0004\u0005']
  ]
  for (const [url, type, body] of expected) {
    const res = await app.inject(url)
    assert.equal(res.headers['content-type'], type, url)
    assert.equal(res.body, body, url)
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(body)), url)
  }
})

test('a JSON content type set by the handler gets charset=utf-8; other types are kept as set', async () => {
  const app = enclave()
  app.get('/json', (_request: any, reply: any) => { reply.type('application/vnd.api+json').send({ a: 1 }) })
  app.get('/text', (_request: any, reply: any) => { reply.type('text/csv').send('a,b') })
  assert.equal((await app.inject('/json')).headers['content-type'], 'application/vnd.api+json; charset=utf-8')
  assert.equal((await app.inject('/text')).headers['content-type'], 'text/csv')
})

test('with a serializer of the reply\'s own, the content type stays exactly as set (no charset added)', async () => {
  const app = enclave()
  app.get('/json', (_request: any, reply: any) => { reply.type('application/json').serializer(JSON.stringify).send({ a: 1 }) })
  app.get('/vnd', (_request: any, reply: any) => { reply.type('application/vnd.api+json').serializer(JSON.stringify).send({ a: 1 }) })
  app.get('/string', (_request: any, reply: any) => { reply.type('application/json').serializer((s: string) => `[${s}]`).send('x') })
  for (const [url, type, body] of [['/json', 'application/json', '{"a":1}'], ['/vnd', 'application/vnd.api+json', '{"a":1}'], ['/string', 'application/json', '[x]']]) {
    const res = await app.inject(url)
    assert.deepEqual([res.headers['content-type'], res.body], [type, body], url)
  }
})

test('an object under a non-JSON content type cannot be written: 500 FST_ERR_REP_INVALID_PAYLOAD_TYPE', async () => {
  const app = enclave()
  app.get('/', (_request: any, reply: any) => { reply.type('text/plain').send({ a: 1 }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
})

test('a wrong Content-Length set by the handler is corrected to the body\'s', async () => {
  const app = enclave()
  app.get('/', (_request: any, reply: any) => { reply.header('content-length', '999').send('four') })
  const res = await app.inject('/')
  assert.equal(res.headers['content-length'], '4')
  assert.equal(res.body, 'four')
})

test('204 and 304 answers never carry a body, nor the headers that describe one', async () => {
  const app = enclave()
  app.get('/204', (_request: any, reply: any) => { reply.code(204).send({ dropped: true }) })
  app.get('/304', (_request: any, reply: any) => { reply.code(304).send('dropped') })
  const noContent = await app.inject('/204')
  assert.equal(noContent.statusCode, 204)
  assert.equal(noContent.body, '')
  assert.equal(noContent.headers['content-type'], undefined)
  assert.equal(noContent.headers['content-length'], undefined)
  const notModified = await app.inject('/304')
  assert.equal(notModified.statusCode, 304)
  assert.equal(notModified.body, '')
})

test('a 304 sent with a string announces that string\'s length and writes no body; without a payload it has no Content-Length', async () => {
  const app = enclave()
  app.get('/empty', (_request: any, reply: any) => { reply.code(304).send('') })
  app.get('/text', (_request: any, reply: any) => { reply.code(304).send('dropped') })
  app.get('/wrong', (_request: any, reply: any) => { reply.code(304).header('content-length', '99').send('') })
  app.get('/none', (_request: any, reply: any) => { reply.code(304).send() })
  const lengths: Record<string, string | undefined> = {}
  for (const url of ['/empty', '/text', '/wrong', '/none']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 304)
    assert.equal(res.body, '')
    lengths[url] = res.headers['content-length'] as string | undefined
  }
  assert.deepEqual(lengths, { '/empty': '0', '/text': '7', '/wrong': '0', '/none': undefined })
})

test('a 304 sent with an empty body keeps content-length: 0, as an etag onSend hook answers it', async (t) => {
  const app = enclave()
  app.addHook('onSend', async (request: any, reply: any, payload: unknown) => {
    if (request.headers['if-none-match'] !== '"v1"') return payload
    reply.code(304)
    return ''
  })
  app.get('/', (_request: any, reply: any) => { reply.header('etag', '"v1"').send({ big: 'x'.repeat(100) }) })
  app.get('/empty', (_request: any, reply: any) => { reply.code(304).send('') })
  const fresh = await app.inject('/')
  assert.equal(fresh.statusCode, 200)
  const cached = await app.inject({ url: '/', headers: { 'if-none-match': '"v1"' } })
  assert.deepEqual([cached.statusCode, cached.headers['content-length'], cached.body], [304, '0', ''])
  const empty = await app.inject('/empty')
  assert.deepEqual([empty.statusCode, empty.headers['content-length'], empty.body], [304, '0', ''])
  // and over a socket, where the next request on the connection is not taken for a body
  await app.listen({ port: 0 })
  t.after(() => app.close())
  const res = await fetch(`http://127.0.0.1:${app.server.address().port}/`, { headers: { 'if-none-match': '"v1"' } })
  assert.deepEqual([res.status, res.headers.get('content-length'), await res.text()], [304, '0', ''])
})

test('HEAD answers carry the GET route\'s headers and length, never its body', async () => {
  const app = enclave()
  app.get('/', () => ({ hello: 'world' }))
  const res = await app.inject({ method: 'HEAD', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '')
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(res.headers['content-length'], String('{"hello":"world"}'.length))
})

test('a HEAD route of its own ends with what it sent: inject shows it, a real socket carries no body', async () => {
  const app = enclave()
  app.route({ method: 'HEAD', url: '/', constraints: { host: 'example.test' }, handler: (_request: any, reply: any) => { reply.type('text/plain').send('own HEAD') } })
  app.get('/', { constraints: { host: 'example.test' } }, () => ({ from: 'GET' }))
  const injected = await app.inject({ method: 'HEAD', url: '/', headers: { host: 'example.test' } })
  assert.equal(injected.body, 'own HEAD')
  assert.equal(injected.headers['content-length'], '8')
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const socket = net.connect(app.server.address().port, '127.0.0.1')
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { raw += chunk })
    socket.end('HEAD / HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n')
    await once(socket, 'close')
    assert.match(raw, /^HTTP\/1\.1 200 OK\r\n/)
    assert.match(raw, /\r\ncontent-length: 8\r\n/)
    assert.ok(raw.endsWith('\r\n\r\n'), raw)
  } finally {
    await app.close()
  }
})

test('a stream is piped without a Content-Length; an error before its first byte is answered 500', async () => {
  const app = enclave()
  app.get('/ok', (_request: any, reply: any) => { reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])) })
  app.get('/broken', (_request: any, reply: any) => {
    const stream = new Readable({ read () { this.destroy(new Error('no data')) } })
    reply.type('text/plain').send(stream)
  })
  const ok = await app.inject('/ok')
  assert.equal(ok.body, 'abc')
  assert.equal(ok.headers['content-length'], undefined)
  const broken = await app.inject('/broken')
  assert.equal(broken.statusCode, 500)
  assert.equal(broken.json().message, 'no data')
})

test('a stream destroyed before its end without an error is a failure too: 500 ERR_STREAM_PREMATURE_CLOSE', async () => {
  const app = enclave()
  app.get('/', (_request: any, reply: any) => {
    reply.type('text/plain').send(new Readable({ read () { this.destroy() } }))
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, code: 'ERR_STREAM_PREMATURE_CLOSE', error: 'Internal Server Error', message: 'Premature close' })
})

test('an invalid header value is dropped and the request answered 500, not left hanging', async () => {
  const app = enclave()
  app.get('/', (_request: any, reply: any) => { reply.header('x-bad', 'line\nbreak').send('body') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.headers['x-bad'], undefined)
  assert.equal(res.json().code, 'ERR_INVALID_CHAR')
})

test('a fetch Response brings its status, headers and body; a consumed one answers 500', async () => {
  const app = enclave()
  app.get('/fresh', () => new Response('from fetch', { status: 201, headers: { 'x-from': 'response' } }))
  app.get('/used', async () => {
    const response = new Response('read already')
    await response.text()
    return response
  })
  const fresh = await app.inject('/fresh')
  assert.equal(fresh.statusCode, 201)
  assert.equal(fresh.headers['x-from'], 'response')
  assert.equal(fresh.body, 'from fetch')
  const used = await app.inject('/used')
  assert.equal(used.statusCode, 500)
  assert.equal(used.json().code, 'FST_ERR_REP_RESPONSE_BODY_CONSUMED')
})

test('a second send() is ignored with a warning: the first answer stands', async () => {
  const app = enclave()
  app.get('/', (_request: any, reply: any) => { reply.send('first'); reply.send('second') })
  const res = await app.inject('/')
  assert.equal(res.body, 'first')
})

test('a HEAD request to a route whose stream fails is answered, and the failure does not crash the process', async () => {
  const app = enclave()
  const { createReadStream } = await import('node:fs')
  app.get('/file', (_request: any, reply: any) => { reply.type('text/plain').send(createReadStream('/nonexistent/enclave-test-file')) })
  const head = await app.inject({ method: 'HEAD', url: '/file' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  await new Promise((resolve) => setTimeout(resolve, 20)) // the open fails after the answer
  const get = await app.inject('/file')
  assert.equal(get.statusCode, 500)
  assert.equal(get.json().code, 'ENOENT')
})

test('send() refuses an object under a non-JSON content type at once: it throws, and the reply is not started', async () => {
  const app = enclave()
  let thrown: any
  app.get('/', (_request: any, reply: any) => {
    reply.type('text/plain')
    try {
      reply.send({ a: 1 })
    } catch (err) {
      thrown = err
    }
    return reply.send('sent instead')
  })
  const res = await app.inject('/')
  assert.equal(thrown.code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'sent instead')
})

test('a reply.serializer() that returns neither a string nor a Buffer makes send() throw to its caller', async () => {
  const app = enclave()
  let thrown: any
  app.get('/', (_request: any, reply: any) => {
    reply.serializer(() => 42)
    try {
      reply.send({ a: 1 })
    } catch (err) {
      thrown = err
    }
    return reply.serializer(JSON.stringify).send({ recovered: true })
  })
  const res = await app.inject('/')
  assert.equal(thrown.code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { recovered: true })
})

test('an async handler that returns a value after send() keeps the first answer and logs Fastify\'s warning', async () => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'warn', stream: sink.stream } })
  app.get('/late', async (_request: any, reply: any) => {
    reply.send('first')
    return 'second'
  })
  const res = await app.inject('/late')
  assert.equal(res.body, 'first')
  await new Promise((resolve) => setImmediate(resolve))
  const warning = sink.lines.find((line) => line.level === 40)
  assert.equal(warning.msg, 'Reply was already sent, did you forget to "return reply" in "/late" (GET)?')
  assert.equal(warning.err.code, 'FST_ERR_REP_ALREADY_SENT')
})

test('a stream sent with status 204 is read to its end (its producer finishes) and no body is written', async () => {
  const app = enclave()
  let ended = false
  app.get('/', (_request: any, reply: any) => {
    const stream = new Readable({ read () { this.push('ignored'); this.push(null) } })
    stream.on('end', () => { ended = true })
    reply.code(204).send(stream)
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 204)
  assert.equal(res.body, '')
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(ended, true)
})

test('a stream destroyed after its first bytes cuts the connection and logs "stream closed prematurely" at info', async (t) => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'info', stream: sink.stream } })
  t.after(() => app.close())
  app.get('/', (_request: any, reply: any) => {
    let reads = 0
    reply.type('text/plain').send(new Readable({
      read () {
        if (reads++ === 0) this.push('a')
        else setTimeout(() => this.destroy(), 10)
      }
    }))
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const outcome = await new Promise<{ status?: number, body: string, error?: string }>((resolve) => {
    http.get(`http://127.0.0.1:${app.server.address().port}/`, (res) => {
      let body = ''
      res.on('data', (chunk) => { body += chunk })
      res.on('error', (err: any) => resolve({ status: res.statusCode, body, error: err.code }))
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
  })
  assert.deepEqual(outcome, { status: 200, body: 'a', error: 'ECONNRESET' })
  const closedLine = sink.lines.find((line) => line.msg === 'stream closed prematurely')
  assert.equal(closedLine?.level, 30)
  assert.equal(sink.lines.some((line) => line.msg === 'request completed'), false)
})
