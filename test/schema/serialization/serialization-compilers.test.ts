import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../../helpers'

test('setSerializerCompiler is encapsulated; the route option serializerCompiler wins; httpStatus is the key', async () => {
  const app = enclave()
  const seen: Array<{ method: unknown, url: string, httpStatus: string, schema: unknown }> = []
  const schema = { response: { '2xx': { type: 'object', properties: { a: { type: 'string' } } }, default: { type: 'object' } } }
  app.register(async (child: any) => {
    child.setSerializerCompiler(({ schema, method, url, httpStatus }: any) => {
      seen.push({ method, url, httpStatus, schema })
      return (data: unknown) => `compiled ${httpStatus} ${JSON.stringify(data)}`
    })
    child.get('/child', { schema }, async () => ({ a: 'a', b: 'b' }))
    child.get('/route', {
      schema,
      serializerCompiler: ({ httpStatus }: any) => () => `route ${httpStatus}`
    }, async (req: any, reply: any) => reply.code(500).send({ a: 'a' }))
    child.register(async (grandchild: any) => {
      grandchild.get('/grandchild', { schema }, async (req: any, reply: any) => reply.code(404).send({ a: 'a' }))
    })
  }, { prefix: '/p' })
  app.get('/root', { schema }, async () => ({ a: 'a', b: 'b' }))
  await app.ready()

  // GET routes only: the HEAD routes created by exposeHeadRoutes compile their own serializers
  assert.deepEqual(seen.filter(s => s.method === 'GET').map(s => `${s.method} ${s.url} ${s.httpStatus}`).sort(), [
    'GET /p/child 2xx', 'GET /p/child default', 'GET /p/grandchild 2xx', 'GET /p/grandchild default'
  ])
  assert.deepEqual(seen.find(s => s.httpStatus === '2xx')!.schema, schema.response['2xx'])
  const cases: Array<[string, number, string]> = [
    ['/p/child', 200, 'compiled 2xx {"a":"a","b":"b"}'],
    ['/p/route', 500, 'route default'],
    ['/p/grandchild', 404, 'compiled default {"a":"a"}'],
    ['/root', 200, '{"a":"a"}']
  ]
  for (const [url, status, body] of cases) {
    const res = await app.inject({ method: 'GET', url })
    assert.equal(res.statusCode, status, url)
    assert.equal(res.body, body, url)
  }
})

