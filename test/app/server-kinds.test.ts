/**
 * The server an application runs on, by factory option: https (an object, or `true`), http2 (h2c and TLS), the
 * `http` option's settings for a plain HTTP/1 server, the HTTP/2 specifics (timeouts, unknown methods, close), and a
 * `serverFactory` server without Node's connection-closing methods.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { once } from 'node:events'
import net from 'node:net'
import path from 'node:path'
import http from 'node:http'
import https from 'node:https'
import http2 from 'node:http2'
import { enclave } from '../helpers'

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl for this test run. */
function selfSignedCertificate (t: { after: (fn: () => void) => void }): { key: Buffer, cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'enclave-tls-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile,
    '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' })
  return { key: readFileSync(keyFile), cert: readFileSync(certFile) }
}

/** One HTTP/2 request on `client`: status, content-type and body. */
function h2Request (client: http2.ClientHttp2Session, headers: Record<string, string>, body?: string): Promise<{ status: number, type: string, body: string }> {
  return new Promise((resolve, reject) => {
    const stream = client.request(headers)
    let text = ''
    let responseHeaders: any
    stream.setEncoding('utf8')
    stream.on('response', (h) => { responseHeaders = h })
    stream.on('data', (c) => { text += c })
    stream.on('end', () => resolve({ status: responseHeaders[':status'], type: responseHeaders['content-type'], body: text }))
    stream.on('error', reject)
    stream.end(body)
  })
}

test('https: serves TLS with a self-signed certificate', async (t) => {
  const { key, cert } = selfSignedCertificate(t)
  const app = enclave({ https: { key, cert } })
  app.get('/', async (req: any) => ({ protocol: req.protocol }))
  assert.ok(app.server instanceof https.Server)
  const address = await app.listen({ port: 0 })
  assert.match(address, /^https:\/\/127\.0\.0\.1:\d+$/)
  const res = await new Promise<{ status: number, body: string }>((resolve, reject) => {
    https.get(`${address}/`, { ca: cert, agent: false }, (r) => {
      let body = ''
      r.on('data', (c) => { body += c })
      r.on('end', () => resolve({ status: r.statusCode!, body }))
    }).on('error', reject)
  })
  assert.equal(res.status, 200)
  assert.deepEqual(JSON.parse(res.body), { protocol: 'https' })
  await app.close()
})

test('http2: answers a plain-text (h2c) request', async () => {
  const app = enclave({ http2: true })
  app.get('/', async (req: any) => ({ hello: 'h2', version: req.raw.httpVersion }))
  const address = await app.listen({ port: 0 })
  const client = http2.connect(address)
  try {
    assert.deepEqual(await h2Request(client, { ':path': '/' }), {
      status: 200, type: 'application/json; charset=utf-8', body: '{"hello":"h2","version":"2.0"}'
    })
  } finally {
    client.close()
    await app.close()
  }
})

test('http2: a large body arrives whole, and a client that cancels one is still served its next request', async (t) => {
  const app = enclave({ http2: true })
  // larger than the session's default memory (10 MB): one end() of it would leave the session refusing new streams
  const large = Buffer.alloc(32 * 1024 * 1024 + 7)
  for (let i = 0; i < large.length; i += 4093) large[i] = i % 251
  app.get('/large', async (_req: any, reply: any) => reply.type('application/octet-stream').send(large))
  app.get('/small', async () => 'still here')
  const address = await app.listen({ port: 0 })
  const client = http2.connect(address)
  t.after(async () => { client.close(); await app.close() })

  const whole = await new Promise<{ length: string, body: Buffer }>((resolve, reject) => {
    const stream = client.request({ ':path': '/large' })
    const chunks: Buffer[] = []
    let length = ''
    stream.on('response', (headers) => { length = String(headers['content-length']) })
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve({ length, body: Buffer.concat(chunks) }))
    stream.on('error', reject)
  })
  assert.equal(whole.length, String(large.length))
  assert.ok(whole.body.equals(large))

  // the next client reads the headers only, cancels, and asks for something else on the same session
  const cancelled = client.request({ ':path': '/large' })
  cancelled.on('error', () => {})
  await once(cancelled, 'response')
  cancelled.pause()
  await new Promise((resolve) => setTimeout(resolve, 50))
  cancelled.close(http2.constants.NGHTTP2_CANCEL)
  assert.deepEqual(await h2Request(client, { ':path': '/small' }), { status: 200, type: 'text/plain; charset=utf-8', body: 'still here' })
})

