/**
 * The HTTP-method API (Fastify 5's `addHttpMethod`, `supportedMethods`, QUERY), at both levels, and the methods
 * each level has on by default with their body rules (src/core/api-level.ts).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

function warningsOf (code: string): { list: Array<{ name: string, message: string }>, stop: () => void } {
  const list: Array<{ name: string, message: string }> = []
  const listener = (warning: any): void => { if (warning.code === code) list.push({ name: warning.name, message: warning.message }) }
  process.on('warning', listener)
  return { list, stop: () => process.off('warning', listener) }
}

test('each level lists its default methods, those without a body first', () => {
  assert.deepEqual(enclave5().supportedMethods, ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'])
  assert.deepEqual(enclave().supportedMethods, ['GET', 'HEAD', 'DELETE', 'PATCH', 'POST', 'PUT', 'OPTIONS', 'PROPFIND', 'PROPPATCH',
    'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'TRACE', 'SEARCH', 'REPORT', 'MKCALENDAR'])
})

test('supportedMethods is a copy: changing it changes nothing', () => {
  const app = enclave5()
  app.supportedMethods.push('REBIND')
  assert.equal(app.supportedMethods.includes('REBIND'), false)
})

test('Fastify 5 level: the WebDAV methods are off until added; QUERY and TRACE have shorthands', () => {
  const app = enclave5()
  assert.throws(() => app.route({ method: 'PROPFIND', url: '/', handler: () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', message: 'PROPFIND method is not supported.' })
  assert.equal(typeof app.query, 'function')
  assert.equal(typeof app.trace, 'function')
  assert.equal(app.hasDecorator('query'), true)
  assert.throws(() => app.decorate('query', 1), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
})

test('Fastify 4 level: the WebDAV methods are on; QUERY is off and `query` / `trace` are free decorator names', async () => {
  const app = enclave()
  app.route({ method: 'PROPFIND', url: '/', handler: () => 'found' })
  assert.throws(() => app.route({ method: 'QUERY', url: '/q', handler: () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' })
  assert.equal(app.query, undefined)
  app.decorate('query', 'mine')
  app.decorate('trace', 'mine too')
  const res = await app.inject({ method: 'PROPFIND', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'found')
})

test('addHttpMethod adds a method with its shorthand, at both levels', async () => {
  for (const factory of [enclave, enclave5]) {
    const app = factory()
    assert.equal(app.rebind, undefined)
    assert.equal(app.addHttpMethod('REBIND'), app)
    assert.equal(app.supportedMethods.includes('REBIND'), true)
    app.rebind('/r', async (req: any) => `${req.method} ${String(req.body)}`)
    const res = await app.inject({ method: 'REBIND', url: '/r', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' })
    assert.equal(res.statusCode, 200)
    // added without a body: the request is not read for one
    assert.equal(res.body, 'REBIND undefined')
  }
})

test('a method added without a body refuses a body schema; with hasBody its requests are parsed', async () => {
  const app = enclave5()
  app.addHttpMethod('REBIND')
  assert.throws(() => app.route({ method: 'REBIND', url: '/', schema: { body: { type: 'object' } }, handler: () => 'x' }),
    { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', message: 'Body validation schema for REBIND:/ route is not supported!' })
  app.addHttpMethod('MKCOL', { hasBody: true })
  app.mkcol('/', { schema: { body: { type: 'object', required: ['name'] } } }, async (req: any) => req.body)
  const ok = await app.inject({ method: 'MKCOL', url: '/', payload: { name: 'dir' } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { name: 'dir' })
  const bad = await app.inject({ method: 'MKCOL', url: '/', payload: {} })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().code, 'FST_ERR_VALIDATION')
})

test('addHttpMethod refuses what Node\'s HTTP parser does not know, case included', () => {
  const app = enclave5()
  for (const method of ['FOOO', 'rebind', 42, undefined]) {
    assert.throws(() => app.addHttpMethod(method), { code: 'FST_ERR_ROUTE_METHOD_INVALID', message: 'Provided method is invalid!' })
  }
})

test('addHttpMethod on an existing method warns FSTDEP025, unless overrideExisting says it is meant', async () => {
  const warnings = warningsOf('FSTDEP025')
  try {
    const app = enclave5()
    app.addHttpMethod('GET', { hasBody: true })
    app.addHttpMethod('POST', { overrideExisting: true })
    // warnings are emitted on the next tick
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings.list, [{
      name: 'FastifyDeprecation',
      message: 'Calling addHttpMethod for existing method "GET" without { overrideExisting: true } is deprecated. In Fastify v6, this will throw an error.'
    }])
  } finally {
    warnings.stop()
  }
})

test('overriding GET with hasBody lets a GET route validate and read a body', async () => {
  const app = enclave5()
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true })
  assert.deepEqual(app.supportedMethods.slice(0, 2), ['HEAD', 'TRACE'])
  app.get('/', { exposeHeadRoute: false, schema: { body: { type: 'object' } } }, async (req: any) => req.body)
  const res = await app.inject({ method: 'GET', url: '/', payload: { hello: 'world' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { hello: 'world' })
})

test('all() registers every method supported when it is called, added ones included', async () => {
  const app = enclave5()
  app.addHttpMethod('PURGE')
  app.all('/', async (req: any) => req.method)
  for (const method of app.supportedMethods) {
    const res = await app.inject({ method, url: '/', headers: method === 'QUERY' ? { 'content-type': 'text/plain' } : {} })
    assert.equal(res.statusCode, 200, method)
    if (method !== 'HEAD') assert.equal(res.body, method)
  }
})

test('QUERY (RFC 10008): its body is parsed; a request without a Content-Type is 400 FST_ERR_ROUTE_MISSING_CONTENT_TYPE', async () => {
  const app = enclave5()
  app.query('/search', async (req: any) => ({ got: req.body }))
  const ok = await app.inject({ method: 'QUERY', url: '/search', headers: { 'content-type': 'application/json' }, payload: '{"q":"x"}' })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { got: { q: 'x' } })
  const empty = await app.inject({ method: 'QUERY', url: '/search', headers: { 'content-type': 'text/plain' } })
  assert.equal(empty.statusCode, 200)
  assert.deepEqual(empty.json(), { got: '' })
  const untyped = await app.inject({ method: 'QUERY', url: '/search', payload: '{"q":"x"}' })
  assert.equal(untyped.statusCode, 400)
  assert.deepEqual(untyped.json(), {
    statusCode: 400,
    code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE',
    error: 'Bad Request',
    message: "Method 'QUERY' must provide a 'Content-Type' header."
  })
  const unknownType = await app.inject({ method: 'QUERY', url: '/search', headers: { 'content-type': 'application/ld+json' }, payload: '{}' })
  assert.equal(unknownType.statusCode, 415)
  assert.equal(unknownType.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
})

test('QUERY added at the Fastify 4 level keeps its Content-Type requirement', async () => {
  const app = enclave()
  app.addHttpMethod('QUERY', { hasBody: true })
  app.query('/', async (req: any) => req.body)
  const res = await app.inject({ method: 'QUERY', url: '/', payload: 'x' })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().code, 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE')
})

test('body rules per level: Fastify 4 reads an untyped DELETE body never, Fastify 5 as for POST; TRACE has none at 5', async () => {
  const handler = async (req: any) => ({ body: req.body ?? null })
  const v4 = enclave()
  v4.delete('/', handler)
  const v4Res = await v4.inject({ method: 'DELETE', url: '/', payload: 'text', headers: { 'content-type': undefined } })
  assert.deepEqual(v4Res.json(), { body: null })
  const v5 = enclave5()
  v5.delete('/', handler)
  assert.throws(() => v5.trace('/t', { schema: { body: { type: 'object' } } }, handler), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
  const v5Res = await v5.inject({ method: 'DELETE', url: '/', payload: 'text', headers: { 'content-type': undefined } })
  // a body without a Content-Type goes to the '' parser, which there is none of
  assert.equal(v5Res.statusCode, 415)
})

test('a method Node knows but the application does not reaches the not-found handler of its URL', async (t) => {
  const app = enclave5()
  app.setNotFoundHandler((_req: any, reply: any) => reply.code(404).send('root not found'))
  app.register(async (child: any) => {
    child.setNotFoundHandler((_req: any, reply: any) => reply.code(404).send('api not found'))
  }, { prefix: '/api' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  const { port } = app.server.address()
  for (const [path, expected] of [['/x', 'root not found'], ['/api/x', 'api not found']]) {
    const { status, body } = await new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', method: 'PROPFIND', path }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { body += chunk })
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      req.end()
    })
    assert.equal(status, 404)
    assert.equal(body, expected)
  }
})
