/**
 * What a request watches on its response: completion (log line, onResponse) only when the response finished, a
 * stream the client stopped reading released and logged, and preParsing ended by a hook that answers.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { Readable } from 'node:stream'
import { enclave, logSink } from '../helpers'
import { kSocketReply } from '../../src/core/symbols'

/** Sends a request and destroys the socket after `afterMs`, or once the first bytes arrive. */
function abortAfter (port: number, path: string, afterMs: number | 'first byte'): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      if (afterMs === 'first byte') socket.once('data', () => { socket.destroy(); resolve() })
      else setTimeout(() => { socket.destroy(); resolve() }, afterMs)
    })
    socket.on('error', () => {})
  })
}

test('a request the client aborted gets no onResponse hooks and no "request completed" line', async (t) => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'info', stream: sink.stream } })
  t.after(() => app.close())
  const finished: string[] = []
  app.addHook('onResponse', async (request: any) => { finished.push(request.url) })
  app.get('/slow', (_request: any, reply: any) => { setTimeout(() => reply.send('too late'), 100) })
  app.get('/fast', async () => 'ok')
  await app.listen({ port: 0 })
  await abortAfter(app.server.address().port, '/slow', 20)
  await new Promise((resolve) => setTimeout(resolve, 200))
  await app.inject('/fast')
  assert.deepEqual(finished, ['/fast'])
  assert.equal(sink.lines.filter((line) => line.msg === 'request completed').length, 1)
})

test('a stream the client stops reading is released and logged as closed prematurely; old streams are closed', async (t) => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'info', stream: sink.stream } })
  t.after(() => app.close())
  let closed = false
  app.get('/old-stream', (_request: any, reply: any) => {
    const stream: any = new Readable({ read () {} })
    stream.push('x'.repeat(200000))
    stream.destroy = undefined // an old-style stream: close() is how it is released
    stream.close = () => { closed = true }
    reply.type('text/plain').send(stream)
  })
  await app.listen({ port: 0 })
  await abortAfter(app.server.address().port, '/old-stream', 'first byte')
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(closed, true)
  const line = sink.lines.find((l) => l.msg === 'stream closed prematurely')
  assert.equal(line.level, 30)
  // a request line: it carries the response, as the 'request completed' line would
  assert.equal(line.res.statusCode, 200)
})

test('with disableRequestLogging, a stream closed prematurely is released without a log line', async (t) => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'info', stream: sink.stream }, disableRequestLogging: true })
  t.after(() => app.close())
  let released = false
  app.get('/stream', (_request: any, reply: any) => {
    const stream = new Readable({ read () {} })
    stream.push('x'.repeat(200000))
    stream.on('close', () => { released = true })
    reply.type('text/plain').send(stream)
  })
  await app.listen({ port: 0 })
  await abortAfter(app.server.address().port, '/stream', 'first byte')
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(released, true)
  assert.deepEqual(sink.lines.filter((l) => l.msg === 'stream closed prematurely'), [])
})

test('a preParsing hook that answers ends the preParsing chain: later preParsing hooks do not run', async () => {
  const app = enclave()
  let later = 0
  app.addHook('preParsing', async (_request: any, reply: any, payload: any) => {
    reply.send('answered by preParsing')
    return payload
  })
  app.addHook('preParsing', async (_request: any, _reply: any, payload: any) => { later++; return payload })
  app.post('/', async () => 'handler')
  const res = await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'text/plain' } })
  assert.equal(res.body, 'answered by preParsing')
  assert.equal(later, 0)
})

test('with onTimeout hooks, a kept-alive socket lets go of its reply once the response is over', async (t) => {
  const app = enclave({ connectionTimeout: 1000 })
  t.after(() => app.close())
  app.addHook('onTimeout', async () => {})
  let socket: any
  let heldDuringRequest: unknown
  app.get('/', async (request: any, reply: any) => {
    socket = request.raw.socket
    heldDuringRequest = socket[kSocketReply] === reply
    return 'ok'
  })
  await app.listen({ port: 0 })
  // fetch keeps the connection alive: the socket outlives the response
  const res = await fetch(`http://127.0.0.1:${app.server.address().port}/`)
  assert.equal(await res.text(), 'ok')
  await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(heldDuringRequest, true)
  assert.equal(socket.destroyed, false)
  assert.equal(socket[kSocketReply], null)
})
