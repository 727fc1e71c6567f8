import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import enclave5 from '../../src/fastify5'

// JSON Schema shorthand differs between the levels (the level policy's `schemaShorthand`): Fastify 4 expands it,
// Fastify 5 removed it and its `jsonShorthand` option, so a shorthand schema meets Ajv's strict mode.
const factories = { 4: enclave, 5: enclave5 } as Record<4 | 5, (options?: object) => any>

const shorthandParts: Array<[string, string, object]> = [
  ['GET', 'querystring', { querystring: { count: { type: 'integer' } } }],
  ['POST', 'body', { body: { count: { type: 'integer' } } }],
  ['GET', 'params', { params: { count: { type: 'integer' } } }],
  ['GET', 'headers', { headers: { count: { type: 'integer' } } }]
]

test('Fastify 4 level: a shorthand part schema is expanded to an object schema', async () => {
  for (const [method, part, schema] of shorthandParts) {
    const app = factories[4]()
    app.route({ method, url: '/:count', schema: structuredClone(schema), handler: async () => 'ok' })
    const res = await app.inject({ method, url: '/x?count=x', headers: { count: 'x' }, payload: method === 'POST' ? { count: 'x' } : undefined })
    assert.equal(res.statusCode, 400, part)
    assert.equal(res.json().message, `${part}/count must be integer`)
  }
})

test('Fastify 5 level: a shorthand part schema fails ready() with Ajv\'s strict mode, whatever jsonShorthand says', async () => {
  for (const options of [{}, { jsonShorthand: true }]) {
    for (const [method, part, schema] of shorthandParts) {
      const app = factories[5](options)
      app.route({ method, url: '/:count', schema: structuredClone(schema), handler: async () => 'ok' })
      await assert.rejects(app.ready(), (err: any) => {
        assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
        assert.equal(err.statusCode, 500)
        assert.equal(err.message, `Failed building the validation schema for ${method}: /:count, due to error strict mode: unknown keyword: "count"`, part)
        return true
      })
    }
  }
})

test('both levels: a full JSON Schema validates the same way', async () => {
  for (const level of [4, 5] as const) {
    const app = factories[level]()
    app.get('/', {
      schema: { querystring: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } }
    }, async (request: any) => request.query)
    assert.deepEqual((await app.inject({ method: 'GET', url: '/?count=3' })).json(), { count: 3 })
    const bad = await app.inject({ method: 'GET', url: '/?count=x' })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'querystring/count must be integer')
  }
})

test('a shorthand response schema filters the payload at the Fastify 4 level only', async () => {
  const bodies: Record<number, string> = {}
  for (const level of [4, 5] as const) {
    const app = factories[level]()
    app.get('/', { schema: { response: { 200: { id: { type: 'integer' } } } } }, async () => ({ id: 1, secret: 's' }))
    bodies[level] = (await app.inject({ method: 'GET', url: '/' })).body
  }
  // at the Fastify 5 level the object is a schema without a type: the payload is serialized as it is
  assert.deepEqual(bodies, { 4: '{"id":1}', 5: '{"id":1,"secret":"s"}' })
})

test('a response content of one entry without schema: a property at the Fastify 4 level, an error at the Fastify 5 level', async () => {
  const schema = { response: { 200: { content: { type: 'string' } } } }
  const app4 = factories[4]()
  app4.get('/', { schema: structuredClone(schema) }, async () => ({ content: 'text', other: 1 }))
  const res = await app4.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"content":"text"}')

  const app5 = factories[5]()
  app5.get('/', { schema: structuredClone(schema) }, async () => ({ content: 'text' }))
  await assert.rejects(app5.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA')
    assert.equal(err.message, "Schema is missing for the content type 'type'")
    return true
  })
})

test('Fastify 4 level: jsonShorthand: false compiles schemas as written', async () => {
  const app = factories[4]({ jsonShorthand: false })
  app.get('/', { schema: { querystring: { count: { type: 'integer' } } } }, async () => 'ok')
  await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
})
