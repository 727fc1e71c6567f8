import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import { logSink } from '../helpers'

describe('request parts', () => {
  test('params, query, body and headers', async () => {
    const app: any = enclave()
    app.post('/users/:id/:tag', async (req: any) => ({
      params: req.params, query: req.query, body: req.body, custom: req.headers['x-custom']
    }))
    const res = await app.inject({
      method: 'POST', url: '/users/42/a%20b?x=1&y=2&y=3', headers: { 'x-custom': 'yes' }, payload: { n: 1 }
    })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), {
      params: { id: '42', tag: 'a b' }, query: { x: '1', y: ['2', '3'] }, body: { n: 1 }, custom: 'yes'
    })
  })

  test('assigning request.headers adds to the incoming headers and leaves raw.headers alone', async () => {
    const app: any = enclave()
    app.addHook('preHandler', async (req: any) => { req.headers = { 'x-added': 'yes' } })
    app.get('/', async (req: any) => ({ added: req.headers['x-added'], host: req.headers.host, raw: req.raw.headers['x-added'] ?? null }))
    const res = await app.inject({ url: '/', headers: { host: 'h.test' } })
    assert.deepEqual(res.json(), { added: 'yes', host: 'h.test', raw: null })
  })

  test('body is undefined on GET', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ hasBody: req.body !== undefined }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { hasBody: false })
  })

  test('raw is the node IncomingMessage; url and method are the raw ones', async () => {
    const app: any = enclave()
    app.put('/path', async (req: any) => ({
      rawMethod: req.raw.method, method: req.method, url: req.url, rawUrl: req.raw.url, headersSame: req.headers === req.raw.headers
    }))
    const res = await app.inject({ method: 'PUT', url: '/path?q=1' })
    assert.deepEqual(res.json(), { rawMethod: 'PUT', method: 'PUT', url: '/path?q=1', rawUrl: '/path?q=1', headersSame: true })
  })

  test('hostname and protocol', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ hostname: req.hostname, protocol: req.protocol }))
    const res = await app.inject({ url: '/', headers: { host: 'example.com:8080' } })
    assert.deepEqual(res.json(), { hostname: 'example.com:8080', protocol: 'http' })
  })

  test('ip is the socket address; ips is undefined without trustProxy', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips ?? null }))
    const res = await app.inject({ url: '/', headers: { 'x-forwarded-for': '10.0.0.1' } })
    assert.deepEqual(res.json(), { ip: '127.0.0.1', ips: null })
  })

  test('with trustProxy, ip, ips, hostname and protocol come from the forwarded headers', async () => {
    const app: any = enclave({ trustProxy: true })
    app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips, hostname: req.hostname, protocol: req.protocol }))
    const res = await app.inject({
      url: '/',
      headers: { 'x-forwarded-for': '1.1.1.1, 2.2.2.2', 'x-forwarded-host': 'proxied.test', 'x-forwarded-proto': 'https' }
    })
    assert.deepEqual(res.json(), { ip: '1.1.1.1', ips: ['127.0.0.1', '2.2.2.2', '1.1.1.1'], hostname: 'proxied.test', protocol: 'https' })
  })

  test('ip over a real socket', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    app.get('/', async (req: any) => ({ ip: req.ip, hostname: req.hostname }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const res = await fetch(address)
    const port = new URL(address).port
    assert.deepEqual(await res.json(), { ip: '127.0.0.1', hostname: `127.0.0.1:${port}` })
  })

  test('routeOptions exposes url, method, config and schema', async () => {
    const app: any = enclave()
    const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } } }
    app.get('/items/:id', { config: { role: 'admin' }, schema }, async (req: any) => ({
      url: req.routeOptions.url,
      method: req.routeOptions.method,
      config: req.routeOptions.config,
      hasSchema: req.routeOptions.schema === schema
    }))
    const res = await app.inject('/items/1?n=2')
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.url, '/items/:id')
    assert.equal(body.method, 'GET')
    assert.equal(body.config.role, 'admin')
    assert.equal(body.hasSchema, true)
  })

  test('routeOptions cannot be replaced or changed by a handler', async () => {
    const app: any = enclave()
    app.post('/', { bodyLimit: 1000 }, async (req: any) => {
      const attempts: Record<string, string> = {}
      const attempt = (name: string, change: () => void): void => {
        try {
          change()
          attempts[name] = 'changed'
        } catch (err) {
          attempts[name] = (err as Error).name
        }
      }
      attempt('replace', () => { req.routeOptions = null })
      attempt('method', () => { req.routeOptions.method = 'PUT' })
      attempt('bodyLimit', () => { req.routeOptions.bodyLimit = 1 })
      // the route's config and schema objects are reachable, not listed
      const listed = Object.keys(req.routeOptions).filter((key) => key === 'config' || key === 'schema')
      return { attempts, method: req.routeOptions.method, bodyLimit: req.routeOptions.bodyLimit, listed, config: req.routeOptions.config }
    })
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.deepEqual(res.json(), {
      attempts: { replace: 'TypeError', method: 'TypeError', bodyLimit: 'TypeError' }, method: 'POST', bodyLimit: 1000, listed: [], config: { method: 'POST', url: '/' }
    })
  })

  test('routeOptions.version is the version a request to a versioned route asked for; unversioned routes have none', async () => {
    const app: any = enclave()
    app.get('/', { constraints: { version: '1.2.0' } }, async (req: any) => ({ version: req.routeOptions.version ?? null }))
    app.get('/plain', async (req: any) => ({ version: req.routeOptions.version ?? null }))
    assert.deepEqual((await app.inject({ url: '/', headers: { 'accept-version': '1.x' } })).json(), { version: '1.x' })
    assert.deepEqual((await app.inject({ url: '/plain' })).json(), { version: null })
  })

  test('routeOptions.url carries the plugin prefix', async () => {
    const app: any = enclave()
    app.register(async (child: any) => {
      child.get('/x', async (req: any) => ({ url: req.routeOptions.url }))
    }, { prefix: '/api' })
    const res = await app.inject('/api/x')
    assert.deepEqual(res.json(), { url: '/api/x' })
  })

  test('the properties Fastify 4 deprecated still answer, each with its FSTDEP warning once', async (t) => {
    const warnings: string[] = []
    const onWarning = (warning: any): void => { if (String(warning.code).startsWith('FSTDEP')) warnings.push(warning.code) }
    process.on('warning', onWarning)
    t.after(() => { process.off('warning', onWarning) })
    const app: any = enclave()
    app.get('/d/:id', { config: { c: 1 }, schema: { params: { type: 'object', properties: { id: { type: 'string' } } } } }, async (req: any, reply: any) => ({
      connection: req.connection === req.socket,
      routeConfig: req.routeConfig,
      routerPath: req.routerPath,
      routerMethod: req.routerMethod,
      routeSchema: Object.keys(req.routeSchema),
      requestContext: req.context.config,
      replyContext: reply.context.config
    }))
    // the framework's own request path and logging read none of them
    const plain = enclave({ logger: { level: 'info', stream: { write () {} } } })
    plain.get('/', async () => 'x')
    await plain.inject('/')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings, [])
    for (let i = 0; i < 2; i++) {
      const config = { c: 1, url: '/d/:id', method: 'GET' }
      assert.deepEqual((await app.inject('/d/1')).json(), {
        connection: true, routeConfig: config, routerPath: '/d/:id', routerMethod: 'GET', routeSchema: ['params'], requestContext: config, replyContext: config
      })
    }
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings.sort(), ['FSTDEP005', 'FSTDEP012', 'FSTDEP015', 'FSTDEP016', 'FSTDEP017', 'FSTDEP018', 'FSTDEP019'])
  })
})

