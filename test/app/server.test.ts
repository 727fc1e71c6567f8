import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once } from 'node:events'
import path from 'node:path'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import enclave from '../../src/index'
import { logSink } from '../helpers'

/** GET over node:http, resolving status, headers and body (or rejecting with the socket error). */
function get (url: string, agent?: http.Agent): Promise<{ status: number, headers: http.IncomingHttpHeaders, body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    }).on('error', reject)
  })
}

describe('inject', () => {
  test('promise form', async () => {
    const app: any = enclave()
    app.get('/', async () => ({ ok: true }))
    const res = await app.inject({ method: 'GET', url: '/' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { ok: true })
  })

  test('callback form', async () => {
    const app: any = enclave()
    app.get('/', async () => 'cb')
    const res: any = await new Promise((resolve, reject) => {
      app.inject({ url: '/' }, (err: any, response: any) => err ? reject(err) : resolve(response))
    })
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, 'cb')
  })

  test('chain form', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ h: req.headers['x-h'] }))
    const res = await app.inject().get('/').headers({ 'x-h': 'chained' }).end()
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { h: 'chained' })
  })

  test('inject before ready boots the app (onReady runs once)', async () => {
    const app: any = enclave()
    let readyCount = 0
    app.addHook('onReady', async () => { readyCount++ })
    app.get('/', async () => 'booted')
    const [a, b] = await Promise.all([app.inject('/'), app.inject('/')])
    assert.equal(a.payload, 'booted')
    assert.equal(b.payload, 'booted')
    assert.equal(readyCount, 1)
  })

  test('inject rejects when ready fails', async () => {
    const app: any = enclave()
    app.addHook('onReady', async () => { throw new Error('boot failed') })
    await assert.rejects(app.inject('/'), { message: 'boot failed' })
  })

  test('inject after close rejects', async () => {
    const app: any = enclave()
    app.get('/', async () => 'x')
    await app.ready()
    await app.close()
    await assert.rejects(app.inject('/'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
  })
})

describe('listen', () => {
  test('resolves the address string and serves requests', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    app.get('/', async () => ({ hello: 'socket' }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    assert.equal(address, `http://127.0.0.1:${port}`)
    const res = await fetch(address)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
    assert.deepEqual(await res.json(), { hello: 'socket' })
  })

  test('callback form', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    app.get('/', async () => 'cb')
    const address: string = await new Promise((resolve, reject) => {
      app.listen({ port: 0 }, (err: any, addr: string) => err ? reject(err) : resolve(addr))
    })
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.equal(await (await fetch(address)).text(), 'cb')
  })

  test('listening twice rejects with FST_ERR_REOPENED_SERVER', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    await app.listen({ port: 0 })
    await assert.rejects(app.listen({ port: 0 }), { code: 'FST_ERR_REOPENED_SERVER' })
  })

  test('a port in use rejects with EADDRINUSE and the process keeps going', async (t) => {
    const first: any = enclave()
    const second: any = enclave()
    t.after(() => first.close())
    t.after(() => second.close())
    await first.listen({ port: 0, host: '127.0.0.1' })
    const port = first.server.address().port
    await assert.rejects(second.listen({ port, host: '127.0.0.1' }), { code: 'EADDRINUSE' })
    // the first server still answers
    const res = await get(`http://127.0.0.1:${port}/nothing`)
    assert.equal(res.status, 404)
  })

  test('server is the node http server; addresses() lists the bound address', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    assert.ok(app.server instanceof http.Server)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    assert.deepEqual(app.addresses(), [{ address: '127.0.0.1', family: 'IPv4', port }])
  })

  test('onListen hooks run after the server is listening', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    const listeningDuringHook = new Promise<boolean>((resolve) => {
      app.addHook('onListen', async function (this: any) { resolve(this.server.listening) })
    })
    await app.listen({ port: 0 })
    assert.equal(await listeningDuringHook, true)
  })

  test('an invalid port is Node\'s to refuse (ERR_SOCKET_BAD_PORT), as in Fastify; a bad listenTextResolver throws at once', async (t) => {
    for (const port of [70000, 'hello-world', '1234hello']) {
      const app: any = enclave()
      t.after(() => app.close())
      await assert.rejects(app.listen({ port }), { code: 'ERR_SOCKET_BAD_PORT' }, String(port))
    }
    const app: any = enclave()
    assert.throws(() => app.listen({ port: 0, listenTextResolver: 'text' }), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID' })
  })

  test('listen: a null host is the default one, a numeric string is a port, a failure calls back with a null address', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    assert.match(await app.listen({ port: '0', host: null }), /^http:\/\/127\.0\.0\.1:\d+$/)
    const second: any = enclave()
    t.after(() => second.close())
    const outcome = await new Promise<unknown[]>((resolve) => {
      second.listen({ port: app.server.address().port }, (err: any, address: unknown) => resolve([err.code, address]))
    })
    assert.deepEqual(outcome, ['EADDRINUSE', null])
  })

  test('listen: an aborted signal closes the application', async () => {
    const app: any = enclave()
    let closed = false
    app.addHook('onClose', (_instance: any, done: () => void) => { closed = true; done() })
    const controller = new AbortController()
    app.listen({ port: 0, signal: controller.signal }).catch(() => {})
    controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(closed, true)
    assert.equal(app.server.listening, false)
  })

  test('path listens on a Unix socket (not on a port), which addresses() and the log line report', async (t) => {
    const lines: string[] = []
    const app: any = enclave({ logger: { level: 'info', stream: { write (line: string) { lines.push(JSON.parse(line).msg) } } } })
    app.get('/', async () => ({ over: 'unix socket' }))
    const socketPath = path.join(mkdtempSync(path.join(tmpdir(), 'enclave-')), 'server.sock')
    t.after(() => app.close())
    assert.equal(await app.listen({ path: socketPath, port: 3000 }), socketPath)
    assert.deepEqual(app.addresses(), [socketPath])
    assert.ok(lines.includes(`Server listening at ${socketPath}`))
    const body = await new Promise<string>((resolve, reject) => {
      http.get({ socketPath, path: '/' }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => { text += chunk })
        res.on('end', () => resolve(text))
      }).on('error', reject)
    })
    assert.equal(body, '{"over":"unix socket"}')
  })

  test('listenTextResolver writes the listening log line', async (t) => {
    const lines: string[] = []
    const app: any = enclave({ logger: { level: 'info', stream: { write (line: string) { lines.push(JSON.parse(line).msg) } } } })
    t.after(() => app.close())
    const address = await app.listen({ port: 0, listenTextResolver: (at: string) => `ready on ${at}` })
    assert.ok(lines.includes(`ready on ${address}`))
    assert.ok(!lines.some((line) => line.startsWith('Server listening')))
  })

  test('the variadic listen(port, host, cb) works and warns FSTDEP011 once, as in Fastify 4', async (t) => {
    const warnings: any[] = []
    const onWarning = (warning: any): void => { if (warning.code === 'FSTDEP011') warnings.push(warning) }
    process.on('warning', onWarning)
    t.after(() => { process.off('warning', onWarning) })
    for (let i = 0; i < 2; i++) {
      const app: any = enclave()
      const address = await new Promise<string>((resolve, reject) => app.listen(0, '127.0.0.1', (err: Error | null, at: string) => err ? reject(err) : resolve(at)))
      assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
      await app.close()
    }
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(warnings.length, 1)
    assert.match(warnings[0].message, /^Variadic listen method is deprecated/)
  })
})

