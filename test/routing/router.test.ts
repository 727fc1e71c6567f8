/**
 * Registration looks routes up as the router stores them: with `ignoreDuplicateSlashes` or `ignoreTrailingSlash`,
 * a path written '/api//:id' or '/files/' is the route '/api/:id' or '/files', so a GET declared with its HEAD (or
 * followed by one) is not taken for a duplicate of its own automatic HEAD route. Both levels.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

const levels = [
  ['Fastify 4 level', (routerOptions: Record<string, boolean>) => enclave({ routerOptions })],
  ['Fastify 5 level', (routerOptions: Record<string, boolean>) => enclave5({ routerOptions })]
] as const

for (const [level, make] of levels) {
  test(`${level}: with ignoreDuplicateSlashes, GET and HEAD declared together at '/api//:id' register once each`, async () => {
    const app = make({ ignoreDuplicateSlashes: true })
    app.route({
      method: ['GET', 'HEAD'],
      url: '/api//:id',
      handler: async (request: any, reply: any) => { reply.header('x-method', request.method); return `item ${String(request.params.id)}` }
    })
    await app.ready()
    const get = await app.inject('/api/7')
    assert.equal(get.statusCode, 200)
    assert.equal(get.body, 'item 7')
    const head = await app.inject({ method: 'HEAD', url: '/api//7' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['x-method'], 'HEAD')
    await app.close()
  })

  test(`${level}: under a prefix with a double slash, the '/' and '/*' routes of GET and HEAD all register`, async () => {
    const app = make({ ignoreDuplicateSlashes: true })
    await app.register(async (child: any) => {
      child.route({ method: ['GET', 'HEAD'], url: '/', handler: async () => 'root' })
      child.route({ method: ['GET', 'HEAD'], url: '/*', handler: async () => 'rest' })
    }, { prefix: '/api//:id' })
    await app.ready()
    assert.equal((await app.inject('/api/1')).body, 'root')
    assert.equal((await app.inject('/api/1/')).body, 'root')
    assert.equal((await app.inject('/api/1/more')).body, 'rest')
    assert.equal((await app.inject({ method: 'HEAD', url: '/api/1/more' })).statusCode, 200)
    await app.close()
  })

  test(`${level}: with ignoreTrailingSlash, an explicit HEAD after the GET at '/files/' replaces the automatic one`, async () => {
    const app = make({ ignoreTrailingSlash: true })
    app.get('/files/', async () => 'listing')
    app.head('/files/', async (_request: any, reply: any) => { reply.header('x-explicit', 'yes').send() })
    await app.ready()
    const head = await app.inject({ method: 'HEAD', url: '/files' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['x-explicit'], 'yes')
    assert.equal((await app.inject('/files/')).body, 'listing')
    await app.close()
  })
}
