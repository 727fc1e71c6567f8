import { test } from 'node:test'
import assert from 'node:assert/strict'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import enclave from '../../src/index'

async function build (uiOptions: Record<string, unknown> = {}): Promise<any> {
  const app: any = enclave()
  await app.register(swagger, { openapi: { info: { title: 'Items', version: '1.0.0' } } })
  await app.register(swaggerUi, { routePrefix: '/docs', ...uiOptions })
  app.get('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } } },
      response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } }
    }
  }, async (request: any) => ({ id: request.params.id }))
  await app.ready()
  return app
}

test('swagger-ui: the UI page, its initializer script and the document it shows are served under the route prefix', async () => {
  const app = await build()
  const page = await app.inject('/docs')
  assert.equal(page.statusCode, 200)
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  assert.match(page.body, /<div id="swagger-ui"><\/div>/)

  const script = await app.inject('/docs/static/swagger-initializer.js')
  assert.equal(script.statusCode, 200)
  assert.equal(script.headers['content-type'], 'application/javascript; charset=utf-8')

  const document = await app.inject('/docs/json')
  assert.equal(document.statusCode, 200)
  assert.equal(document.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(document.json().paths, {
    '/items/{id}': {
      get: {
        parameters: [{ schema: { type: 'integer' }, in: 'path', name: 'id', required: true }],
        responses: { 200: { description: 'Default Response', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } }
      }
    }
  })
  await app.close()
})

test('swagger-ui: the YAML document, and a redirect from static/index.html to the page', async () => {
  const app = await build()
  const yaml = await app.inject('/docs/yaml')
  assert.equal(yaml.statusCode, 200)
  assert.equal(yaml.headers['content-type'], 'application/x-yaml')
  assert.match(yaml.body, /^openapi: 3\.0\.3\ninfo:\n {2}title: Items\n/)

  const index = await app.inject('/docs/static/index.html')
  assert.equal(index.statusCode, 302)
  assert.equal(index.headers.location, '/docs/')
  await app.close()
})

test('swagger-ui: an unknown static file is the app\'s own 404', async () => {
  const app = await build()
  const missing = await app.inject('/docs/static/nope.js')
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { message: 'Route GET:/docs/static/nope.js not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('swagger-ui: uiHooks guard every documentation route', async () => {
  const app = await build({
    uiHooks: {
      onRequest (request: any, reply: any, done: () => void) {
        if (request.headers['x-docs-key'] !== 'open-sesame') {
          reply.code(401).send({ error: 'documentation is private' })
          return
        }
        done()
      }
    }
  })
  for (const url of ['/docs', '/docs/json', '/docs/yaml', '/docs/static/swagger-initializer.js']) {
    const refused = await app.inject(url)
    assert.equal(refused.statusCode, 401, url)
    assert.deepEqual(refused.json(), { error: 'documentation is private' })
    const allowed = await app.inject({ url, headers: { 'x-docs-key': 'open-sesame' } })
    assert.equal(allowed.statusCode, 200, url)
  }
  // the documented routes themselves are not guarded
  assert.deepEqual((await app.inject('/items/3')).json(), { id: 3 })
  await app.close()
})