describe('close', () => {
  test('runs onClose hooks and drains an in-flight request, then refuses new connections', async () => {
    const app: any = enclave()
    let closed = false
    app.addHook('onClose', async () => { closed = true })
    let started!: () => void
    const requestStarted = new Promise<void>((resolve) => { started = resolve })
    app.get('/slow', async () => {
      started()
      await new Promise((resolve) => setTimeout(resolve, 150))
      return { slow: 'done' }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const slow = get(address + '/slow')
    await requestStarted
    const closing = app.close()
    const res = await slow
    assert.equal(res.status, 200)
    assert.deepEqual(JSON.parse(res.body), { slow: 'done' })
    await closing
    assert.equal(closed, true)
    await assert.rejects(get(address + '/slow'), { code: 'ECONNREFUSED' })
  })

  /**
   * Sends `GET /slow` on one kept-alive socket, calls `close()` while it is in flight, then sends `GET /fast` on the
   * same socket: the server sees a new request on an open connection while closing. Resolves the raw bytes received.
   */
  async function requestDuringClose (app: any): Promise<string> {
    let started!: () => void
    const requestStarted = new Promise<void>((resolve) => { started = resolve })
    let release!: () => void
    const released = new Promise<void>((resolve) => { release = resolve })
    let fastHandled!: () => void
    const fastSeen = new Promise<void>((resolve) => { fastHandled = resolve })
    app.get('/slow', async () => { started(); await released; return 'slow' })
    app.get('/fast', async () => 'fast')
    app.addHook('onRequest', async (req: any) => { if (req.url === '/fast') fastHandled() })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const socket = net.connect(app.server.address().port, '127.0.0.1')
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => { data += chunk })
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    socket.write('GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
    await requestStarted
    const closing = app.close()
    socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
    // let the second request reach the server (or be answered with 503 without reaching a hook)
    await Promise.race([fastSeen, new Promise((resolve) => setTimeout(resolve, 100))])
    release()
    await closing
    socket.end()
    await ended
    return data
  }

  test('return503OnClosing answers 503 to a new request on a kept-alive socket during close', async () => {
    const app: any = enclave()
    const data = await requestDuringClose(app)
    const [first, second] = data.split(/(?=HTTP\/1\.1 )/)
    assert.match(first, /^HTTP\/1\.1 200 OK\r\n/)
    assert.ok(first.endsWith('\r\n\r\nslow'))
    assert.match(second, /^HTTP\/1\.1 503 Service Unavailable\r\n/)
    assert.match(second, /\r\nconnection: close\r\n/i)
    assert.match(second, /\r\ncontent-type: application\/json\r\n/i)
    assert.ok(second.endsWith('\r\n\r\n{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}'))
  })

  test('the 503 of a request refused while closing is logged', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { level: 'info', stream: sink.stream } })
    await requestDuringClose(app)
    const refused = sink.lines.find((line) => line.msg === 'request aborted - refusing to accept new requests as server is closing')
    assert.equal(refused?.res?.statusCode, 503)
  })

  test('requests pipelined behind the one whose handler calls close() are still answered, the next ones get 503', async () => {
    const app: any = enclave({ forceCloseConnections: false })
    app.get('/', async () => {
      app.close()
      return 'served'
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const socket = net.connect(app.server.address().port, '127.0.0.1')
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { data += chunk })
    const closed = once(socket, 'close')
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n')
    // the third request comes once the first two were answered, as from a client pipelining two at a time
    while ((data.match(/HTTP\/1\.1 /g) ?? []).length < 2) await once(socket, 'data')
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await closed
    const statuses = [...data.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => Number(m[1]))
    assert.deepEqual(statuses, [200, 200, 503])
  })

  test('preClose hooks run before the server closes; the first failure is close()\'s error, and closing still completes', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('preClose', async () => { order.push(`preClose, listening: ${String(app.server.listening)}`); throw new Error('preClose failed') })
    app.addHook('preClose', async () => { order.push('second preClose') })
    app.addHook('onClose', async () => { order.push('onClose') })
    await app.listen({ port: 0, host: '127.0.0.1' })
    await assert.rejects(app.close(), { message: 'preClose failed' })
    assert.deepEqual(order, ['preClose, listening: true', 'onClose'])
    assert.equal(app.server.listening, false)
  })

  test('close() before ready() loads the plugins and runs preClose and onClose hooks', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.register(async () => { order.push('plugin') })
    app.addHook('preClose', async () => { order.push('preClose') })
    app.addHook('onClose', async () => { order.push('onClose') })
    await app.close()
    assert.deepEqual(order, ['plugin', 'preClose', 'onClose'])
  })

  test('without return503OnClosing the new request is served with connection: close', async () => {
    const app: any = enclave({ return503OnClosing: false })
    const data = await requestDuringClose(app)
    const [first, second] = data.split(/(?=HTTP\/1\.1 )/)
    assert.match(first, /^HTTP\/1\.1 200 OK\r\n/)
    assert.match(second, /^HTTP\/1\.1 200 OK\r\n/)
    assert.match(second, /\r\nconnection: close\r\n/i)
    assert.ok(second.endsWith('\r\n\r\nfast'))
  })

  test('close() does not wait for an idle kept-alive socket', async () => {
    const app: any = enclave()
    app.get('/', async () => 'ok')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const agent = new http.Agent({ keepAlive: true })
    try {
      assert.equal((await get(address, agent)).body, 'ok')
      const startedAt = Date.now()
      await app.close()
      assert.ok(Date.now() - startedAt < 1000)
      await assert.rejects(get(address), { code: 'ECONNREFUSED' })
    } finally {
      agent.destroy()
    }
  })

  test('close callback form runs after onClose', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('onClose', (_i: any, done: any) => { order.push('hook'); done() })
    await app.ready()
    await new Promise<void>((resolve) => app.close(() => { order.push('cb'); resolve() }))
    assert.deepEqual(order, ['hook', 'cb'])
  })

  test('close on an app that never listened resolves', async () => {
    const app: any = enclave()
    await app.ready()
    await app.close()
    assert.equal(app.server.listening, false)
  })
})

describe('printRoutes', () => {
  test('prints the route tree', async () => {
    const app: any = enclave({ exposeHeadRoutes: false })
    app.get('/test', async () => 'x')
    app.get('/test/hello', async () => 'x')
    app.post('/other', async () => 'x')
    await app.ready()
    const tree: string = app.printRoutes()
    assert.equal(typeof tree, 'string')
    assert.match(tree, /test \(GET\)/)
    assert.match(tree, /hello \(GET\)/)
    assert.match(tree, /other \(POST\)/)
  })

  test('a raw net socket sending garbage gets a 400', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const answer: string = await new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('NOT HTTP\r\n\r\n'))
      let data = ''
      socket.on('data', (chunk) => { data += chunk })
      socket.on('end', () => resolve(data))
      socket.on('error', reject)
    })
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request/)
    assert.ok(answer.endsWith('{"error":"Bad Request","message":"Client Error","statusCode":400}'))
  })
})

test('listeningOrigin is the address the server listens on, undefined before listen', async () => {
  const app: any = enclave()
  assert.equal(app.listeningOrigin, undefined)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  assert.equal(app.listeningOrigin, address)
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
  await app.close()
})
