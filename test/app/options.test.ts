import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { enclave, logSink } from '../helpers'


test('logger is disabled by default and app.log is still callable', async () => {
  const app = enclave()
  assert.equal(app.log.level, 'silent')
  app.get('/', async (req: any) => {
    req.log.info('ignored')
    return { ok: true }
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { ok: true })
  await app.close()
})

test('logger: true creates a pino logger at level info', async () => {
  const app = enclave({ logger: true })
  assert.equal(app.log.level, 'info')
  assert.equal(typeof app.log.child, 'function')
  await app.close()
})

test('logger: pino options (level, stream) log requests with their id', async () => {
  const { stream, lines } = logSink()
  const app = enclave({ logger: { level: 'info', stream } })
  assert.equal(app.log.level, 'info')
  app.get('/', async (req: any) => {
    req.log.info('inside handler')
    return 'ok'
  })
  const res = await app.inject({ url: '/', headers: { 'request-id': 'abc' } })
  assert.equal(res.statusCode, 200)
  const inside = lines.find((l) => l.msg === 'inside handler')
  assert.equal(inside.reqId, 'abc')
  assert.ok(lines.some((l) => l.msg === 'incoming request' && l.reqId === 'abc'))
  assert.ok(lines.some((l) => l.msg === 'request completed' && l.res.statusCode === 200))
  await app.close()
})

test('logger: a logger instance is used as it is', async () => {
  const calls: Array<[string, unknown[]]> = []
  const logger: any = { level: 'info' }
  for (const m of ['info', 'error', 'debug', 'fatal', 'warn', 'trace']) logger[m] = (...args: unknown[]) => calls.push([m, args])
  logger.child = () => logger
  const app = enclave({ logger })
  assert.equal(app.log, logger)
  app.get('/', async (req: any) => {
    req.log.warn('custom')
    return 'ok'
  })
  await app.inject('/')
  assert.ok(calls.some(([m, args]) => m === 'warn' && args[0] === 'custom'))
  await app.close()
})

test('bodyLimit: a body over the limit answers 413', async () => {
  const app = enclave({ bodyLimit: 10 })
  app.post('/', async (req: any) => req.body)
  const ok = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { a: 1 })
  const res = await app.inject({ method: 'POST', url: '/', payload: { a: 'x'.repeat(20) } })
  assert.equal(res.statusCode, 413)
  assert.deepEqual(res.json(), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large', message: 'Request body is too large' })
  assert.equal(app.initialConfig.bodyLimit, 10)
  assert.equal(enclave().initialConfig.bodyLimit, 1048576)
  await app.close()
})

test('caseSensitive: true by default; false matches any case and keeps the param case', async () => {
  const strict = enclave()
  strict.get('/Foo/:name', async (req: any) => req.params)
  assert.equal((await strict.inject('/foo/Bar')).statusCode, 404)
  assert.deepEqual((await strict.inject('/Foo/Bar')).json(), { name: 'Bar' })
  const loose = enclave({ caseSensitive: false })
  loose.get('/Foo/:name', async (req: any) => req.params)
  const res = await loose.inject('/FOO/BaR')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { name: 'BaR' })
})

test('ignoreTrailingSlash: /a and /a/ are the same route only when enabled', async () => {
  const strict = enclave()
  strict.get('/a', async () => 'a')
  assert.equal((await strict.inject('/a')).payload, 'a')
  assert.equal((await strict.inject('/a/')).statusCode, 404)
  const loose = enclave({ ignoreTrailingSlash: true })
  loose.get('/a', async () => 'a')
  loose.get('/b/', async () => 'b')
  assert.equal((await loose.inject('/a/')).payload, 'a')
  assert.equal((await loose.inject('/b')).payload, 'b')
})

test('maxParamLength: a longer parameter is not matched (404)', async () => {
  const app = enclave({ maxParamLength: 5 })
  app.get('/:id', async (req: any) => req.params)
  assert.deepEqual((await app.inject('/12345')).json(), { id: '12345' })
  const res = await app.inject('/123456')
  assert.equal(res.statusCode, 404)
})

test('trustProxy: off by default, X-Forwarded-* are ignored', async () => {
  const app = enclave()
  app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
  const res = await app.inject({
    url: '/',
    headers: { host: 'example.com', 'x-forwarded-for': '1.1.1.1', 'x-forwarded-host': 'proxy.com', 'x-forwarded-proto': 'https' }
  })
  assert.deepEqual(res.json(), { ip: '127.0.0.1', ips: null, hostname: 'example.com', protocol: 'http' })
})