test('http2 over TLS: h2 requests with bodies; allowHTTP1 also answers HTTP/1.1; close() ends open sessions', async (t) => {
  const { key, cert } = selfSignedCertificate(t)
  const app = enclave({ http2: true, https: { allowHTTP1: true, key, cert } })
  let release = (): void => {}
  let started = (): void => {}
  const slowStarted = new Promise<void>((resolve) => { started = resolve })
  app.get('/slow', async () => {
    started()
    await new Promise<void>((resolve) => { release = resolve })
    return { slow: 'done' }
  })
  app.post('/echo', {
    schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } }
  }, async (req: any) => ({ n: req.body.n, protocol: req.protocol, version: req.raw.httpVersion }))
  assert.equal(app.server.constructor.name, 'Http2SecureServer')
  const address = await app.listen({ port: 0 })
  assert.match(address, /^https:\/\/127\.0\.0\.1:\d+$/)

  const client = http2.connect(address, { ca: cert })
  const post = { ':method': 'POST', ':path': '/echo', 'content-type': 'application/json' }
  assert.deepEqual(await h2Request(client, post, '{"n":"7"}'), {
    status: 200, type: 'application/json; charset=utf-8', body: '{"n":7,"protocol":"https","version":"2.0"}'
  })
  assert.deepEqual(await h2Request(client, post, '{}'), {
    status: 400,
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({ statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "body must have required property 'n'" })
  })

  const http1 = await new Promise<{ status: number, body: string }>((resolve, reject) => {
    const req = https.request(`${address}/echo`, { method: 'POST', ca: cert, agent: false, headers: { 'content-type': 'application/json' } }, (r) => {
      let body = ''
      r.on('data', (c) => { body += c })
      r.on('end', () => resolve({ status: r.statusCode!, body }))
    })
    req.on('error', reject)
    req.end('{"n":1}')
  })
  assert.deepEqual(http1, { status: 200, body: '{"n":1,"protocol":"https","version":"1.1"}' })

  // the client keeps its session open and has a request in flight: close() lets that request finish, then ends
  const closed = new Promise<void>((resolve) => client.on('close', resolve))
  const slow = h2Request(client, { ':path': '/slow' })
  await slowStarted
  const closing = app.close()
  setTimeout(() => release(), 50)
  assert.deepEqual(await slow, { status: 200, type: 'application/json; charset=utf-8', body: '{"slow":"done"}' })
  await closing
  await closed
})


test('https: true makes a TLS server with Node\'s defaults, as Fastify does', () => {
  assert.ok(enclave({ https: true }).server instanceof https.Server)
})

