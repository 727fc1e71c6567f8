import { test } from 'node:test'
import assert from 'node:assert/strict'
import sensible from '@fastify/sensible'
import enclave from '../../src/index'

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(sensible)
  app.register(async (instance: any) => {
    instance.get('/not-found', (_request: any, reply: any) => { reply.notFound() })
    instance.get('/not-found-message', (_request: any, reply: any) => { reply.notFound('no such item') })
    instance.get('/get-http-error', (_request: any, reply: any) => { reply.getHttpError(503, 'down for maintenance') })
    instance.get('/thrown', async () => { throw instance.httpErrors.conflict('already exists') })
    instance.get('/create-error', async () => { throw instance.httpErrors.createError(402, 'pay up') })
    instance.get('/internal', async () => { throw instance.httpErrors.internalServerError() })
    instance.get('/assert', async (request: any) => {
      instance.assert(request.query.id, 400, 'id is required')
      instance.assert.equal(request.query.id, '1', 404)
      return { id: request.query.id }
    })
    instance.get('/to', async () => {
      const [err, value] = await instance.to(Promise.resolve(42))
      const [failure] = await instance.to(Promise.reject(new Error('boom')))
      return { err, value, failure: failure.message }
    })
    instance.get('/reply-helpers', async (request: any, reply: any) => {
      reply.vary('Accept')
      reply.vary('Origin')
      reply.cacheControl('public')
      reply.cacheControl('max-age', 60)
      return { forwarded: request.forwarded(), isJson: request.is(['json']) }
    })
  })
  await app.ready()
  return app
}

test('sensible: reply.notFound() and friends send the matching HTTP error', async () => {
  const app = await build()
  const notFound = await app.inject({ url: '/not-found' })
  assert.equal(notFound.statusCode, 404)
  assert.deepEqual(notFound.json(), { statusCode: 404, error: 'Not Found', message: 'Not Found' })
  const withMessage = await app.inject({ url: '/not-found-message' })
  assert.deepEqual(withMessage.json(), { statusCode: 404, error: 'Not Found', message: 'no such item' })
  const unavailable = await app.inject({ url: '/get-http-error' })
  assert.equal(unavailable.statusCode, 503)
  assert.deepEqual(unavailable.json(), { statusCode: 503, error: 'Service Unavailable', message: 'down for maintenance' })
  await app.close()
})

test('sensible: httpErrors thrown from handlers become their status and message', async () => {
  const app = await build()
  assert.equal(typeof app.httpErrors.badRequest, 'function')
  const conflict = await app.inject({ url: '/thrown' })
  assert.equal(conflict.statusCode, 409)
  assert.deepEqual(conflict.json(), { statusCode: 409, error: 'Conflict', message: 'already exists' })
  const payment = await app.inject({ url: '/create-error' })
  assert.equal(payment.statusCode, 402)
  assert.deepEqual(payment.json(), { statusCode: 402, error: 'Payment Required', message: 'pay up' })
  const internal = await app.inject({ url: '/internal' })
  assert.equal(internal.statusCode, 500)
  assert.deepEqual(internal.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  await app.close()
})

test('sensible: assert throws HTTP errors', async () => {
  const app = await build()
  const missing = await app.inject({ url: '/assert' })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), { statusCode: 400, error: 'Bad Request', message: 'id is required' })
  const wrong = await app.inject({ url: '/assert?id=2' })
  assert.equal(wrong.statusCode, 404)
  assert.deepEqual(wrong.json(), { statusCode: 404, error: 'Not Found', message: 'Not Found' })
  const ok = await app.inject({ url: '/assert?id=1' })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { id: '1' })
  await app.close()
})

test('sensible: to(), vary, cacheControl, request.forwarded and request.is', async () => {
  const app = await build()
  assert.deepEqual((await app.inject({ url: '/to' })).json(), { err: null, value: 42, failure: 'boom' })
  const res = await app.inject({ url: '/reply-helpers', headers: { 'x-forwarded-for': '10.0.0.1' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers.vary, 'Accept, Origin')
  assert.equal(res.headers['cache-control'], 'public, max-age=60')
  assert.deepEqual(res.json(), { forwarded: ['127.0.0.1', '10.0.0.1'], isJson: null })
  await app.close()
})

test('sensible: sharedSchemaId lets a route response schema reference the HTTP error shape', async () => {
  const app: any = enclave()
  app.register(sensible, { sharedSchemaId: 'HttpError' })
  app.register(async (instance: any) => {
    instance.get('/item', {
      schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } }, 404: { $ref: 'HttpError' } } }
    }, async (_request: any, reply: any) => reply.notFound('item missing'))
  })
  await app.ready()
  assert.equal(app.getSchema('HttpError').$id, 'HttpError')
  const res = await app.inject({ url: '/item' })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'item missing' })
  await app.close()
})
