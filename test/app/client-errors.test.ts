/**
 * Malformed HTTP, answered before any request object exists: Fastify 4's bytes for 400, 408 and 431, the socket
 * destroyed after them, and the handler (the default or the `clientErrorHandler` option) called with the instance.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { enclave, logSink } from '../helpers'

/** Sends raw bytes and resolves with everything received until the server closes the socket. */
function rawExchange (port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = ''
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes))
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => { received += chunk })
    socket.on('error', reject)
    socket.on('close', () => resolve(received))
  })
}

test('a malformed request line gets Fastify\'s 400 and the socket is closed', async (t) => {
  const app = enclave()
  t.after(() => app.close())
  await app.listen({ port: 0 })
  const answer = await rawExchange(app.server.address().port, 'GARBAGE\r\n\r\n')
  const body = '{"error":"Bad Request","message":"Client Error","statusCode":400}'
  assert.equal(answer, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`)
})

test('oversized headers get 431 and a request that never finishes gets 408, with Fastify\'s messages and a trace line', async (t) => {
  const sink = logSink()
  const app = enclave({ requestTimeout: 100, logger: { level: 'trace', stream: sink.stream } })
  t.after(() => app.close())
  await app.listen({ port: 0 })
  const port = app.server.address().port
  const tooLarge = await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`)
  assert.ok(tooLarge.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n'))
  assert.ok(tooLarge.endsWith('{"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}'))
  const slow = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n')
  assert.ok(slow.startsWith('HTTP/1.1 408 Request Timeout\r\n'))
  assert.ok(slow.endsWith('{"error":"Request Timeout","message":"Client Timeout","statusCode":408}'))
  const traces = sink.lines.filter((line) => line.level === 10).map((line) => line.msg)
  assert.deepEqual(traces, ['client header_overflow', 'client timeout'])
})

test('the clientErrorHandler option is called with the instance as this', async (t) => {
  let self: any
  const app = enclave({
    clientErrorHandler (this: any, _err: Error, socket: net.Socket) {
      self = this
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 6\r\n\r\ncustom')
    }
  })
  t.after(() => app.close())
  await app.listen({ port: 0 })
  const answer = await rawExchange(app.server.address().port, 'GARBAGE\r\n\r\n')
  assert.ok(answer.endsWith('custom'))
  assert.equal(self, app)
})

test('a request line with an HTTP version the server does not speak gets 505 (HTTP/0.9, HTTP/2.0 on HTTP/1)', async (t) => {
  const app = enclave()
  t.after(() => app.close())
  app.get('/', async () => 'never')
  await app.listen({ port: 0 })
  const port = app.server.address().port
  const body = '{"error":"HTTP Version Not Supported","message":"HTTP Version Not Supported","statusCode":505}'
  for (const request of ['GET / HTTP/2.0\r\nHost: x\r\n\r\n', 'GET /\r\n\r\n']) {
    const answer = await rawExchange(port, request)
    assert.ok(answer.startsWith('HTTP/1.1 505 HTTP Version Not Supported\r\n'), JSON.stringify(request))
    assert.ok(answer.endsWith(body))
  }
})

test('with a serverFactory every HTTP version is answered: the factory\'s server decides what it speaks', async (t) => {
  const app = enclave({ serverFactory: (handler: http.RequestListener) => http.createServer(handler) })
  t.after(() => app.close())
  app.get('/', async () => 'spoken')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const answer = await rawExchange(app.server.address().port, 'GET / HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n')
  assert.ok(answer.startsWith('HTTP/1.1 200 OK\r\n'), answer)
  assert.ok(answer.endsWith('\r\n\r\nspoken'))
})