test('trustProxy: true uses X-Forwarded-For/Host/Proto', async () => {
  const app = enclave({ trustProxy: true })
  app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips, hostname: req.hostname, protocol: req.protocol }))
  const res = await app.inject({
    url: '/',
    headers: { host: 'example.com', 'x-forwarded-for': '1.1.1.1, 2.2.2.2', 'x-forwarded-host': 'proxy.com', 'x-forwarded-proto': 'https' }
  })
  assert.deepEqual(res.json(), { ip: '1.1.1.1', ips: ['127.0.0.1', '2.2.2.2', '1.1.1.1'], hostname: 'proxy.com', protocol: 'https' })
})

test('trustProxy: a hop count and an address list trust only those proxies', async () => {
  const hops = enclave({ trustProxy: 1 })
  hops.get('/', async (req: any) => ({ ip: req.ip }))
  const one = await hops.inject({ url: '/', headers: { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' } })
  assert.deepEqual(one.json(), { ip: '2.2.2.2' })
  const list = enclave({ trustProxy: '10.0.0.1' })
  list.get('/', async (req: any) => ({ ip: req.ip, protocol: req.protocol, hostname: req.hostname }))
  const forwarded = { host: 'example.com', 'x-forwarded-for': '1.1.1.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'proxied.test' }
  const untrusted = await list.inject({ url: '/', headers: forwarded })
  assert.deepEqual(untrusted.json(), { ip: '127.0.0.1', protocol: 'http', hostname: 'example.com' })
  const trusted = await list.inject({ url: '/', remoteAddress: '10.0.0.1', headers: forwarded })
  assert.deepEqual(trusted.json(), { ip: '1.1.1.1', protocol: 'https', hostname: 'proxied.test' })
})

test('request ids: request-id header by default, then an incrementing generator', async () => {
  const app = enclave()
  app.get('/', async (req: any) => ({ id: req.id }))
  assert.deepEqual((await app.inject({ url: '/', headers: { 'request-id': 'given' } })).json(), { id: 'given' })
  const a = (await app.inject('/')).json().id
  const b = (await app.inject('/')).json().id
  assert.equal(typeof a, 'string')
  assert.notEqual(a, b)
})

test('genReqId and requestIdHeader', async () => {
  let n = 0
  const app = enclave({ genReqId: (raw: any) => `id-${raw.method}-${++n}`, requestIdHeader: 'x-trace' })
  app.get('/', async (req: any) => ({ id: req.id }))
  assert.deepEqual((await app.inject('/')).json(), { id: 'id-GET-1' })
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-trace': 'T' } })).json(), { id: 'T' })
  assert.deepEqual((await app.inject({ url: '/', headers: { 'request-id': 'R' } })).json(), { id: 'id-GET-2' })
  const off = enclave({ genReqId: () => 'always', requestIdHeader: false })
  off.get('/', async (req: any) => ({ id: req.id }))
  assert.deepEqual((await off.inject({ url: '/', headers: { 'request-id': 'R' } })).json(), { id: 'always' })
})

test('onProtoPoisoning / onConstructorPoisoning: error (400) by default, remove and ignore on demand', async () => {
  const proto = '{"a":1,"__proto__":{"x":1}}'
  const ctor = '{"a":1,"constructor":{"prototype":{"x":1}}}'
  const post = (app: any, payload: string) => app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })
  const def = enclave()
  def.post('/', async (req: any) => ({ keys: Object.keys(req.body) }))
  const r1 = await post(def, proto)
  assert.equal(r1.statusCode, 400)
  // as in Fastify 4, the error is secure-json-parse's own SyntaxError (no code)
  assert.deepEqual(r1.json(), { statusCode: 400, error: 'Bad Request', message: 'Object contains forbidden prototype property' })
  const r2 = await post(def, ctor)
  assert.equal(r2.statusCode, 400)
  assert.deepEqual(r2.json(), { statusCode: 400, error: 'Bad Request', message: 'Object contains forbidden prototype property' })

  const remove = enclave({ onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove' })
  remove.post('/', async (req: any) => ({ keys: Object.keys(req.body) }))
  assert.deepEqual((await post(remove, proto)).json(), { keys: ['a'] })
  assert.deepEqual((await post(remove, ctor)).json(), { keys: ['a'] })

  const ignore = enclave({ onConstructorPoisoning: 'ignore' })
  ignore.post('/', async (req: any) => ({ keys: Object.keys(req.body) }))
  assert.deepEqual((await post(ignore, ctor)).json(), { keys: ['a', 'constructor'] })
})

test('pluginTimeout: a plugin that never finishes fails ready(); 0 disables the timeout', async () => {
  const app = enclave({ pluginTimeout: 20 })
  app.register(function slow (_i: any, _o: any, _done: any) {})
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    assert.match(err.message, /slow/)
    return true
  })
  const off = enclave({ pluginTimeout: 0 })
  off.register(async function late () { await new Promise((resolve) => setTimeout(resolve, 30)) })
  await off.ready()
  await off.close()
})

/** Sends one GET over a fresh connection (agent: false) and resolves with the status, headers and body. */
function rawGet (port: number, p: string): Promise<{ status: number, headers: http.IncomingHttpHeaders, body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ port, host: '127.0.0.1', path: p, agent: false }, (res) => {
      let body = ''
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    }).on('error', reject)
  })
}

