/**
 * `handlerTimeout` (factory and route option, both levels): what the time limit covers, the 503 it answers through
 * the error handler, what it leaves alone (hijacked replies, responses written in full, not-found handlers) and how
 * it cuts off a response that had already started.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import http2 from 'node:http2'
import { Readable } from 'node:stream'
import typedEnclave5 from '../../src/fastify5'
import { enclave, logSink } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave
const levels = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]] as const
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

test('the factory option defaults to 0 and is reported in initialConfig; a bad value fails fast', () => {
  for (const [, factory] of levels) {
    assert.equal(factory().initialConfig.handlerTimeout, 0)
    assert.equal(factory({ handlerTimeout: 2500 }).initialConfig.handlerTimeout, 2500)
    for (const bad of [-1, 1.5, 'soon']) {
      assert.throws(() => factory({ handlerTimeout: bad }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    }
  }
})

test('a route option that is not a positive integer is refused at registration', () => {
  const app = enclave5()
  for (const bad of [0, -5, 2.5, '100', null]) {
    assert.throws(() => app.get('/x', { handlerTimeout: bad }, async () => 'ok'), {
      code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT',
      message: `'handlerTimeout' option must be an integer > 0. Got '${String(bad)}'`
    })
  }
})

for (const [level, factory] of levels) {
  test(`${level}: a handler slower than its limit is answered 503 FST_ERR_HANDLER_TIMEOUT`, async () => {
    const app = factory({ handlerTimeout: 5000 })
    app.get('/slow', { handlerTimeout: 30 }, async () => { await wait(300); return 'late' })
    app.get('/fast', async () => ({ ok: true }))
    const slow = await app.inject('/slow')
    assert.equal(slow.statusCode, 503)
    assert.deepEqual(slow.json(), {
      statusCode: 503,
      code: 'FST_ERR_HANDLER_TIMEOUT',
      error: 'Service Unavailable',
      message: "Request timed out after 30 ms on route '/slow'"
    })
    const fast = await app.inject('/fast')
    assert.equal(fast.statusCode, 200)
    assert.deepEqual(fast.json(), { ok: true })
  })
}

test('routes take the factory limit unless they set their own; routeOptions reports it', async () => {
  const app = enclave5({ handlerTimeout: 40 })
  const seen: Record<string, number> = {}
  app.get('/inherits', async (request: any) => { seen.inherits = request.routeOptions.handlerTimeout; await wait(300) })
  app.get('/own', { handlerTimeout: 1000 }, async (request: any) => { seen.own = request.routeOptions.handlerTimeout; await wait(100); return 'in time' })
  assert.equal((await app.inject('/inherits')).statusCode, 503)
  const own = await app.inject('/own')
  assert.equal(own.statusCode, 200)
  assert.equal(own.body, 'in time')
  assert.deepEqual(seen, { inherits: 40, own: 1000 })
  const untimed = enclave5()
  untimed.get('/', async (request: any) => request.routeOptions.handlerTimeout)
  assert.equal((await untimed.inject('/')).body, '0')
})

test('the limit counts from routing: a slow onRequest or preHandler hook times out too', async () => {
  const app = enclave5()
  app.get('/on-request', { handlerTimeout: 30, onRequest: async () => { await wait(300) } }, async () => 'ok')
  app.get('/pre-handler', { handlerTimeout: 30, preHandler: (_req: any, _reply: any, done: () => void) => { setTimeout(done, 300) } }, async () => 'ok')
  for (const url of ['/on-request', '/pre-handler']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 503, url)
    assert.equal(res.json().code, 'FST_ERR_HANDLER_TIMEOUT')
  }
})

test('the error goes through onError hooks and the error handler, which may answer otherwise; it is the signal\'s reason', async () => {
  const app = enclave5()
  const hooks: string[] = []
  let reason: unknown
  app.addHook('onError', async (_request: any, _reply: any, err: any) => { hooks.push(err.code) })
  app.setErrorHandler((err: any, request: any, reply: any) => {
    reason = request.signal.reason
    assert.equal(reason, err)
    reply.code(504).send({ timedOut: err.code })
  })
  app.get('/', { handlerTimeout: 30 }, async () => { await wait(300) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 504)
  assert.deepEqual(res.json(), { timedOut: 'FST_ERR_HANDLER_TIMEOUT' })
  assert.deepEqual(hooks, ['FST_ERR_HANDLER_TIMEOUT'])
  assert.ok(reason instanceof Error)
})

test('the 503 is logged at error level, with the request', async () => {
  const sink = logSink()
  const app = enclave5({ logger: { level: 'info', stream: sink.stream } })
  app.get('/', { handlerTimeout: 20 }, async () => { await wait(200) })
  await app.inject('/')
  const line = sink.lines.find((l) => l.err?.code === 'FST_ERR_HANDLER_TIMEOUT')
  assert.equal(line.level, 50)
  assert.equal(line.res.statusCode, 503)
  assert.equal(line.msg, "Request timed out after 20 ms on route '/'")
})

test('a hijacked reply, and a response sent in time, are left alone when the limit passes', async () => {
  const sink = logSink()
  const app = enclave5({ logger: { level: 'info', stream: sink.stream } })
  let signal: AbortSignal | undefined
  app.get('/hijacked', { handlerTimeout: 30 }, async (_request: any, reply: any) => {
    reply.hijack()
    await wait(100)
    reply.raw.writeHead(200, { 'content-type': 'text/plain' })
    reply.raw.end('my own answer')
  })
  app.get('/in-time', { handlerTimeout: 30 }, async (request: any) => { signal = request.signal; return 'quick' })
  const hijacked = await app.inject('/hijacked')
  assert.equal(hijacked.statusCode, 200)
  assert.equal(hijacked.body, 'my own answer')
  assert.equal((await app.inject('/in-time')).body, 'quick')
  await wait(80)
  assert.equal(signal!.aborted, false)
  assert.equal(sink.lines.filter((l) => l.level >= 50).length, 0)
})

test('not-found handlers are not timed', async () => {
  const app = enclave5({ handlerTimeout: 20 })
  app.setNotFoundHandler(async (request: any, reply: any) => {
    await wait(100)
    reply.code(404).send({ missing: request.url, limit: request.routeOptions.handlerTimeout })
  })
  const res = await app.inject('/nowhere')
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { missing: '/nowhere', limit: 0 })
})

test('a request handed to the not-found handler stays within the limit of its route', async () => {
  const app = enclave5()
  app.setNotFoundHandler(async () => { await wait(200); return 'not found, late' })
  app.get('/timed', { handlerTimeout: 30 }, async (_request: any, reply: any) => { reply.callNotFound(); return reply })
  const res = await app.inject('/timed')
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().message, "Request timed out after 30 ms on route '/timed'")
})

test('a response whose headers were sent is cut off when the limit passes; the server goes on serving', async (t) => {
  const app = enclave5({ handlerTimeout: 80 })
  t.after(() => app.close())
  app.get('/stream', async (_request: any, reply: any) => {
    const stream = new Readable({ read () {} })
    stream.push('first chunk')
    reply.type('text/plain').send(stream)
    return reply
  })
  app.get('/after', async () => 'still here')
  await app.listen({ port: 0 })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const res = await fetch(`${base}/stream`)
  assert.equal(res.status, 200)
  await assert.rejects(res.text())
  assert.equal(await (await fetch(`${base}/after`)).text(), 'still here')
})

test('an abort listener that answers keeps its answer and the kept-alive connection', async (t) => {
  const app = enclave5({ handlerTimeout: 50 })
  t.after(() => app.close())
  app.get('/slow', async (request: any, reply: any) => {
    request.signal.addEventListener('abort', () => { reply.code(504).type('text/plain').send('gave up') })
    await wait(300)
  })
  app.get('/next', async () => 'next one')
  await app.listen({ port: 0 })
  const socket = net.connect(app.server.address().port, '127.0.0.1')
  t.after(() => socket.destroy())
  socket.setEncoding('utf8')
  let text = ''
  socket.on('data', (chunk: string) => { text += chunk })
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
  while (!text.includes('gave up')) await wait(10)
  assert.match(text, /^HTTP\/1\.1 504 /)
  text = ''
  socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')
  while (!text.includes('next one')) await wait(10)
  assert.match(text, /^HTTP\/1\.1 200 /)
})

test('over HTTP/2, an ended response the client does not read is reset when the limit passes', async (t) => {
  const app = enclave5({ http2: true, handlerTimeout: 80 })
  app.get('/big', async (_request: any, reply: any) => reply.type('text/plain').send(Buffer.alloc(2 * 1024 * 1024, 'a')))
  app.get('/small', async () => 'small')
  await app.listen({ port: 0 })
  const client = http2.connect(`http://127.0.0.1:${app.server.address().port}`)
  t.after(async () => { client.destroy(); await app.close() })
  const outcome = await new Promise<string>((resolve) => {
    const req = client.request({ ':path': '/big' })
    req.on('response', () => req.pause())
    req.on('error', (err: any) => resolve(err.code))
    req.on('close', () => resolve('closed without error'))
    req.end()
  })
  assert.equal(outcome, 'ERR_HTTP2_STREAM_ERROR')
  const body = await new Promise<string>((resolve, reject) => {
    const req = client.request({ ':path': '/small' })
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { data += chunk })
    req.on('end', () => resolve(data))
    req.on('error', reject)
    req.end()
  })
  assert.equal(body, 'small')
})
