/**
 * Enclave and the real fastify@4 (a devDependency) run the very same application and answer the same requests;
 * the answers must be identical (status, chosen headers, body, and the hooks that ran), except where
 * docs/compatibility.md lists a deliberate difference. A new divergence shows up here as a failing case.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import Fastify from 'fastify'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any
const keptHeaders = ['content-type', 'content-length', 'location', 'retry-after', 'x-multi', 'allow', 'transfer-encoding']

/** Routes exercising replies, errors, hooks, prefixes and bodies; `trace` records which hooks ran. */
function buildApp (factory: Factory, trace: string[]): any {
  const app = factory()
  const get = (path: string, handler: any, opts: any = {}): void => { app.get(path, opts, handler) }
  const fail = (props: Record<string, unknown>, message = 'x') => async () => { throw Object.assign(new Error(message), props) }
  get('/err/string-status', fail({ statusCode: '404' }))
  get('/err/302', fail({ statusCode: 302 }, 'moved'))
  get('/err/status', fail({ status: 409 }))
  get('/err/headers', fail({ statusCode: 429, headers: { 'retry-after': '5' } }))
  get('/err/code', fail({ statusCode: 418, code: 'MY_CODE' }))
  get('/err/nomsg', async () => { throw new Error() })
  get('/err/500', fail({}, 'internal detail'))
  get('/redirect1', async (_q: any, reply: any) => reply.redirect('/x'))
  get('/redirect2', async (_q: any, reply: any) => reply.redirect(301, '/y'))
  get('/redirect3', async (_q: any, reply: any) => reply.code(303).redirect('/z'))
  get('/type', async (_q: any, reply: any) => { reply.type('text/html'); return '<b>hi</b>' })
  get('/type-json-string', async (_q: any, reply: any) => { reply.type('application/json'); return '{"a":1}' })
  get('/buffer', async () => Buffer.from('buf'))
  get('/number', async () => 42)
  get('/bool', async () => false)
  get('/null', async (_q: any, reply: any) => reply.send(null))
  get('/array-header', async (_q: any, reply: any) => { reply.header('x-multi', ['a', 'b']); return 'ok' })
  get('/204', async (_q: any, reply: any) => { reply.code(204); return { a: 1 } })
  get('/stream', async (_q: any, reply: any) => { reply.type('text/plain'); return Readable.from(['a', 'b']) })
  get('/stream-error', async () => new Readable({ read () { this.destroy(new Error('boom')) } }))
  get('/params/:a-:b', async (q: any) => q.params)
  get('/wild/*', async (q: any) => q.params)
  get('/encoded/:p', async (q: any) => q.params)
  get('/query', async (q: any) => q.query)
  get('/empty-string', async () => '')
  get('/undefined-send', (_q: any, reply: any) => { reply.send(undefined) })
  get('/tojson', async () => ({ toJSON () { return { j: 1 } } }))
  get('/date', async () => new Date(0))
  get('/code-bad', async (_q: any, reply: any) => { reply.code(99); return 'x' })
  get('/content-length-wrong', async (_q: any, reply: any) => { reply.header('content-length', '2'); return 'hello' })
  get('/send-twice', (_q: any, reply: any) => { reply.send('one'); reply.send('two') })
  get('/return-and-send', async (_q: any, reply: any) => { reply.send('sent'); return 'returned' })
  get('/sync-return', () => 'sync value')
  get('/sync-throw', () => { throw new Error('sync') })
  get('/resp-schema-err', fail({ statusCode: 400 }, 'bad'), { schema: { response: { 400: { type: 'object', properties: { message: { type: 'string' } } } } } })
  get('/resp-schema-missing', async () => ({ a: 1 }), { schema: { response: { 200: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } } } } })
  get('/resp-2xx', async (_q: any, reply: any) => { reply.code(201); return { a: 1, b: 2 } }, { schema: { response: { '2xx': { type: 'object', properties: { a: { type: 'integer' } } } } } })
  app.post('/body', async (q: any) => ({ body: q.body ?? null, type: typeof q.body }))
  app.post('/schema-body', { schema: { body: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } } }, async (q: any) => q.body)
  app.delete('/del', async (q: any) => ({ body: q.body ?? null }))
  app.options('/opt', async (q: any) => ({ body: q.body ?? null }))

  app.register(async (p: any) => {
    p.get('/', async () => 'slash')
    p.get('/x', async () => 'x')
  }, { prefix: '/pre' })
  app.register(async (p: any) => {
    p.addHook('onRequest', async () => { trace.push('onRequest') })
    p.addHook('preParsing', async (_q: any, _r: any, payload: any) => { trace.push('preParsing'); return payload })
    p.addHook('preValidation', async () => { trace.push('preValidation') })
    p.addHook('preHandler', async () => { trace.push('preHandler') })
    p.addHook('preSerialization', async (_q: any, _r: any, payload: any) => { trace.push('preSerialization'); return payload })
    p.addHook('onSend', async (_q: any, _r: any, payload: any) => { trace.push(`onSend:${typeof payload}`); return payload })
    p.addHook('onResponse', async () => { trace.push('onResponse') })
    p.addHook('onError', async (_q: any, _r: any, err: Error) => { trace.push(`onError:${err.message}`) })
    p.get('/ok', async () => ({ a: 1 }))
    p.get('/throw', async () => { throw new Error('t') })
    p.post('/body', async (q: any) => q.body)
    p.get('/hook-throw', { preHandler: async () => { throw Object.assign(new Error('pre'), { statusCode: 401 }) } }, async () => 'never')
    p.get('/hook-reply', { preHandler: async (_q: any, reply: any) => { reply.code(202).send('from hook') } }, async () => 'never')
    p.get('/hook-reply-return', { preHandler: async (_q: any, reply: any) => { reply.send('from hook 2'); return reply } }, async () => 'never')
    p.get('/cb-hook', { preHandler: (_q: any, _r: any, done: any) => { done(new Error('cb err')) } }, async () => 'never')
    p.get('/onsend-null', { onSend: async () => null }, async () => 'x')
    p.get('/preser-str', { preSerialization: async () => 'not an object' }, async () => ({ a: 1 }))
    p.get('/error-handler-throws', { errorHandler: async () => { throw new Error('handler failed') } }, async () => { throw new Error('orig') })
    p.get('/error-handler-reply', { errorHandler: (err: Error, _q: any, reply: any) => { reply.code(418).send({ teapot: err.message }) } }, async () => { throw new Error('orig') })
    p.get('/hijack', async (_q: any, reply: any) => { reply.hijack(); reply.raw.writeHead(200, { 'content-type': 'text/x' }); reply.raw.end('raw') })
  }, { prefix: '/h' })
  return app
}