test('return503OnClosing: requests arriving while closing get 503 (default)', async () => {
  const app = enclave()
  app.get('/', async () => 'ok')
  let during: any
  app.addHook('preClose', async () => { during = await rawGet(app.server.address().port, '/') })
  await app.listen({ port: 0 })
  assert.equal((await rawGet(app.server.address().port, '/')).body, 'ok')
  await app.close()
  assert.equal(during.status, 503)
  assert.equal(during.headers.connection, 'close')
  assert.deepEqual(JSON.parse(during.body), { error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503 })
})

test('return503OnClosing: false keeps serving while closing, with connection: close', async () => {
  const app = enclave({ return503OnClosing: false })
  app.get('/', async () => 'ok')
  let during: any
  app.addHook('preClose', async () => { during = await rawGet(app.server.address().port, '/') })
  await app.listen({ port: 0 })
  await app.close()
  assert.equal(during.status, 200)
  assert.equal(during.body, 'ok')
  assert.equal(during.headers.connection, 'close')
})

test('exposeHeadRoutes: false means GET routes do not answer HEAD', async () => {
  const app = enclave({ exposeHeadRoutes: false })
  app.get('/', async () => 'ok')
  const res = await app.inject({ method: 'HEAD', url: '/' })
  assert.equal(res.statusCode, 404)
  assert.equal(app.hasRoute({ method: 'HEAD', url: '/' }), false)
})

test('rewriteUrl: routes by the rewritten URL; a non-string resets the connection without routing (logged); a throw answers 500', async () => {
  const lines: any[] = []
  const app = enclave({
    logger: { level: 'error', stream: { write (line: string) { lines.push(JSON.parse(line)) } } },
    rewriteUrl (this: any, req: any) {
      if (req.url === '/broken') throw new Error('rewrite failed')
      if (req.url === '/number') return 42
      return req.url.replace(/^\/old\//, '/new/')
    }
  })
  let reached = false
  app.get('/new/:name', async (req: any) => ({ url: req.url, originalUrl: req.originalUrl, name: req.params.name }))
  app.get('/number', async () => { reached = true; return 'must not be reached' })

  const rewritten = await app.inject('/old/a?x=1')
  assert.deepEqual(rewritten.json(), { url: '/new/a?x=1', originalUrl: '/old/a?x=1', name: 'a' })

  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    await assert.rejects(rawGet(app.server.address().port, '/number'), { code: 'ECONNRESET' })
    assert.equal(reached, false)
    const notString = lines.find((l) => l.err?.code === 'FST_ERR_ROUTE_REWRITE_NOT_STR')
    assert.equal(notString.msg, 'Rewrite url for "/number" needs to be of type "string" but received "number"')

    const broken = await app.inject('/broken')
    assert.deepEqual([broken.statusCode, broken.json()], [500, { statusCode: 500, error: 'Internal Server Error', message: 'rewrite failed' }])
    assert.equal((await app.inject('/old/b')).json().name, 'b')
  } finally {
    await app.close()
  }
})