describe('request id', () => {
  test('default ids are req-1, req-2, … per instance', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ id: req.id }))
    assert.deepEqual((await app.inject('/')).json(), { id: 'req-1' })
    assert.deepEqual((await app.inject('/')).json(), { id: 'req-2' })
    const other: any = enclave()
    other.get('/', async (req: any) => ({ id: req.id }))
    assert.deepEqual((await other.inject('/')).json(), { id: 'req-1' })
  })

  test('default ids count in base 36 across digit carries (req-z, req-10, … req-zz, req-100)', async () => {
    const app: any = enclave()
    const ids: string[] = []
    app.get('/', async (req: any) => { ids.push(req.id); return 'ok' })
    for (let i = 0; i < 1300; i++) await app.inject('/')
    assert.equal(ids.length, 1300)
    ids.forEach((id, index) => assert.equal(id, 'req-' + (index + 1).toString(36)))
    assert.deepEqual([ids[34], ids[35], ids[1294], ids[1295]], ['req-z', 'req-10', 'req-zz', 'req-100'])
  })

  test('the request-id header is honoured by default', async () => {
    const app: any = enclave()
    app.get('/', async (req: any) => ({ id: req.id }))
    const res = await app.inject({ url: '/', headers: { 'request-id': 'abc-123' } })
    assert.deepEqual(res.json(), { id: 'abc-123' })
  })

  test('requestIdHeader can be renamed or disabled', async () => {
    const renamed: any = enclave({ requestIdHeader: 'x-trace' })
    renamed.get('/', async (req: any) => ({ id: req.id }))
    assert.deepEqual((await renamed.inject({ url: '/', headers: { 'x-trace': 't1', 'request-id': 'no' } })).json(), { id: 't1' })
    const disabled: any = enclave({ requestIdHeader: false })
    disabled.get('/', async (req: any) => ({ id: req.id }))
    assert.deepEqual((await disabled.inject({ url: '/', headers: { 'request-id': 'no' } })).json(), { id: 'req-1' })
  })

  test('genReqId receives the raw request', async () => {
    const app: any = enclave({ genReqId: (raw: any) => 'gen-' + raw.url })
    app.get('/x', async (req: any) => ({ id: req.id }))
    const res = await app.inject('/x')
    assert.deepEqual(res.json(), { id: 'gen-/x' })
  })
})

