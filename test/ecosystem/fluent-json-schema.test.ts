import { test } from 'node:test'
import assert from 'node:assert/strict'
import S from 'fluent-json-schema'
import enclave from '../../src/index'

test('fluent-json-schema: a body built with S validates requests with Fastify\'s messages', async () => {
  const app: any = enclave()
  const body = S.object()
    .prop('name', S.string().minLength(2)).required()
    .prop('age', S.integer().minimum(0))
  app.post('/people', { schema: { body } }, async (request: any) => request.body)

  const ok = await app.inject({ method: 'POST', url: '/people', payload: { name: 'Ada', age: '36' } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { name: 'Ada', age: 36 })

  const missing = await app.inject({ method: 'POST', url: '/people', payload: { age: 1 } })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body must have required property \'name\'' })

  const short = await app.inject({ method: 'POST', url: '/people', payload: { name: 'A' } })
  assert.equal(short.statusCode, 400)
  assert.equal(short.json().message, 'body/name must NOT have fewer than 2 characters')
  await app.close()
})

test('fluent-json-schema: a response schema built with S filters and coerces what is sent', async () => {
  const app: any = enclave()
  const response = { 200: S.object().prop('id', S.integer()).prop('name', S.string()) }
  app.get('/user', { schema: { response } }, async () => ({ id: '7', name: 'Ada', passwordHash: 'secret' }))
  const res = await app.inject('/user')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"id":7,"name":"Ada"}')
  await app.close()
})

test('fluent-json-schema: addSchema takes an S schema with an id, which routes reference with S.ref or $ref', async () => {
  const app: any = enclave()
  app.addSchema(S.object().id('address').prop('city', S.string()).required(['city']))
  app.post('/ship', {
    schema: {
      body: S.object().prop('to', S.ref('address#')).required(['to']),
      response: { 200: { type: 'object', properties: { to: { $ref: 'address#' } } } }
    }
  }, async (request: any) => ({ to: { ...request.body.to, internal: true } }))

  assert.deepEqual(app.getSchema('address'), { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', $id: 'address', properties: { city: { type: 'string' } }, required: ['city'] })
  const ok = await app.inject({ method: 'POST', url: '/ship', payload: { to: { city: 'Turin' } } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { to: { city: 'Turin' } })
  const bad = await app.inject({ method: 'POST', url: '/ship', payload: { to: {} } })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().message, 'body/to must have required property \'city\'')
  await app.close()
})

test('fluent-json-schema: querystring and params schemas coerce and apply defaults', async () => {
  const app: any = enclave()
  app.get('/items/:id', {
    schema: {
      params: S.object().prop('id', S.integer()),
      querystring: S.object().prop('limit', S.integer().minimum(1).default(10)).prop('tags', S.array().items(S.string()))
    }
  }, async (request: any) => ({ id: request.params.id, query: request.query }))
  const defaults = await app.inject('/items/5')
  assert.deepEqual(defaults.json(), { id: 5, query: { limit: 10 } })
  const given = await app.inject('/items/6?limit=3&tags=a')
  assert.deepEqual(given.json(), { id: 6, query: { limit: 3, tags: ['a'] } })
  const bad = await app.inject('/items/x')
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().message, 'params/id must be integer')
  const low = await app.inject('/items/1?limit=0')
  assert.equal(low.statusCode, 400)
  assert.equal(low.json().message, 'querystring/limit must be >= 1')
  await app.close()
})
