import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../../src/index'
import enclave5 from '../../../src/fastify5'

// A response `content` map's `*/*` entry serves the media types without their own entry, at both levels (Fastify 5's
// behaviour; Fastify 4.29.1 matched the key literally, and its own tests do not rely on that).
const levels: Array<[string, (options?: object) => any]> = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]]

const item = { id: 1, name: 'lamp', secret: 'kept out' }

for (const [level, factory] of levels) {
  test(`${level}: the */* entry serializes what no other entry of the status matches`, async () => {
    const app = factory()
    app.get('/:type', {
      schema: {
        response: {
          200: {
            content: {
              'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } },
              '*/*': { schema: { type: 'object', properties: { name: { type: 'string' } } } }
            }
          },
          '4xx': { content: { '*/*': { schema: { type: 'object', properties: { code: { type: 'string' } } } } } }
        }
      }
    }, async (request: any, reply: any) => {
      if (request.params.type === 'error') return reply.code(409).send({ code: 'busy', secret: 'kept out' })
      if (request.params.type !== 'none') reply.type(request.params.type === 'json' ? 'application/json' : 'application/vnd.shop+json')
      return item
    })
    const get = async (type: string) => {
      const res = await app.inject({ method: 'GET', url: `/${type}` })
      return [res.statusCode, res.body]
    }
    assert.deepEqual(await get('json'), [200, '{"id":1}'])
    assert.deepEqual(await get('vendor'), [200, '{"name":"lamp"}'])
    assert.deepEqual(await get('none'), [200, '{"id":1}'])
    assert.deepEqual(await get('error'), [409, '{"code":"busy"}'])
  })

  test(`${level}: without a */* entry, a media type of no entry is not serialized by a schema`, async () => {
    const app = factory()
    app.get('/', {
      schema: { response: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } } }
    }, async (_request: any, reply: any) => reply.type('application/vnd.shop+json').send(item))
    const res = await app.inject({ method: 'GET', url: '/' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), item)
  })
}