describe('request.log', () => {
  test('is a child logger carrying the request id', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    app.get('/', async (req: any) => {
      req.log.info({ custom: true }, 'from handler')
      return 'ok'
    })
    await app.inject({ url: '/', headers: { 'request-id': 'my-id' } })
    const line = sink.lines.find((l) => l.msg === 'from handler')
    assert.equal(line.reqId, 'my-id')
    assert.equal(line.custom, true)
    assert.equal(line.level, 30)
    const incoming = sink.lines.find((l) => l.msg === 'incoming request')
    assert.equal(incoming.reqId, 'my-id')
    assert.equal(incoming.req.method, 'GET')
    assert.equal(incoming.req.url, '/')
    const completed = sink.lines.find((l) => l.msg === 'request completed')
    assert.equal(completed.reqId, 'my-id')
    assert.equal(completed.res.statusCode, 200)
    assert.equal(typeof completed.responseTime, 'number')
  })

  test('requestIdLogLabel renames the binding', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream }, requestIdLogLabel: 'rid' })
    app.get('/', async (req: any) => { req.log.info('hello'); return 'ok' })
    await app.inject('/')
    const line = sink.lines.find((l) => l.msg === 'hello')
    assert.equal(line.rid, 'req-1')
    assert.equal(line.reqId, undefined)
  })

  test('disableRequestLogging silences incoming/completed lines', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream }, disableRequestLogging: true })
    app.get('/', async (req: any) => { req.log.info('only me'); return 'ok' })
    await app.inject('/')
    assert.deepEqual(sink.lines.map((l) => l.msg), ['only me'])
  })

  test('disableRequestLogging also silences the default error handler\'s lines (as Fastify 4); onError still sees the error', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream }, disableRequestLogging: true })
    const seen: string[] = []
    app.addHook('onError', async (_request: any, _reply: any, err: Error) => { seen.push(err.message) })
    app.get('/500', async () => { throw new Error('server side') })
    app.get('/400', async () => { throw Object.assign(new Error('client side'), { statusCode: 400 }) })
    assert.equal((await app.inject('/500')).statusCode, 500)
    assert.equal((await app.inject('/400')).statusCode, 400)
    assert.deepEqual(sink.lines, [])
    assert.deepEqual(seen, ['server side', 'client side'])
  })
})

test('a genReqId that throws or a childLoggerFactory that returns no logger answers 500 with the error, and the server lives on', async () => {
  const sink = logSink()
  let failing = true
  const app: any = enclave({
    logger: { level: 'error', stream: sink.stream },
    genReqId: () => {
      if (failing) throw new Error('no id today')
      return 'id-1'
    }
  })
  app.get('/', async () => 'ok')
  app.get('/bad-logger', { childLoggerFactory: () => undefined }, async () => 'never')
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const base = `http://127.0.0.1:${app.server.address().port}`
    const broken = await fetch(`${base}/`)
    assert.equal(broken.status, 500)
    assert.deepEqual(await broken.json(), { statusCode: 500, error: 'Internal Server Error', message: 'no id today' })
    failing = false
    const badLogger = await fetch(`${base}/bad-logger`)
    assert.equal(badLogger.status, 500)
    assert.deepEqual(await badLogger.json(), {
      statusCode: 500,
      code: 'FST_ERR_LOG_INVALID_LOGGER',
      error: 'Internal Server Error',
      message: "Invalid logger object provided. The logger instance should have these functions(s): 'info,error,debug,fatal,warn,trace,child'."
    })
    assert.equal(await (await fetch(`${base}/`)).text(), 'ok')
    assert.deepEqual(sink.lines.map((line) => line.err?.code ?? line.err?.message), ['no id today', 'FST_ERR_LOG_INVALID_LOGGER'])
  } finally {
    await app.close()
  }
})

test('requestIdHeader is matched whatever its case (Node lower-cases incoming header names)', async () => {
  const app = enclave({ requestIdHeader: 'My-Request-Id' })
  app.get('/', async (request: any) => ({ id: request.id }))
  assert.deepEqual((await app.inject({ url: '/', headers: { 'my-request-id': 'abc' } })).json(), { id: 'abc' })
})