test('the http option configures the plain HTTP/1 server: a header larger than its maxHeaderSize gets 431', async () => {
  const app = enclave({ http: { maxHeaderSize: 1024 } })
  app.get('/', async () => 'ok')
  await app.listen({ port: 0 })
  try {
    const small = await rawExchange(app.server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(small, /^HTTP\/1\.1 200 /)
    const big = await rawExchange(app.server.address().port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(2000)}\r\n\r\n`)
    assert.match(big, /^HTTP\/1\.1 431 /)
    assert.ok(big.endsWith('{"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}'), big)
  } finally {
    await app.close()
  }
})

/** Writes raw bytes, returns everything the server sent until it closed the connection. */
async function rawExchange (port: number, bytes: string): Promise<string> {
  const socket = net.connect(port, '127.0.0.1')
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => { received += chunk })
  socket.write(bytes)
  await once(socket, 'close')
  return received
}

test('http2: connectionTimeout is the server\'s timeout, and an idle session is closed after http2SessionTimeout', async () => {
  const app = enclave({ http2: true, connectionTimeout: 3000, http2SessionTimeout: 50 })
  app.get('/', async () => ({ ok: true }))
  assert.equal(app.server.timeout, 3000)
  const address = await app.listen({ port: 0 })
  const client = http2.connect(address)
  try {
    assert.equal((await h2Request(client, { ':path': '/' })).status, 200)
    // the server closes the idle session: the client sees GOAWAY and the session ends
    await once(client, 'close')
  } finally {
    client.destroy()
    await app.close()
  }
})

test('http2: a method no route can have gets 404 FST_ERR_NOT_FOUND, not a not-found handler', async () => {
  const app = enclave({ http2: true })
  let notFoundCalls = 0
  app.setNotFoundHandler((_request: any, reply: any) => { notFoundCalls++; reply.code(404).send('custom') })
  const address = await app.listen({ port: 0 })
  const client = http2.connect(address)
  try {
    const res = await h2Request(client, { ':method': 'UNKNOWN_METHOD', ':path': '/' })
    assert.equal(res.status, 404)
    assert.deepEqual(JSON.parse(res.body), { statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: 'Not Found' })
    assert.equal((await h2Request(client, { ':path': '/missing' })).body, 'custom')
    assert.equal(notFoundCalls, 1)
  } finally {
    client.close()
    await app.close()
  }
})

test('http2: a request sent just as close() starts is answered 503, and the session then closes', async () => {
  const app = enclave({ http2: true })
  app.get('/', async () => ({ ok: true }))
  const address = await app.listen({ port: 0 })
  const client = http2.connect(address)
  // watched from the start: Node 24's client may close before close() resolves, Node 20's after
  const clientClosed = once(client, 'close')
  await once(client, 'connect')
  const answer = h2Request(client, { ':path': '/' })
  const closed = app.close()
  const res = await answer
  assert.equal(res.status, 503)
  assert.deepEqual(JSON.parse(res.body), { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
  await closed
  await clientClosed
})

/** GETs a path on a kept-alive connection; resolves with the status and body, or the socket error's code. */
function keepAliveGet (port: number, path: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve) => {
    http.get({ port, host: '127.0.0.1', path, agent }, (res) => {
      let body = ''
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve(`${res.statusCode} ${body}`))
    }).on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`))
  })
}

test('forceCloseConnections: true with a serverFactory server lacking closeAllConnections: close() destroys keep-alive sockets', async (t) => {
  const serverFactory = (handler: http.RequestListener): http.Server => {
    const server = http.createServer(handler)
    Object.assign(server, { closeAllConnections: undefined })
    return server
  }
  const app = enclave({ forceCloseConnections: true, serverFactory })
  app.get('/', async () => 'quick')
  app.get('/slow', async () => { await new Promise((resolve) => setTimeout(resolve, 1000)); return 'slow' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const agent = new http.Agent({ keepAlive: true })
  t.after(() => agent.destroy())
  const port = app.server.address().port
  assert.equal(await keepAliveGet(port, '/', agent), '200 quick')
  const slow = keepAliveGet(port, '/slow', agent)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const started = Date.now()
  await app.close()
  assert.ok(Date.now() - started < 500, `close() took ${Date.now() - started} ms`)
  // as in Fastify, a request still in flight on such a socket is cut off, not answered
  assert.equal(await slow, 'error ECONNRESET')
})

test('listen() resolves on the server\'s listening event: a factory server whose listen() only emits it (a socket bound beforehand) is served', async () => {
  // what a restarting plugin does: the next application gets a server already bound, whose listen() binds nothing
  const bound = http.createServer()
  await new Promise<void>((resolve) => bound.listen(0, '127.0.0.1', resolve))
  const app = enclave({
    serverFactory (handler: http.RequestListener) {
      bound.on('request', handler)
      ;(bound as any).listen = function () { process.nextTick(() => bound.emit('listening')); return bound }
      return bound
    }
  })
  app.get('/', async () => ({ served: true }))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = bound.address() as import('node:net').AddressInfo
  assert.equal(address, `http://127.0.0.1:${port}`)
  const res = await fetch(`http://127.0.0.1:${port}/`)
  assert.deepEqual([res.status, await res.json()], [200, { served: true }])
  await app.close()
})