const json = { 'content-type': 'application/json' }
const requests: any[] = [
  ...['/err/string-status', '/err/302', '/err/status', '/err/headers', '/err/code', '/err/nomsg', '/err/500', '/redirect1', '/redirect2',
    '/redirect3', '/type', '/type-json-string', '/buffer', '/number', '/bool', '/null', '/array-header', '/204', '/stream', '/stream-error',
    '/params/x-y', '/wild/a/b/c', '/encoded/a%2Fb', '/encoded/%E2%82%AC', '/encoded/%zz', '/query?a=1&a=2&b=&c', '/query?__proto__[x]=1&constructor=2',
    '/empty-string', '/undefined-send', '/tojson', '/date', '/code-bad', '/content-length-wrong', '/send-twice', '/return-and-send',
    '/sync-return', '/sync-throw', '/resp-schema-err', '/resp-schema-missing', '/resp-2xx', '/type/', '//type', '/TYPE', '/nope?x=1',
    '/pre', '/pre/', '/pre/x', '/pre/x/', '/pre//x', '/h/ok', '/h/throw', '/h/hook-throw', '/h/hook-reply', '/h/hook-reply-return',
    '/h/cb-hook', '/h/onsend-null', '/h/preser-str', '/h/error-handler-throws', '/h/error-handler-reply', '/h/hijack', '/h/missing'
  ].map((url) => ({ url })),
  { url: '/type', method: 'HEAD' },
  { url: '/stream', method: 'HEAD' },
  ...['', '{"a":', 'null', '"str"', '{"__proto__":{"a":1}}', '{"constructor":{"prototype":{"a":1}}}']
    .map((payload) => ({ url: '/body', method: 'POST', headers: json, payload })),
  { url: '/body', method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
  { url: '/body', method: 'POST', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
  { url: '/body', method: 'POST', payload: 'no type' },
  { url: '/body', method: 'POST' },
  { url: '/body', method: 'POST', headers: { 'content-type': 'APPLICATION/JSON' }, payload: '{"a":1}' },
  { url: '/body', method: 'GET' },
  { url: '/body', method: 'PATCH' },
  { url: '/schema-body', method: 'POST', headers: json, payload: '[]' },
  { url: '/schema-body', method: 'POST', headers: json, payload: '{"a":"x"}' },
  { url: '/schema-body', method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'x' },
  { url: '/del', method: 'DELETE', headers: json, payload: '{"a":1}' },
  { url: '/del', method: 'DELETE' },
  { url: '/opt', method: 'OPTIONS', headers: json, payload: '{"a":1}' },
  { url: '/h/body', method: 'POST', headers: json, payload: '{"a":1}' },
  { url: '/h/body', method: 'POST', headers: json, payload: '{bad' }
]

async function answers (factory: Factory): Promise<string[]> {
  const trace: string[] = []
  const app = buildApp(factory, trace)
  await app.ready()
  const out: string[] = []
  for (const request of requests) {
    trace.length = 0
    const res = await app.inject(request)
    await new Promise((resolve) => setTimeout(resolve, 2)) // onResponse hooks run after the answer
    const headers: Record<string, unknown> = {}
    for (const name of keptHeaders) if (res.headers[name] !== undefined) headers[name] = res.headers[name]
    out.push(`${request.method ?? 'GET'} ${request.url} ${request.payload ?? ''} → ${res.statusCode} ${JSON.stringify(headers)} ${res.payload} [${trace.join(' ')}]`)
  }
  await app.close()
  return out
}

/** Runs `answer` on both frameworks and requires the same lines, listing each divergence side by side. */
async function assertSameAnswers (answer: (factory: Factory) => Promise<string[]>, count: number): Promise<void> {
  const ours = await answer(enclave)
  const theirs = await answer(Fastify as unknown as Factory)
  assert.equal(ours.length, count)
  const differences = ours.map((line, i) => line === theirs[i] ? null : `Enclave: ${line}\nFastify: ${theirs[i]}`).filter((d) => d !== null)
  assert.deepEqual(differences, [])
}

test('the same application answers the same on Enclave and fastify@4', async () => {
  await assertSameAnswers(answers, requests.length)
})

/** Schemas: shared `$ref`s, defaults, coercion of every part, formats, combinators, and response serialization. */
function buildSchemaApp (factory: Factory): any {
  const app = factory()
  const post = (url: string, schema: any, handler = async (req: any) => req.body): void => { app.post(url, { schema }, handler) }
  const resp = (url: string, schema: any, value: unknown): void => { app.get(url, { schema: { response: { 200: schema } } }, async () => value) }
  app.addSchema({ $id: 'http://example.com/addr.json', type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['city'] })
  app.addSchema({ $id: 'http://example.com/user.json', type: 'object', properties: { name: { type: 'string', minLength: 2 }, addr: { $ref: 'http://example.com/addr.json#' } } })
  post('/ref', { body: { $ref: 'http://example.com/user.json#' } })
  post('/ref-prop', { body: { type: 'object', properties: { a: { $ref: 'http://example.com/addr.json#' } } } })
  post('/defaults', { body: { type: 'object', properties: { a: { type: 'string', default: 'd' }, n: { type: 'object', default: {}, properties: { x: { type: 'integer', default: 5 } } } } } })
  post('/addl', { body: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } } })
  post('/addl-schema', { body: { type: 'object', additionalProperties: { type: 'integer' }, properties: { a: { type: 'string' } } } })
  post('/nullable', { body: { type: 'object', properties: { a: { type: 'string', nullable: true } } } })
  post('/anyof', { body: { type: 'object', properties: { a: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } } } })
  post('/oneof', { body: { oneOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] } })
  post('/enum', { body: { type: 'object', properties: { e: { enum: ['x', 'y'] }, c: { const: 3 } } } })
  post('/formats', { body: { type: 'object', properties: { email: { type: 'string', format: 'email' }, dt: { type: 'string', format: 'date-time' }, u: { type: 'string', format: 'uuid' }, uri: { type: 'string', format: 'uri' } } } })
  post('/arrays', { body: { type: 'object', properties: { t: { type: 'array', items: { type: 'integer' }, minItems: 1, uniqueItems: true } } } })
  post('/string-body', { body: { type: 'string', maxLength: 3 } })
  post('/int-body', { body: { type: 'integer' } })
  app.get('/headers', { schema: { headers: { type: 'object', properties: { 'x-n': { type: 'integer' }, 'x-b': { type: 'boolean' } }, required: ['x-n'] } } }, async (req: any) => ({ n: req.headers['x-n'], b: req.headers['x-b'] }))
  app.get('/q', { schema: { querystring: { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } }, b: { type: 'boolean' }, s: { type: 'string' }, n: { type: 'null' } } } } }, async (req: any) => req.query)
  app.get('/p/:id/:flag', { schema: { params: { type: 'object', properties: { id: { type: 'integer' }, flag: { type: 'boolean' } } } } }, async (req: any) => req.params)
  resp('/r/nullable', { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'integer', nullable: true } } }, { a: null, b: null })
  resp('/r/null-nonnullable', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' }, d: { type: 'number' } } }, { a: null, b: null, c: null, d: null })
  resp('/r/coerce', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' }, d: { type: 'number' } } }, { a: 12, b: '34', c: 'yes', d: '5.5' })
  resp('/r/int-round', { type: 'object', properties: { b: { type: 'integer' } } }, { b: 3.7 })
  resp('/r/date', { type: 'object', properties: { d: { type: 'string', format: 'date-time' }, e: { type: 'string', format: 'date' }, s: { type: 'string' } } }, { d: new Date(0), e: new Date(0), s: new Date(0) })
  resp('/r/default', { type: 'object', properties: { a: { type: 'string', default: 'dflt' }, b: { type: 'integer', default: 7 } } }, {})
  resp('/r/ref', { $ref: 'http://example.com/user.json#' }, { name: 'Ann', addr: { city: 'X', zip: '12345', extra: 1 }, extra: 2 })
  resp('/r/anyof', { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }, { a: 5 })
  resp('/r/array-top', { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } }, [{ a: 1, b: 2 }, { a: '3' }])
  resp('/r/addl', { type: 'object', additionalProperties: true, properties: { a: { type: 'integer' } } }, { a: 1, z: 'kept', y: { nested: true } })
  resp('/r/addl-typed', { type: 'object', additionalProperties: { type: 'string' }, properties: { a: { type: 'integer' } } }, { a: 1, z: 5 })
  resp('/r/missing-required', { type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, {})
  resp('/r/string-top', { type: 'string' }, 'plain')
  resp('/r/special', { type: 'object', properties: { s: { type: 'string' } } }, { s: 'quote " backslash \\ newline \n emoji 😀 lone \ud800' })
  resp('/r/big', { type: 'object', properties: { n: { type: 'number' }, i: { type: 'integer' } } }, { n: 1e21, i: 2 ** 60 })
  resp('/r/nan', { type: 'object', properties: { n: { type: 'number' } } }, { n: NaN })
  return app
}

const schemaCases: Array<[string, string, unknown?, Record<string, string>?]> = [
  ['POST', '/ref', { name: 'Al', addr: { city: 'C', zip: '12345' } }], ['POST', '/ref', { name: 'A' }], ['POST', '/ref', { name: 'Al', addr: { zip: '1' } }],
  ['POST', '/ref-prop', { a: { city: 1 } }],
  ['POST', '/defaults', {}], ['POST', '/addl', { a: 'x', b: 1 }], ['POST', '/addl-schema', { a: 'x', b: '2', c: 'no' }],
  ['POST', '/nullable', { a: null }], ['POST', '/anyof', { a: '1' }], ['POST', '/anyof', { a: 'true' }], ['POST', '/anyof', { a: 'x' }],
  ['POST', '/oneof', { a: 1, b: 2 }], ['POST', '/oneof', { c: 1 }], ['POST', '/enum', { e: 'z' }], ['POST', '/enum', { e: 'x', c: 4 }],
  ['POST', '/formats', { email: 'nope' }], ['POST', '/formats', { dt: '2020-01-01' }], ['POST', '/formats', { u: 'x' }], ['POST', '/formats', { uri: 'relative/path' }],
  ['POST', '/formats', { email: 'a@b.co', dt: '2020-01-01T00:00:00Z', u: '123e4567-e89b-12d3-a456-426614174000', uri: 'http://x' }],
  ['POST', '/arrays', { t: [] }], ['POST', '/arrays', { t: [1, 1] }], ['POST', '/arrays', { t: ['1', 2] }], ['POST', '/arrays', { t: 5 }],
  ['POST', '/string-body', '"abcd"'], ['POST', '/string-body', '"ab"'], ['POST', '/int-body', '"12"'], ['POST', '/int-body', '[3]'],
  ['GET', '/headers', null, { 'x-n': '5', 'x-b': 'true' }], ['GET', '/headers', null, { 'x-n': 'five' }], ['GET', '/headers', null, {}],
  ['GET', '/q?a=1&a=2&b=false&s=1&n='], ['GET', '/q?a=x'], ['GET', '/q?b=maybe'], ['GET', '/q?a=1'],
  ['GET', '/p/7/true'], ['GET', '/p/x/true'], ['GET', '/p/7/yes'],
  ...['nullable', 'null-nonnullable', 'coerce', 'int-round', 'date', 'default', 'ref', 'anyof', 'array-top', 'addl', 'addl-typed', 'missing-required', 'string-top', 'special', 'big', 'nan'].map((n): [string, string] => ['GET', '/r/' + n])
]

async function schemaAnswers (factory: Factory): Promise<string[]> {
  const app = buildSchemaApp(factory)
  await app.ready()
  const out: string[] = []
  for (const [method, url, body, headers] of schemaCases) {
    const request: any = { method, url, headers: { ...(body != null ? json : {}), ...(headers ?? {}) } }
    if (body != null) request.payload = typeof body === 'string' ? body : JSON.stringify(body)
    const res = await app.inject(request)
    out.push(`${method} ${url} ${request.payload ?? ''} ${JSON.stringify(headers ?? {})} → ${res.statusCode} ${res.headers['content-type']} ${res.payload}`)
  }
  await app.close()
  return out
}

test('validation and serialization answer the same on Enclave and fastify@4', async () => {
  await assertSameAnswers(schemaAnswers, schemaCases.length)
})

/** What a handler (or a not-found handler) sees of its request and reply, under three `trustProxy` settings. */
async function requestViews (factory: Factory): Promise<string[]> {
  const out: string[] = []
  for (const trustProxy of [undefined, true, '10.0.0.1']) {
    const app = factory(trustProxy === undefined ? {} : { trustProxy })
    const describe = (req: any, reply: any): unknown => {
      const route = req.routeOptions
      return {
        id: req.id, url: req.url, originalUrl: req.originalUrl, method: req.method, ip: req.ip, ips: req.ips, hostname: req.hostname,
        protocol: req.protocol, is404: req.is404, params: req.params, query: req.query, body: req.body ?? null,
        routerPath: req.routerPath, routerMethod: req.routerMethod, routeConfig: req.routeConfig,
        routeOptions: {
          method: route.method, url: route.url, bodyLimit: route.bodyLimit, attachValidation: route.attachValidation, logLevel: route.logLevel,
          exposeHeadRoute: route.exposeHeadRoute, prefixTrailingSlash: route.prefixTrailingSlash, config: route.config, schema: route.schema ?? null
        },
        sent: reply.sent, statusCode: reply.statusCode, replyHeaders: reply.getHeaders(), server: req.server === app
      }
    }
    app.get('/info/:p', { config: { k: 1 } }, async (req: any, reply: any) => describe(req, reply))
    app.post('/info', { bodyLimit: 100, schema: { body: { type: 'object' } } }, async (req: any, reply: any) => describe(req, reply))
    app.register(async (api: any) => {
      api.setNotFoundHandler(async (req: any, reply: any) => { reply.code(404); return describe(req, reply) })
    }, { prefix: '/api' })
    app.setNotFoundHandler(async (req: any, reply: any) => { reply.code(404); return describe(req, reply) })
    await app.ready()
    const forwarded = { 'x-forwarded-for': '1.1.1.1, 10.0.0.1', 'x-forwarded-host': 'ex.com:8080', 'x-forwarded-proto': 'https', host: 'orig:1' }
    for (const request of [
      { url: '/info/a%20b?x=1&y=%20' },
      { url: '/info/z', headers: forwarded, remoteAddress: '10.0.0.1' },
      { url: '/info', method: 'POST', payload: { a: 1 } },
      { url: '/missing/deeper?q=1' },
      { url: '/api/missing' }
    ]) {
      const res = await app.inject(request)
      out.push(`${String(trustProxy)} ${request.url} → ${res.statusCode} ${res.payload}`)
    }
    await app.close()
  }
  return out
}

test('handlers see the same request and reply on Enclave and fastify@4', async () => {
  await assertSameAnswers(requestViews, 15)
})

/** The log lines of errors, validation failures, double sends and 404s (times, pids and stacks left out). */
async function logLines (factory: Factory): Promise<string[]> {
  const lines: any[] = []
  const app = factory({ logger: { level: 'trace', stream: { write (line: string) { lines.push(JSON.parse(line)) } } } })
  app.get('/500', async () => { throw new Error('boom') })
  app.get('/418', async () => { throw Object.assign(new Error('teapot'), { statusCode: 418 }) })
  app.get('/503', async () => { throw Object.assign(new Error('unavailable'), { statusCode: 503 }) })
  app.post('/validation', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'x')
  app.get('/twice', (_req: any, reply: any) => { reply.send('a'); reply.send('b') })
  app.get('/undefined', async () => undefined)
  app.get('/custom-error-handler', { errorHandler: (err: Error, _req: any, reply: any) => { reply.send(err) } }, async () => { throw new Error('custom') })
  app.get('/throw-after-send', async (_req: any, reply: any) => { reply.send('sent'); throw new Error('too late') })
  await app.ready()
  for (const request of [{ url: '/500' }, { url: '/418' }, { url: '/503' }, { url: '/validation', method: 'POST', payload: {} }, { url: '/twice' },
    { url: '/undefined' }, { url: '/custom-error-handler' }, { url: '/throw-after-send' }, { url: '/none' }]) {
    lines.push({ request: request.url })
    await app.inject(request)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await app.close()
  return lines.map(({ time: _time, pid: _pid, hostname: _hostname, responseTime: _responseTime, ...line }) => {
    if (line.err !== undefined) {
      const { type, message, code, statusCode, stack } = line.err
      line.err = { type, message, code, statusCode, stack: typeof stack, keys: Object.keys(line.err).sort().join() }
    }
    if (line.req !== undefined) line.req = Object.keys(line.req).join()
    return JSON.stringify(line)
  })
}

test('errors and requests are logged the same on Enclave and fastify@4', async () => {
  await assertSameAnswers(logLines, 35)
})

/** The reply API: headers, types, serializers, schema helpers, redirects, trailers, errors through response schemas. */
async function replyAnswers (factory: Factory): Promise<string[]> {
  const app = factory()
  const get = (path: string, handler: any, opts: any = {}): void => { app.get(path, opts, handler) }
  class DetailedError extends Error { get computed (): string { return 'from-getter' } }
  const errorSchema = {
    response: {
      '4xx': {
        type: 'object',
        properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' }, extra: { type: 'string' }, computed: { type: 'string' }, name: { type: 'string' } }
      }
    }
  }
  get('/headers', async (_q: any, r: any) => {
    r.header('X-Upper', 'v').header('set-cookie', 'a=1').header('set-cookie', ['b=2', 'c=3'])
    return { has: r.hasHeader('x-upper'), get: r.getHeader('X-UPPER'), cookies: r.getHeader('set-cookie'), all: r.getHeaders() }
  })
  get('/remove-header', async (_q: any, r: any) => { r.header('content-type', 'text/plain'); r.removeHeader('Content-Type'); return { a: 1 } })
  get('/header-values', async (_q: any, r: any) => { r.header('x-num', 5).header('x-bool', true).header('x-undef', undefined); return r.getHeaders() })
  get('/type-charset', async (_q: any, r: any) => { r.type('text/html; charset=latin1'); return 'x' })
  get('/type-vendor-json', async (_q: any, r: any) => { r.type('application/vnd.api+json'); return { a: 1 } })
  get('/type-text-object', async (_q: any, r: any) => { r.type('text/plain'); return { a: 1 } })
  get('/type-json-string', async (_q: any, r: any) => { r.type('application/json'); return 'not json' })
  get('/serialize', async (_q: any, r: any) => r.serialize({ a: 1 }))
  get('/serializer', async (_q: any, r: any) => { r.serializer((p: unknown) => 'custom:' + JSON.stringify(p)); return { a: 1 } })
  get('/compile-serialization', async (_q: any, r: any) => r.compileSerializationSchema({ type: 'object', properties: { a: { type: 'string' } } })({ a: 1, b: 2 }))
  get('/compile-validation', async (q: any) => { const v = q.compileValidationSchema({ type: 'object', required: ['x'] }); return { ok: v({}), errors: v.errors } })
  get('/validate-input', async (q: any) => ({ ok: q.validateInput({ a: 'x' }, { type: 'object', properties: { a: { type: 'integer' } } }) }))
  get('/status', async (_q: any, r: any) => { r.status(201); return { code: r.statusCode } })
  get('/raw-status', async (_q: any, r: any) => { r.raw.statusCode = 202; return 'raw' })
  get('/redirect-relative', async (_q: any, r: any) => r.redirect('../up'))
  get('/call-not-found', async (_q: any, r: any) => r.callNotFound())
  get('/trailer', async (_q: any, r: any) => { r.trailer('x-t', async () => 'tv'); return 'with trailer' })
  get('/hijack-then-return', async (_q: any, r: any) => { r.hijack(); r.raw.end('raw end'); return 'ignored' })
  get('/send-error', async (_q: any, r: any) => r.code(400).send(new Error('as payload')))
  get('/error-through-schema', async () => { throw Object.assign(new DetailedError('conflict'), { statusCode: 409, code: 'E_CONFLICT', extra: 'x' }) }, { schema: errorSchema })
  get('/sent-error-through-schema', async (_q: any, r: any) => r.code(400).send(new Error('sent')), { schema: errorSchema })
  get('/error-with-validation', async () => { throw Object.assign(new Error('v'), { statusCode: 422, validation: [{ m: 1 }] }) })
  await app.ready()
  const out: string[] = []
  for (const url of ['/headers', '/remove-header', '/header-values', '/type-charset', '/type-vendor-json', '/type-text-object', '/type-json-string', '/serialize',
    '/serializer', '/compile-serialization', '/compile-validation', '/validate-input', '/status', '/raw-status', '/redirect-relative', '/call-not-found',
    '/trailer', '/hijack-then-return', '/send-error', '/error-through-schema', '/sent-error-through-schema', '/error-with-validation']) {
    const res = await app.inject(url)
    const headers: Record<string, unknown> = {}
    for (const name of [...keptHeaders, 'set-cookie', 'x-upper', 'x-num', 'x-bool', 'x-undef', 'trailer']) if (res.headers[name] !== undefined) headers[name] = res.headers[name]
    out.push(`${url} → ${res.statusCode} ${JSON.stringify(headers)} ${res.payload} ${JSON.stringify(res.trailers ?? {})}`)
  }
  await app.close()
  return out
}

test('the reply API answers the same on Enclave and fastify@4', async () => {
  await assertSameAnswers(replyAnswers, 22)
})
