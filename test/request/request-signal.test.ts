/**
 * `request.signal` (both levels): an AbortSignal made on first read (or at start on a timed route) that aborts when
 * the client goes away before the response is complete, and never after a response was written.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends a raw request, then closes the connection after `ms`. */
async function disconnectAfter (port: number, request: string, ms: number): Promise<void> {
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(request)
  await wait(ms)
  socket.destroy()
  await wait(50)
}

for (const [level, factory] of [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]] as const) {
  test(`${level}: request.signal is one AbortSignal per request, not aborted by a normal response`, async () => {
    const app = factory()
    const signals: AbortSignal[] = []
    app.get('/', async (request: any) => {
      signals.push(request.signal)
      assert.equal(request.signal, signals[signals.length - 1])
      return { aborted: request.signal.aborted }
    })
    const first = await app.inject('/')
    assert.deepEqual(first.json(), { aborted: false })
    await app.inject('/')
    assert.ok(signals[0] instanceof AbortSignal)
    assert.notEqual(signals[0], signals[1])
    assert.equal(signals[0].aborted, false)
  })
}

test('a client that goes away aborts the signal with an AbortError', async (t) => {
  for (const handlerTimeout of [undefined, 5000]) {
    const app = enclave5()
    t.after(() => app.close())
    let reason: any
    app.get('/', { handlerTimeout }, (request: any) => new Promise((resolve) => {
      request.signal.addEventListener('abort', () => { reason = request.signal.reason; resolve('too late') })
    }))
    await app.listen({ port: 0 })
    await disconnectAfter(app.server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 50)
    assert.equal(reason?.name, 'AbortError', `handlerTimeout ${String(handlerTimeout)}`)
  }
})

test('a request body read in full does not abort the signal, and a client leaving afterwards does', async (t) => {
  const app = enclave5()
  t.after(() => app.close())
  const states: boolean[] = []
  let aborted: Promise<void> | undefined
  app.post('/', async (request: any) => {
    const signal = request.signal
    aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()))
    await wait(60)
    states.push(signal.aborted)
    if (request.body.wait === true) await wait(500)
    return { aborted: signal.aborted }
  })
  await app.listen({ port: 0 })
  const port = app.server.address().port
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  assert.deepEqual(await res.json(), { aborted: false })
  const body = '{"wait":true}'
  await disconnectAfter(port, `POST / HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`, 100)
  await aborted
  assert.deepEqual(states, [false, false])
})

test('a signal first read after the client left is aborted already', async (t) => {
  const app = enclave5()
  t.after(() => app.close())
  let aborted: boolean | undefined
  app.get('/', async (request: any) => {
    await wait(100)
    aborted = request.signal.aborted
    return 'late'
  })
  await app.listen({ port: 0 })
  await disconnectAfter(app.server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 30)
  await wait(100)
  assert.equal(aborted, true)
})

test('Fastify 4 level: an application\'s own request.signal (a decorator set in onRequest) replaces the built-in one', async () => {
  const app = enclave()
  app.decorateRequest('signal', null)
  const own = new AbortController()
  app.addHook('onRequest', async (request: any) => { request.signal = own.signal })
  app.get('/', async (request: any) => ({ own: request.signal === own.signal }))
  app.get('/slow', { handlerTimeout: 20 }, async (request: any) => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    return { own: request.signal === own.signal }
  })
  assert.deepEqual((await app.inject('/')).json(), { own: true })
  // the time limit still holds, through the framework's own controller
  const slow = await app.inject('/slow')
  assert.equal(slow.statusCode, 503)
  assert.equal(own.signal.aborted, false)
})

test('Fastify 5 level: request.signal is a read-only built-in that no value decorator may take', async () => {
  const app = enclave5()
  assert.throws(() => app.decorateRequest('signal', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  app.get('/', async (request: any) => {
    assert.throws(() => { request.signal = null }, TypeError)
    return { isSignal: request.signal instanceof AbortSignal }
  })
  assert.deepEqual((await app.inject('/')).json(), { isSignal: true })
})
