import { test } from 'node:test'
import assert from 'node:assert/strict'
import formbody from '@fastify/formbody'
import enclave from '../../src/index'

const form = { 'content-type': 'application/x-www-form-urlencoded' }

async function build (opts: Record<string, unknown> = {}): Promise<any> {
  const app: any = enclave()
  app.register(formbody, opts)
  app.post('/users', {
    schema: {
      body: {
        type: 'object',
        required: ['name', 'age'],
        properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } }
      }
    }
  }, async (request: any) => request.body)
  app.post('/raw', async (request: any) => ({ body: request.body }))
  await app.ready()
  return app
}

test('formbody: urlencoded bodies are parsed and coerced by the body schema', async () => {
  const app = await build()
  const res = await app.inject({ method: 'POST', url: '/users', headers: form, payload: 'name=Ada+Lovelace&age=36&tags=math&tags=poetry' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { name: 'Ada Lovelace', age: 36, tags: ['math', 'poetry'] })

  const single = await app.inject({ method: 'POST', url: '/users', headers: form, payload: 'name=Al&age=7&tags=solo' })
  assert.deepEqual(single.json(), { name: 'Al', age: 7, tags: ['solo'] })

  const encoded = await app.inject({ method: 'POST', url: '/raw', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, payload: 'city=S%C3%A3o%20Paulo&empty=' })
  assert.equal(encoded.statusCode, 200)
  assert.deepEqual(encoded.json(), { body: { city: 'São Paulo', empty: '' } })
  await app.close()
})

test('formbody: an invalid urlencoded body fails the route schema with 400', async () => {
  const app = await build()
  const missing = await app.inject({ method: 'POST', url: '/users', headers: form, payload: 'name=Ada' })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "body must have required property 'age'" })

  const notInteger = await app.inject({ method: 'POST', url: '/users', headers: form, payload: 'name=Ada&age=old' })
  assert.equal(notInteger.statusCode, 400)
  assert.deepEqual(notInteger.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/age must be integer' })
  await app.close()
})

test('formbody: bodyLimit applies to urlencoded bodies (413)', async () => {
  const app = await build({ bodyLimit: 10 })
  const res = await app.inject({ method: 'POST', url: '/raw', headers: form, payload: 'name=' + 'x'.repeat(50) })
  assert.equal(res.statusCode, 413)
  assert.deepEqual(res.json(), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large', message: 'Request body is too large' })
  await app.close()
})

test('formbody: the parser is encapsulated in the context that registers it; a custom parser is used', async () => {
  const app: any = enclave()
  app.register(async (child: any) => {
    child.register(formbody, { parser: (body: string) => ({ raw: body }) })
    child.post('/inside', async (request: any) => request.body)
  })
  app.post('/outside', async (request: any) => request.body)
  const inside = await app.inject({ method: 'POST', url: '/inside', headers: form, payload: 'a=1&b=2' })
  assert.equal(inside.statusCode, 200)
  assert.deepEqual(inside.json(), { raw: 'a=1&b=2' })
  const outside = await app.inject({ method: 'POST', url: '/outside', headers: form, payload: 'a=1' })
  assert.equal(outside.statusCode, 415)
  assert.deepEqual(outside.json(), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: 'Unsupported Media Type: application/x-www-form-urlencoded' })
  await app.close()
})