test('serializer setters validate their argument and refuse after start', async () => {
  const app = enclave()
  assert.throws(() => app.setSerializerCompiler('nope' as any), (err: any) => err.code === 'FST_ERR_SERIALIZER_NOT_FN' && err instanceof TypeError)
  assert.throws(() => app.setReplySerializer(null as any), (err: any) => err.code === 'FST_ERR_SERIALIZER_NOT_FN' && err instanceof TypeError)
  assert.equal(app.setReplySerializer((p: unknown) => JSON.stringify(p)), app)
  await app.ready()
  assert.throws(() => app.setSerializerCompiler(() => () => ''), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
  assert.throws(() => app.setReplySerializer(() => ''), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
})

test('schemaController.compilersFactory.buildSerializer gets the shared schemas and serializerOpts, once per schema set', async () => {
  const calls: Array<{ ids: string[], opts: unknown }> = []
  const serializerOpts = { rounding: 'ceil' }
  const app = enclave({
    serializerOpts,
    schemaController: {
      compilersFactory: {
        buildSerializer (externalSchemas: Record<string, unknown>, opts: unknown) {
          calls.push({ ids: Object.keys(externalSchemas), opts })
          return ({ httpStatus }: any) => (data: unknown) => `factory ${httpStatus} ${JSON.stringify(data)}`
        }
      }
    }
  })
  app.addSchema({ $id: 'shared', type: 'string' })
  const schema = { response: { 200: { type: 'object', properties: { a: { $ref: 'shared#' } } } } }
  app.get('/a', { schema }, async () => ({ a: 1 }))
  app.get('/b', { schema }, async () => ({ b: 2 }))
  await app.ready()
  assert.deepEqual(calls, [{ ids: ['shared'], opts: serializerOpts }])
  const res = await app.inject({ method: 'GET', url: '/b' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'factory 200 {"b":2}')
})

test('serializerOpts reach fast-json-stringify', async () => {
  const app = enclave({ serializerOpts: { rounding: 'ceil' } })
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async () => ({ n: 1.2 }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"n":2}')
})

test('the content form passes contentType to the serializer compiler', async () => {
  const app = enclave()
  const seen: string[] = []
  app.setSerializerCompiler(({ httpStatus, contentType }: any) => {
    seen.push(`${httpStatus} ${contentType}`)
    return () => contentType.toLowerCase()
  })
  app.get('/', {
    schema: {
      response: {
        '2xx': {
          content: {
            'application/json': { schema: { type: 'object' } },
            'Application/Vnd.V1+JSON': { schema: { type: 'object' } }
          }
        }
      }
    }
  }, async (req: any, reply: any) => reply.type('application/vnd.v1+json; charset=utf-8').send({ a: 1 }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'application/vnd.v1+json')
  // the media type as written in the schema, as Fastify passes it
  assert.deepEqual(seen.slice(0, 2), ['2xx application/json', '2xx Application/Vnd.V1+JSON'])
})

test('a serializer that fails gives the error handler an error marked with serialization: the route\'s url, method and config', async () => {
  const app = enclave()
  const seen: any[] = []
  app.setErrorHandler((err: any, _req: any, reply: any) => {
    seen.push(err.serialization)
    reply.code(500).send({ failed: err.message })
  })
  const schema = { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } }
  app.get('/schema', { schema, config: { team: 'api' } }, async () => ({ n: 'not a number' }))
  app.get('/compiler', { schema, serializerCompiler: () => () => { throw new Error('compiled serializer broke') } }, async () => ({ n: 1 }))
  app.get('/reply', async (_req: any, reply: any) => reply.serializer(() => { throw new Error('reply serializer broke') }).send({ n: 1 }))
  const schemaRes = await app.inject('/schema')
  assert.deepEqual([schemaRes.statusCode, schemaRes.json()], [500, { failed: 'The value "not a number" cannot be converted to an integer.' }])
  const compilerRes = await app.inject('/compiler')
  assert.deepEqual(compilerRes.json(), { failed: 'compiled serializer broke' })
  await app.inject('/reply')
  assert.deepEqual(seen.slice(0, 3), [
    { team: 'api', url: '/schema', method: 'GET' },
    { url: '/compiler', method: 'GET' },
    { url: '/reply', method: 'GET' }
  ])
})

test('a status schema whose serializer returns no text answers the error 500, never a crash or a hung request', async (t) => {
  const app = enclave()
  const response = { '5xx': { type: 'object', properties: { message: { type: 'string' } } } }
  app.get('/number', { schema: { response }, serializerCompiler: () => () => 42 }, async () => { throw new Error('boom') })
  app.get('/object', { schema: { response }, serializerCompiler: () => () => ({ not: 'text' }) }, async () => { throw new Error('boom') })
  await app.listen({ port: 0 })
  t.after(() => app.close())
  for (const [url, type] of [['/number', 'number'], ['/object', 'object']]) {
    const res = await fetch(`http://127.0.0.1:${app.server.address().port}${url}`)
    assert.equal(res.status, 500, url)
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
    // Fastify's body for this case
    assert.deepEqual(await res.json(), {
      statusCode: 500,
      code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE',
      message: `Attempted to send payload of invalid type '${type}'. Expected a string or Buffer.`
    })
  }
})

test('a serializer compiler that returns no function is accepted at ready; what it should serialize answers 500', async () => {
  const app = enclave()
  const schema = { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } }
  app.get('/object', { schema, serializerCompiler: () => undefined }, async () => ({ a: 'a', secret: 's' }))
  app.get('/text', { schema, serializerCompiler: () => undefined }, async (_req: any, reply: any) => reply.type('text/plain').send('plain text'))
  await app.ready()
  assert.equal(app.serializerCompiler, undefined)
  const object = await app.inject('/object')
  assert.equal(object.statusCode, 500)
  assert.deepEqual(object.json(), {
    statusCode: 500,
    code: 'FST_ERR_SCH_SERIALIZER_NOT_FN',
    error: 'Internal Server Error',
    message: 'The serializer compiler returned undefined instead of a function for the 200 response schema of GET /object'
  })
  const text = await app.inject('/text')
  assert.deepEqual([text.statusCode, text.body], [200, 'plain text'])
})
