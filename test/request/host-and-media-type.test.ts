import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import enclave from '../../src/index'
import enclave5 from '../../src/fastify5'

type Factory = (options?: any) => any

/** One raw HTTP exchange; resolves with the status line and the body. */
async function rawExchange (port: number, request: string): Promise<{ status: string, body: string }> {
  return await new Promise((resolve, reject) => {
    let data = ''
    const socket = connect(port, '127.0.0.1')
    socket.on('error', reject)
    socket.on('data', (chunk) => { data += chunk.toString() })
    socket.on('end', () => resolve({ status: data.split('\r\n', 1)[0], body: data.slice(data.indexOf('\r\n\r\n') + 4) }))
    socket.write(request)
  })
}

function hostApp (factory: Factory, options: Record<string, unknown> = {}): any {
  const app = factory({ keepAliveTimeout: 10, ...options })
  app.get('/', async (req: any) => ({ host: req.host, hostname: req.hostname ?? null, port: req.port }))
  return app
}

describe('request.host, request.hostname and request.port', () => {
  test('the Fastify 5 level: hostname is the name alone, port a number or null', async () => {
    const app = hostApp(enclave5)
    const cases: Array<[string, unknown]> = [
      ['example.com:8080', { host: 'example.com:8080', hostname: 'example.com', port: 8080 }],
      ['example.com', { host: 'example.com', hostname: 'example.com', port: null }],
      ['[::1]:3000', { host: '[::1]:3000', hostname: '[::1]', port: 3000 }],
      ['[::1]', { host: '[::1]', hostname: '[::1]', port: null }]
    ]
    for (const [host, expected] of cases) {
      const res = await app.inject({ url: '/', headers: { host } })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), expected, host)
    }
  })

  test('the Fastify 4 level keeps the port in hostname; host and port are there too', async () => {
    const app = hostApp(enclave)
    const res = await app.inject({ url: '/', headers: { host: 'example.com:8080' } })
    assert.deepEqual(res.json(), { host: 'example.com:8080', hostname: 'example.com:8080', port: 8080 })
  })

  test('with trustProxy, a trusted proxy\'s last X-Forwarded-Host entry is the host; an untrusted one is ignored', async () => {
    for (const [factory, hostname] of [[enclave5, 'a.test'], [enclave, 'a.test:81']] as Array<[Factory, string]>) {
      const trusted = hostApp(factory, { trustProxy: '127.0.0.1' })
      const res = await trusted.inject({ url: '/', headers: { host: 'real.test', 'x-forwarded-host': 'b.test, a.test:81' } })
      assert.deepEqual(res.json(), { host: 'a.test:81', hostname, port: 81 })
      const untrusted = hostApp(factory, { trustProxy: '10.0.0.1' })
      const direct = await untrusted.inject({ url: '/', headers: { host: 'real.test', 'x-forwarded-host': 'evil.test:1' } })
      assert.deepEqual(direct.json().host, 'real.test')
    }
  })

  test('a forwarded host without a port has port null', async () => {
    const app = hostApp(enclave5, { trustProxy: true })
    const res = await app.inject({ url: '/', headers: { 'x-forwarded-host': 'fwd.test' } })
    assert.deepEqual(res.json(), { host: 'fwd.test', hostname: 'fwd.test', port: null })
  })

  test('a request without a Host header (HTTP/1.0, an empty Host, requireHostHeader: false) is answered, with host \'\'', async (t) => {
    const requests: Array<[string, Record<string, unknown>]> = [
      ['GET / HTTP/1.0\r\n\r\n', {}],
      ['GET / HTTP/1.0\r\n\r\n', { trustProxy: true }],
      ['GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n', {}],
      ['GET / HTTP/1.1\r\nConnection: close\r\n\r\n', { http: { requireHostHeader: false } }]
    ]
    for (const [request, options] of requests) {
      const app = hostApp(enclave5, options)
      await app.listen({ port: 0, host: '127.0.0.1' })
      t.after(() => app.close())
      const res = await rawExchange(app.server.address().port, request)
      assert.equal(res.status, 'HTTP/1.1 200 OK', request)
      assert.deepEqual(JSON.parse(res.body), { host: '', hostname: '', port: null }, request)
    }
    // an HTTP/1.1 request without one is refused by Node, as in Fastify
    const strict = hostApp(enclave5)
    await strict.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => strict.close())
    assert.equal((await rawExchange(strict.server.address().port, 'GET / HTTP/1.1\r\n\r\n')).status, 'HTTP/1.1 400 Bad Request')
  })

  test('a header a headers schema removes (additionalProperties: false) is gone from request.headers and host, not from raw', async () => {
    for (const trustProxy of [false, true]) {
      const app = enclave5({ trustProxy })
      const schema = { headers: { type: 'object', properties: { 'x-kept': { type: 'integer' } }, additionalProperties: false } }
      app.get('/', { schema }, async (req: any) => ({
        headers: req.headers, host: req.host, hostname: req.hostname, port: req.port, rawHost: req.raw.headers.host
      }))
      const res = await app.inject({ url: '/', headers: { host: 'example.com:80', 'x-kept': '1', 'x-gone': 'y' } })
      assert.deepEqual(res.json(), { headers: { 'x-kept': 1 }, host: '', hostname: '', port: null, rawHost: 'example.com:80' })
    }
  })

  test('trustProxy as a hop count: the Fastify 5 level trusts no forwarded header, the Fastify 4 level that many hops', async () => {
    const headers = { host: 'app.test', 'x-forwarded-for': '9.9.9.9, 8.8.8.8', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }
    const answers = []
    for (const factory of [enclave5, enclave] as Factory[]) {
      const app = factory({ trustProxy: 1 })
      app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips, host: req.host, protocol: req.protocol }))
      answers.push((await app.inject({ url: '/', remoteAddress: '203.0.113.7', headers })).json())
    }
    assert.deepEqual(answers, [
      { ip: '203.0.113.7', ips: ['203.0.113.7'], host: 'app.test', protocol: 'http' },
      { ip: '8.8.8.8', ips: ['203.0.113.7', '8.8.8.8'], host: 'evil.test', protocol: 'https' }
    ])
  })

  test('hostname is a built-in member at both levels: decorating it is refused as for any built-in getter', async () => {
    for (const factory of [enclave, enclave5] as Factory[]) {
      const app = factory()
      assert.throws(() => app.decorateRequest('hostname', 'x'), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
      assert.equal(app.hasRequestDecorator('port'), true)
    }
  })
})

