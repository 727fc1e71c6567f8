import { test } from 'node:test'
import assert from 'node:assert/strict'
import proxy from '@fastify/http-proxy'
import enclave from '../../src/index'

async function upstream (t: any): Promise<string> {
  const origin: any = enclave()
  origin.get('/', async () => 'origin root')
  origin.get('/items/:id', async (request: any) => ({ id: request.params.id, query: request.query, via: request.headers['x-via'] ?? null }))
  origin.post('/items', async (request: any, reply: any) => reply.code(201).send({ created: request.body }))
  await origin.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => origin.close())
  return `http://127.0.0.1:${origin.server.address().port}`
}

test('http-proxy: a prefix is forwarded to the upstream with its path, query, body and status', async (t) => {
  const app: any = enclave()
  app.register(proxy, {
    upstream: await upstream(t),
    prefix: '/api',
    replyOptions: { rewriteRequestHeaders: (_request: any, headers: any) => ({ ...headers, 'x-via': 'enclave' }) }
  })
  app.get('/local', async () => ({ local: true }))
  t.after(() => app.close())

  const root = await app.inject('/api')
  assert.equal(root.statusCode, 200)
  assert.equal(root.body, 'origin root')

  const item = await app.inject('/api/items/7?full=1')
  assert.equal(item.statusCode, 200)
  assert.deepEqual(item.json(), { id: '7', query: { full: '1' }, via: 'enclave' })

  const created = await app.inject({ method: 'POST', url: '/api/items', payload: { name: 'x' } })
  assert.equal(created.statusCode, 201)
  assert.deepEqual(created.json(), { created: { name: 'x' } })

  const missing = await app.inject('/api/nowhere')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().message, 'Route GET:/nowhere not found')

  assert.deepEqual((await app.inject('/local')).json(), { local: true })
})

test('http-proxy: its preHandler sees the route config (the declared method list) and can refuse the request', async (t) => {
  const app: any = enclave()
  const seen: any[] = []
  app.register(proxy, {
    upstream: await upstream(t),
    config: { area: 'api' },
    async preHandler (request: any, reply: any) {
      seen.push(request.routeOptions.config)
      if (request.headers.authorization !== 'yes') await reply.code(401).send({ error: 'unauthorized' })
    }
  })
  t.after(() => app.close())

  const refused = await app.inject('/items/1')
  assert.equal(refused.statusCode, 401)
  assert.deepEqual(refused.json(), { error: 'unauthorized' })
  const allowed = await app.inject({ url: '/items/1', headers: { authorization: 'yes' } })
  assert.equal(allowed.statusCode, 200)
  assert.equal(allowed.json().id, '1')
  assert.deepEqual(seen[0], { area: 'api', url: '/*', method: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'] })
})
