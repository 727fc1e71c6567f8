import { test, describe } from 'node:test'
import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import enclave from '../../src/index'
import { rawRequest, parseResponses, sleep } from '../security/helpers'
import { startDemo } from '../helpers'

function connectError (port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(null) })
    socket.once('error', (err: any) => resolve(err.code))
  })
}

/** A failed assertion must not leave a listening server behind (the test process would never exit). */
function closeOnExit (t: TestContext, app: any): void {
  t.after(() => {
    if (app.server.listening) {
      app.server.closeAllConnections()
      app.server.close()
    }
  })
}

/**
 * On one kept-alive socket: a slow request is in flight when `close()` starts, and a second request arrives while
 * the app is closing. Returns the responses the socket received.
 */
async function requestDuringClose (t: TestContext, options: Record<string, unknown>): Promise<{ responses: any[], raw: string }> {
  const app: any = enclave(options)
  closeOnExit(t, app)
  app.get('/slow', async () => { await sleep(300); return { done: true } })
  app.get('/fast', async () => ({ ok: true }))
  await app.listen({ port: 0 })
  const socket = net.connect(app.server.address().port, '127.0.0.1')
  await once(socket, 'connect')
  const chunks: Buffer[] = []
  socket.on('data', (c) => chunks.push(c))
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
  await sleep(50)
  const closing = app.close()
  await sleep(50)
  socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n')
  await Promise.race([once(socket, 'close'), sleep(3000)])
  socket.destroy()
  await closing
  const raw = Buffer.concat(chunks)
  return { responses: parseResponses(raw).responses, raw: raw.toString() }
}

describe('graceful close()', () => {
  test('stops accepting, lets the in-flight request finish, then resolves', async (t) => {
    const app: any = enclave()
    closeOnExit(t, app)
    app.get('/slow', async () => { await sleep(300); return { done: true } })
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const inFlight = rawRequest(port, 'GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await sleep(50)
    let closed = false
    const closing = app.close().then(() => { closed = true })
    await sleep(20)
    assert.equal(await connectError(port), 'ECONNREFUSED')
    const result = await inFlight
    assert.equal(result.responses.length, 1, result.raw.toString('latin1'))
    assert.equal(result.responses[0].status, 200)
    assert.deepEqual(JSON.parse(result.responses[0].body.toString()), { done: true })
    await closing
    assert.equal(closed, true)
  })

  test('a new request on a kept-alive socket during close gets 503 with Connection: close (return503OnClosing)', async (t) => {
    const { responses, raw } = await requestDuringClose(t, {})
    assert.equal(responses.length, 2, raw)
    assert.equal(responses[0].status, 200)
    assert.deepEqual(JSON.parse(responses[0].body.toString()), { done: true })
    assert.equal(responses[1].status, 503)
    assert.equal(responses[1].headers.connection, 'close')
    assert.deepEqual(JSON.parse(responses[1].body.toString()), { error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503 })
  })

  test('with return503OnClosing: false the late request is served and the socket closed after it', async (t) => {
    const { responses } = await requestDuringClose(t, { return503OnClosing: false })
    assert.deepEqual(responses.map((r) => r.status), [200, 200])
    assert.equal(responses[1].headers.connection, 'close')
  })

  test('idle kept-alive sockets do not hold close() open', async (t) => {
    const app: any = enclave()
    closeOnExit(t, app)
    app.get('/', async () => ({ ok: true }))
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const idle = rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { timeout: 5000 })
    await sleep(100)
    const started = Date.now()
    await app.close()
    assert.ok(Date.now() - started < 1000, `close took ${Date.now() - started} ms`)
    const result = await idle
    assert.equal(result.ended, 'end')
    assert.equal(result.responses[0].status, 200)
  })

  test('onClose hooks run in reverse registration order, after in-flight requests', async (t) => {
    const app: any = enclave()
    closeOnExit(t, app)
    const order: string[] = []
    app.addHook('onClose', async () => { order.push('first') })
    // awaited, so the plugin's hook is registered before 'third'
    await app.register(async (child: any) => {
      child.addHook('onClose', async () => { order.push('second') })
    })
    app.addHook('onClose', (_instance: any, done: any) => { order.push('third'); done() })
    app.get('/slow', async () => { await sleep(200); order.push('handler'); return { ok: true } })
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const inFlight = rawRequest(port, 'GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await sleep(50)
    await app.close()
    assert.equal((await inFlight).responses[0].status, 200)
    assert.deepEqual(order, ['handler', 'third', 'second', 'first'])
  })

  test('inject after close is refused with FST_ERR_REOPENED_CLOSE_SERVER', async (t) => {
    const app: any = enclave()
    closeOnExit(t, app)
    app.get('/', async () => ({ ok: true }))
    await app.ready()
    await app.close()
    await assert.rejects(app.inject('/'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
  })
})

describe('the demo closes gracefully on SIGTERM', () => {
  test('exit code 0, idle sockets do not block, a request started before SIGTERM is still answered', async (t) => {
    const { child, address, output: demoOutput } = await startDemo(t, 'k')
    const port = Number(new URL(address).port)
    // An idle kept-alive socket, and a request whose head is half written when the signal arrives.
    const idle = rawRequest(port, 'GET /two HTTP/1.1\r\nHost: x\r\n\r\n', { timeout: 8000 })
    const started = rawRequest(port, ['GET /three HTTP/1.1\r\nHost: x\r\n', 'Connection: close\r\n\r\n'], { interval: 400, timeout: 8000 })
    await sleep(150)
    const begun = Date.now()
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    assert.equal(code, 0)
    assert.ok(Date.now() - begun < 5000, `exit took ${Date.now() - begun} ms`)
    assert.match(demoOutput(), /SIGTERM received: closing/)
    const idleResult = await idle
    assert.equal(idleResult.responses[0].status, 200)
    const startedResult = await started
    // the half-written request is answered (503 + Connection: close while closing), never left hanging
    assert.equal(startedResult.responses.length, 1, startedResult.raw.toString('latin1'))
    assert.equal(startedResult.responses[0].status, 503)
    assert.equal(startedResult.responses[0].headers.connection, 'close')
  })
})

describe('closeTimeout bounds the drain', () => {
  test('a request that never finishes is cut off at closeTimeout and close() resolves', async (t) => {
    const app: any = enclave({ closeTimeout: 300 })
    closeOnExit(t, app)
    let handlerStarted!: () => void
    const started = new Promise<void>((resolve) => { handlerStarted = resolve })
    app.get('/hang', (_req: any, _reply: any) => { handlerStarted() }) // never replies
    const address: string = await app.listen({ port: 0, host: '127.0.0.1' })
    const port = Number(new URL(address).port)
    const socket = net.connect(port, '127.0.0.1')
    socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
    const socketClosed = once(socket, 'close')
    await started
    const begin = Date.now()
    await app.close()
    const elapsed = Date.now() - begin
    await socketClosed
    assert.ok(elapsed >= 250, `close() waited for the in-flight request (${elapsed} ms)`)
    assert.ok(elapsed < 3000, `close() was bounded by closeTimeout (${elapsed} ms)`)
    assert.equal(await connectError(port), 'ECONNREFUSED')
  })

  test('closeTimeout must be a non-negative integer', () => {
    assert.throws(() => enclave({ closeTimeout: -1 } as any), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  })
})