describe('request.mediaType and reply.mediaType', () => {
  test('request.mediaType: the lower-cased type/subtype of Content-Type, in hooks and handlers', async () => {
    for (const factory of [enclave, enclave5] as Factory[]) {
      const app = factory()
      const seen: unknown[] = []
      app.addHook('onRequest', async (req: any) => { seen.push(req.mediaType) })
      app.addHook('preParsing', async (req: any) => { seen.push(req.mediaType) })
      app.post('/', async (req: any) => ({ mediaType: req.mediaType ?? null }))
      const cases: Array<[string | undefined, string | null]> = [
        ['application/json', 'application/json'],
        [' Application/JSON ; charset=utf-8', 'application/json'],
        [undefined, null]
      ]
      for (const [type, expected] of cases) {
        seen.length = 0
        const headers = type === undefined ? {} : { 'content-type': type }
        const res = await app.inject({ method: 'POST', url: '/', headers, payload: type === undefined ? undefined : '{}' })
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.json(), { mediaType: expected }, String(type))
        assert.deepEqual(seen, [expected ?? undefined, expected ?? undefined])
      }
    }
  })

  test('request.mediaType is undefined for a header that is no media type', async () => {
    const app = enclave5()
    app.addHook('onRequest', async (req: any, reply: any) => reply.send({ mediaType: req.mediaType ?? null }))
    app.post('/', async () => 'unreached')
    for (const type of ['json', 'a b/c', 'application/', '']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload: 'x' })
      assert.deepEqual(res.json(), { mediaType: null }, type)
    }
  })

  test('reply.mediaType follows the last Content-Type set, by type(), header() or raw.setHeader()', async () => {
    const app = enclave5()
    const seen: unknown[] = []
    app.addHook('onSend', async (_req: any, reply: any) => { seen.push(reply.mediaType) })
    app.get('/type', async (_req: any, reply: any) => {
      seen.push(reply.mediaType ?? null)
      reply.type('application/json').type('Text/Plain; charset=utf-8')
      return reply.mediaType
    })
    app.get('/raw', async (_req: any, reply: any) => {
      reply.raw.setHeader('Content-Type', 'text/html; charset=utf-8')
      const fromRaw = reply.mediaType
      reply.type('application/xml')
      return `${String(fromRaw)} ${String(reply.mediaType)}`
    })
    assert.equal((await app.inject('/type')).body, 'text/plain')
    assert.deepEqual(seen, [null, 'text/plain'])
    assert.equal((await app.inject('/raw')).body, 'text/html application/xml')
  })
})
