/**
 * Route schemas as applications write them: fluent-json-schema builders, `query`, the shorthand, `content` maps,
 * and what the route's options hold once the app is ready (plugins such as @fastify/swagger read them).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import S from 'fluent-json-schema'
import { enclave } from '../helpers'

function badRequest (message: string) {
  return { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message }
}

test('fluent-json-schema: addSchema, every request part and a response schema take the builders as they are', async () => {
  const app = enclave()
  app.addSchema(S.object().id('address').prop('city', S.string().required()).prop('zip', S.string()))
  app.post('/users/:id', {
    schema: {
      params: S.object().prop('id', S.integer()),
      querystring: S.object().prop('notify', S.boolean()),
      headers: S.object().prop('x-token', S.string().required()),
      body: S.object()
        .title('User')
        .prop('name', S.string().minLength(2).required())
        .prop('address', S.ref('address#')),
      response: {
        200: S.object().prop('id', S.integer()).prop('notify', S.boolean()).prop('name', S.string()).prop('address', S.ref('address#'))
      }
    }
  }, async (req: any) => ({ id: req.params.id, notify: req.query.notify, ...req.body, secret: 'never sent' }))

  const ok = await app.inject({
    method: 'POST',
    url: '/users/7?notify=true',
    headers: { 'x-token': 't' },
    payload: { name: 'Ada', address: { city: 'London', zip: 'N1', planet: 'Earth' } }
  })
  assert.equal(ok.statusCode, 200)
  assert.equal(ok.body, '{"id":7,"notify":true,"name":"Ada","address":{"city":"London","zip":"N1"}}')

  const missingCity = await app.inject({ method: 'POST', url: '/users/7', headers: { 'x-token': 't' }, payload: { name: 'Ada', address: {} } })
  assert.deepEqual(missingCity.json(), badRequest("body/address must have required property 'city'"))
  const noToken = await app.inject({ method: 'POST', url: '/users/7', payload: { name: 'Ada' } })
  assert.deepEqual(noToken.json(), badRequest("headers must have required property 'x-token'"))
  assert.deepEqual(app.getSchema('address'), S.object().id('address').prop('city', S.string().required()).prop('zip', S.string()).valueOf())
})

test('fluent-json-schema: two route schemas derived from one builder (same $id) each validate their own way', async () => {
  const app = enclave()
  const User = S.object().id('http://example.com/user').title('User').prop('name', S.string().minLength(2)).prop('bio', S.string())
  app.post('/user', { schema: { body: User.only(['name', 'bio']).required(['name']) } }, async () => 'created')
  app.patch('/user', { schema: { body: User.only(['bio']) } }, async () => 'patched')
  const created = await app.inject({ method: 'POST', url: '/user', payload: {} })
  assert.deepEqual(created.json(), badRequest("body must have required property 'name'"))
  const patched = await app.inject({ method: 'PATCH', url: '/user', payload: {} })
  assert.deepEqual([patched.statusCode, patched.body], [200, 'patched'])
})

test('fluent-json-schema: a builder in a response content map (Enclave unwraps it there too; Fastify only whole parts and statuses)', async () => {
  const app = enclave()
  app.get('/', {
    schema: { response: { 200: { content: { 'application/json': { schema: S.object().prop('a', S.integer()) } } } } }
  }, async () => ({ a: 1, b: 2 }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.body, '{"a":1}')
})

test('query and querystring on one route fail ready() with FST_ERR_SCH_DUPLICATE', async () => {
  const app = enclave()
  app.get('/', { schema: { query: { type: 'object' }, querystring: { type: 'object' } } }, async () => 'never')
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_DUPLICATE')
    assert.equal(err.message, "Schema with 'querystring' already present!")
    assert.equal(err.statusCode, 500)
    return true
  })
})

test('normalized schemas are written back into the route options: query copied, shorthand expanded, builders unwrapped', async () => {
  const app = enclave()
  const seen: any[] = []
  app.addHook('onRoute', (routeOptions: any) => { seen.push(routeOptions) })
  const query = { type: 'object', properties: { q: { type: 'string' } } }
  app.get('/', {
    schema: {
      query,
      headers: S.object().prop('x-a', S.string()),
      response: { 200: { ok: { type: 'boolean' } }, '4xx': { content: { 'application/json': { schema: { message: { type: 'string' } } } } } }
    }
  }, async (req: any) => ({ ok: req.routeOptions.schema.querystring === query }))
  await app.ready()
  const schema = seen[0].schema
  assert.equal(schema.querystring, query)
  assert.equal(schema.query, query)
  assert.deepEqual(schema.headers, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { 'x-a': { type: 'string' } } })
  assert.deepEqual(schema.response[200], { type: 'object', properties: { ok: { type: 'boolean' } } })
  assert.deepEqual(schema.response['4xx'].content['application/json'].schema, { type: 'object', properties: { message: { type: 'string' } } })
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.body, '{"ok":true}')
})

test('a content map entry without a schema fails ready() with FST_ERR_SCH_CONTENT_MISSING_SCHEMA', async () => {
  for (const schema of [
    { body: { content: { 'application/json': {} } } },
    { response: { 200: { content: { 'application/json': { schema: { type: 'object' } }, 'text/csv': { example: 'a,b' } } } } }
  ]) {
    const app = enclave()
    app.post('/', { schema }, async () => 'never')
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA')
      assert.match(err.message, /^Schema is missing for the content type '(application\/json|text\/csv)'$/)
      return true
    })
  }
})

test('a schema part given as undefined emits Fastify\'s FSTWRN001 warning for each such part', async () => {
  const warnings: string[] = []
  const onWarning = (warning: any): void => { if (warning.code === 'FSTWRN001') warnings.push(`${String(warning.name)}: ${String(warning.message)}`) }
  process.on('warning', onWarning)
  try {
    const app = enclave()
    app.post('/:id', { schema: { body: undefined, params: undefined } }, async () => 'ok')
    const res = await app.inject({ method: 'POST', url: '/1' })
    assert.equal(res.statusCode, 200)
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  assert.deepEqual(warnings, [
    'FastifyWarning: The body schema for POST: /:id is missing. This may indicate the schema is not well specified.',
    'FastifyWarning: The params schema for POST: /:id is missing. This may indicate the schema is not well specified.'
  ])
})

test('a frozen route schema that needs no normalization compiles as it is (only changed values are written back)', async () => {
  const deepFreeze = (value: any): any => {
    for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') deepFreeze(inner)
    return Object.freeze(value)
  }
  const app = enclave()
  const integer = { type: 'object', properties: { a: { type: 'integer' } } }
  app.get('/', { schema: deepFreeze({ querystring: integer, response: { 200: integer } }) }, async (req: any) => ({ a: req.query.a, b: 2 }))
  const res = await app.inject('/?a=1')
  assert.deepEqual([res.statusCode, res.body], [200, '{"a":1}'])
})
