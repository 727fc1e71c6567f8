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
    return () => contentType
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
  assert.deepEqual(seen.slice(0, 2), ['2xx application/json', '2xx application/vnd.v1+json'])
})
