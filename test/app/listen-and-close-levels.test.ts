/**
 * listen() and close() where Fastify 5 changed them: the origins of a wildcard address (Fastify 5 level), a listen()
 * aborted before the server listens, idle connections closed once, `forceCloseConnections: 'idle'` on a server that
 * cannot, and the request id options (both levels unless said).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { networkInterfaces } from 'node:os'
import typedEnclave5 from '../../src/fastify5'
import { enclave, logSink } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

test('listen on 0.0.0.0: the Fastify 5 level resolves with an interface address and logs each one', async (t) => {
  const sink = logSink()
  const app = enclave5({ logger: { stream: sink.stream } })
  t.after(() => app.close())
  const origin: string = await app.listen({ port: 0, host: '0.0.0.0' })
  const port = app.server.address().port
  const ipv4 = Object.values(networkInterfaces()).flat().filter((entry) => entry?.family === 'IPv4')
  const internal = ipv4.filter((entry) => entry!.internal).map((entry) => `http://${entry!.address}:${port}`)
  assert.ok(internal.includes(origin), `${origin} is an internal interface's`)
  const logged = sink.lines.filter((line) => String(line.msg).startsWith('Server listening at ')).map((line) => line.msg)
  assert.equal(logged.length, ipv4.length)
  assert.equal(logged[0], `Server listening at ${origin}`)
})

test('listen on 0.0.0.0: the Fastify 4 level resolves with the wildcard address itself', async (t) => {
  const app = enclave()
  t.after(() => app.close())
  const origin: string = await app.listen({ port: 0, host: '0.0.0.0' })
  assert.equal(origin, `http://0.0.0.0:${app.server.address().port}`)
})

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: a listen() aborted while the application starts does not listen; the promise resolves empty`, async () => {
    const app = make()
    const closed = new Promise((resolve) => {
      app.addHook('onClose', (_instance: unknown, done: () => void) => { done(); resolve('closed') })
    })
    const controller = new AbortController()
    const listening = app.listen({ port: 0, signal: controller.signal })
    controller.abort()
    assert.equal(await listening, undefined)
    assert.equal(app.server.listening, false)
    assert.equal(await closed, 'closed')
  })

  test(`${level} level: the callback of a listen() aborted that way is not called`, async () => {
    const app = make()
    const controller = new AbortController()
    let called = false
    app.listen({ port: 0, signal: controller.signal }, () => { called = true })
    controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(called, false)
    assert.equal(app.server.listening, false)
  })

  test(`${level} level: close() called while listen() starts binds nothing; the promise resolves empty, a callback is not called`, async () => {
    const app = make()
    const listening = app.listen({ port: 0 })
    await app.close()
    assert.equal(await listening, undefined)
    assert.equal(app.server.listening, false)
    assert.deepEqual(app.addresses(), [])

    const withCallback = make()
    let called = false
    withCallback.listen({ port: 0 }, () => { called = true })
    await withCallback.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(called, false)
    assert.equal(withCallback.server.listening, false)
  })

  test(`${level} level: close() called once the main server listens closes it and binds none of localhost's other addresses`, async () => {
    const app = make()
    let closing: Promise<unknown> | undefined
    app.server.once('listening', () => { closing = app.close() })
    const origin = await app.listen({ port: 0 })
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/)
    await closing
    assert.equal(app.server.listening, false)
    assert.deepEqual(app.addresses(), [])
  })

  test(`${level} level: close() leaves idle connections to Node for its own servers, asks a factory's server once`, async () => {
    const own = make({ forceCloseConnections: 'idle' })
    await own.listen({ port: 0 })
    let ownCalls = 0
    const nodeCloseIdle = own.server.closeIdleConnections.bind(own.server)
    own.server.closeIdleConnections = () => { ownCalls++; nodeCloseIdle() }
    await own.close()
    assert.equal(ownCalls, 1)

    let factoryCalls = 0
    const factored = make({
      forceCloseConnections: 'idle',
      serverFactory (handler: http.RequestListener) {
        const server = http.createServer(handler)
        const closeIdle = server.closeIdleConnections.bind(server)
        server.closeIdleConnections = () => { factoryCalls++; closeIdle() }
        return server
      }
    })
    await factored.listen({ port: 0 })
    await factored.close()
    assert.equal(factoryCalls, 2)
  })

  test(`${level} level: forceCloseConnections 'idle' asked for a server without closeIdleConnections is refused`, () => {
    assert.throws(() => make({ forceCloseConnections: 'idle', serverFactory: () => ({ on () {} }) }), {
      code: 'FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE',
      message: "Cannot set forceCloseConnections to 'idle' as your HTTP server does not support closeIdleConnections method"
    })
    // the default, 'idle' where possible, is no request for it
    make({ serverFactory: () => ({ on () {} }) })
  })

  test(`${level} level: requestIdHeader true is the default header, an empty one none; genReqId() needs no request`, async () => {
    assert.equal(make({ requestIdHeader: true }).initialConfig.requestIdHeader, 'request-id')
    assert.equal(make({ requestIdHeader: '' }).initialConfig.requestIdHeader, false)
    const app = make()
    assert.equal(typeof app.genReqId(), 'string')
    app.register(async (child: any) => {
      child.setGenReqId(() => 'from-the-plugin')
      assert.equal(child.genReqId(), 'from-the-plugin')
    })
    await app.ready()
    const res = await app.inject({ url: '/', headers: { 'request-id': 'given' } })
    assert.equal(res.statusCode, 404)
    await app.close()
  })
}
