import { test } from 'node:test'
import assert from 'node:assert/strict'
import swagger from '@fastify/swagger'
import enclave from '../../src/index'

async function build (): Promise<any> {
  const app: any = enclave()
  await app.register(swagger, {
    openapi: { info: { title: 'Enclave API', version: '1.2.3' } },
    refResolver: { buildLocalReference: (json: any, _baseUri: any, _fragment: any, i: number) => json.$id || `def-${i}` }
  })
  app.addSchema({ $id: 'User', type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } })
  app.get('/users/:id', {
    schema: {
      summary: 'Get a user',
      tags: ['users'],
      params: { type: 'object', properties: { id: { type: 'integer', description: 'user id' } } },
      response: { 200: { $ref: 'User#' } }
    }
  }, async (request: any) => ({ id: request.params.id, name: 'Ada' }))
  app.register(async (child: any) => {
    child.post('/users', {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        querystring: { type: 'object', properties: { dryRun: { type: 'boolean' } } },
        response: { 201: { $ref: 'User#' } }
      }
    }, async (_request: any, reply: any) => { reply.code(201); return { id: 1, name: 'Ada' } })
    child.get('/internal', { schema: { hide: true } }, async () => ({ internal: true }))
  }, { prefix: '/v1' })
  await app.ready()
  return app
}

test('swagger: app.swagger() builds an OpenAPI document from the routes and shared schemas', async () => {
  const app = await build()
  const doc = JSON.parse(JSON.stringify(app.swagger()))
  assert.equal(doc.openapi, '3.0.3')
  assert.deepEqual(doc.info, { title: 'Enclave API', version: '1.2.3' })
  assert.deepEqual(doc.components.schemas.User, {
    type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } }
  })
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/users/{id}', '/v1/users'])

  const getUser = doc.paths['/users/{id}'].get
  assert.equal(getUser.summary, 'Get a user')
  assert.deepEqual(getUser.tags, ['users'])
  assert.deepEqual(getUser.parameters, [{ schema: { type: 'integer' }, in: 'path', name: 'id', required: true, description: 'user id' }])
  assert.deepEqual(getUser.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/User' })
  assert.equal(doc.paths['/users/{id}'].head, undefined)

  const createUser = doc.paths['/v1/users'].post
  assert.deepEqual(createUser.requestBody, {
    content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
    required: true
  })
  assert.deepEqual(createUser.parameters, [{ schema: { type: 'boolean' }, in: 'query', name: 'dryRun', required: false }])
  assert.deepEqual(createUser.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/User' })
  await app.close()
})

test('swagger: the documented routes still validate and serialize with the shared schema', async () => {
  const app = await build()
  const user = await app.inject({ url: '/users/7' })
  assert.equal(user.statusCode, 200)
  assert.deepEqual(user.json(), { id: 7, name: 'Ada' })
  const hidden = await app.inject({ url: '/v1/internal' })
  assert.equal(hidden.statusCode, 200)
  assert.deepEqual(hidden.json(), { internal: true })
  const bad = await app.inject({ method: 'POST', url: '/v1/users', payload: {} })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().message, "body must have required property 'name'")
  const yaml = app.swagger({ yaml: true })
  assert.match(yaml, /^openapi: 3\.0\.3\n/)
  assert.match(yaml, /\/v1\/users:/)
  await app.close()
})

test('swagger: calling app.swagger() before ready throws', async () => {
  const app: any = enclave()
  await app.register(swagger, { openapi: { info: { title: 't', version: '0' } } })
  assert.throws(() => app.swagger(), /\.swagger\(\) must be called after \.ready\(\)/)
  await app.ready()
  assert.equal(app.swagger().info.title, 't')
  await app.close()
})

test('swagger: shared schemas added in an encapsulated child are collected (onRegister + child onReady)', async () => {
  const app: any = enclave()
  await app.register(swagger, {
    openapi: { info: { title: 'nested', version: '1' } },
    refResolver: { buildLocalReference: (json: any, _baseUri: any, _fragment: any, i: number) => json.$id || `def-${i}` }
  })
  app.register(async (child: any) => {
    child.addSchema({ $id: 'Pet', type: 'object', properties: { name: { type: 'string' } } })
    child.get('/pets', { schema: { response: { 200: { type: 'array', items: { $ref: 'Pet#' } } } } }, async () => [{ name: 'Rex', age: 3 }])
    child.get('/all', { schema: { hide: true } }, async () => 'hidden')
  })
  app.get('/untyped', async () => 'plain')
  await app.ready()
  const doc = JSON.parse(JSON.stringify(app.swagger()))
  assert.deepEqual(doc.components.schemas.Pet, { type: 'object', properties: { name: { type: 'string' } } })
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/pets', '/untyped'])
  assert.deepEqual(doc.paths['/pets'].get.responses['200'].content['application/json'].schema, { type: 'array', items: { $ref: '#/components/schemas/Pet' } })
  assert.deepEqual(doc.paths['/untyped'].get.responses, { 200: { description: 'Default Response' } })
  const pets = await app.inject({ url: '/pets' })
  assert.deepEqual(pets.json(), [{ name: 'Rex' }])
  await app.close()
})

test('swagger: exposeHeadRoutes documents the automatic HEAD routes (onRoute runs for them)', async () => {
  const app: any = enclave()
  await app.register(swagger, { openapi: { info: { title: 'head', version: '1' } }, exposeHeadRoutes: true })
  app.get('/resource', { schema: { operationId: 'getResource', response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({ ok: true }))
  await app.ready()
  const doc = JSON.parse(JSON.stringify(app.swagger()))
  assert.equal(doc.paths['/resource'].get.operationId, 'getResource')
  assert.equal(doc.paths['/resource'].head.operationId, 'getResource-head')
  const head = await app.inject({ method: 'HEAD', url: '/resource' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  await app.close()
})