test('options Fastify types are checked as Fastify checks them: its code, Ajv\'s wording, its coercions', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ caseSensitive: 'yes' }, '["must be boolean"]'],
    [{ pluginTimeout: 1.5 }, '["must be integer"]'],
    [{ connectionTimeout: 'soon' }, '["must be integer"]'],
    [{ http2: 'yes' }, '["must be boolean"]'],
    [{ forceCloseConnections: 'always' }, '["must match pattern \\"idle\\"","must be boolean","must match exactly one schema in oneOf"]'],
    [{ constraints: { tenant: 5 } }, '["must be object"]']
  ]
  for (const [options, messages] of cases) {
    assert.throws(() => enclave(options), { code: 'FST_ERR_INIT_OPTS_INVALID', message: `Invalid initialization options: '${messages}'` },
      `expected ${JSON.stringify(options)} to throw`)
  }
  const coerced = enclave({ connectionTimeout: '250', ignoreTrailingSlash: 1 })
  assert.equal(coerced.initialConfig.connectionTimeout, 250)
  assert.equal(coerced.initialConfig.ignoreTrailingSlash, true)
})

test('bodyLimit and querystringParser fail with the codes Fastify gives them', () => {
  for (const bodyLimit of ['1mb', 0, -1, 1.5]) {
    assert.throws(() => enclave({ bodyLimit }), { code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT' })
  }
  assert.throws(() => enclave({ querystringParser: 'qs' }), {
    code: 'FST_ERR_QSP_NOT_FN', message: "querystringParser option should be a function, instead got 'string'"
  })
})

test('options that would fail only later (a function that is not one, a poisoning action that is not one) fail at construction, naming the option', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ logger: 'info' }, /logger/],
    [{ genReqId: 'x' }, /genReqId/],
    [{ rewriteUrl: 'x' }, /rewriteUrl/],
    [{ onProtoPoisoning: 'explode' }, /must be equal to one of the allowed values/]
  ]
  for (const [options, message] of cases) {
    assert.throws(() => enclave(options), (err: any) => {
      assert.equal(err.code, 'FST_ERR_INIT_OPTS_INVALID')
      assert.match(err.message, message)
      return true
    }, `expected ${JSON.stringify(options)} to throw`)
  }
})

test('unknown options are ignored, as Fastify ignores them, and logged as a warning', async () => {
  const sink = logSink()
  const app = enclave({ bodyLimt: 10, modifyCoreObjects: true, logger: { level: 'warn', stream: sink.stream } })
  app.get('/', async () => 'started anyway')
  assert.equal((await app.inject('/')).body, 'started anyway')
  assert.deepEqual(sink.lines.map((line) => line.msg), [
    'the option "bodyLimt" is not one Enclave (or Fastify 4) has: it is ignored',
    'the option "modifyCoreObjects" is not one Enclave (or Fastify 4) has: it is ignored'
  ])
})

test('initialConfig reflects the options and is frozen', () => {
  const app = enclave({ caseSensitive: false, pluginTimeout: 500 })
  assert.equal(app.initialConfig.caseSensitive, false)
  assert.equal(app.initialConfig.pluginTimeout, 500)
  assert.equal(app.initialConfig.ignoreTrailingSlash, false)
  assert.ok(Object.isFrozen(app.initialConfig))
  // the router and schema options Fastify 4 reports too, with their defaults
  assert.deepEqual(
    [app.initialConfig.allowUnsafeRegex, app.initialConfig.jsonShorthand, app.initialConfig.useSemicolonDelimiter, app.initialConfig.http2],
    [false, true, false, undefined])
  const set = enclave({ allowUnsafeRegex: true, jsonShorthand: false, useSemicolonDelimiter: true, http2: true })
  assert.deepEqual(
    [set.initialConfig.allowUnsafeRegex, set.initialConfig.jsonShorthand, set.initialConfig.useSemicolonDelimiter, set.initialConfig.http2],
    [true, false, true, true])
})

test('useSemicolonDelimiter: off by default (";" belongs to the path); on, it separates the query as in Fastify 4', async () => {
  const strict = enclave()
  strict.get('/items', async (req: any) => req.query)
  assert.equal((await strict.inject('/items;x=1')).statusCode, 404)
  const fastify4 = enclave({ useSemicolonDelimiter: true })
  fastify4.get('/items', async (req: any) => req.query)
  const res = await fastify4.inject('/items;x=1')
  assert.deepEqual([res.statusCode, res.json()], [200, { x: '1' }])
})
