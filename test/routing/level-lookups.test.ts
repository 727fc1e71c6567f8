/**
 * Two routing behaviours Fastify 5 changed, one per level (src/core/api-level.ts): how a plugin prefix without its
 * leading slash joins a parent prefix ending in one, and what `hasRoute` asks.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

function nested (factory: (options?: Record<string, any>) => any): any {
  const app = factory()
  app.register(async (outer: any) => {
    outer.register(async (inner: any) => { inner.get('/route', async () => 'inner') }, { prefix: 'inner' })
  }, { prefix: '/v1/' })
  return app
}

test('Fastify 5 level: \'/v1/\' then \'inner\' is \'/v1/inner\'', async () => {
  const app = nested(enclave5)
  assert.equal((await app.inject('/v1/inner/route')).body, 'inner')
  assert.equal((await app.inject('/v1//inner/route')).statusCode, 404)
})

test('Fastify 4 level: \'/v1/\' then \'inner\' is \'/v1//inner\', as Fastify 4 joins them', async () => {
  const app = nested(enclave)
  assert.equal((await app.inject('/v1//inner/route')).body, 'inner')
  assert.equal((await app.inject('/v1/inner/route')).statusCode, 404)
})

test('hasRoute: the registered pattern at the Fastify 5 level, a lookup at the Fastify 4 level', () => {
  for (const [factory, byPattern] of [[enclave5, true], [enclave, false]] as const) {
    const app = factory()
    app.get('/example/:file(^\\d+).png', () => 'x')
    app.get('/users/:id', { constraints: { version: '1.0.0' } }, () => 'x')
    assert.equal(app.hasRoute({ method: 'GET', url: '/example/:file(^\\d+).png' }), byPattern)
    assert.equal(app.hasRoute({ method: 'get', url: '/example/12.png' }), !byPattern)
    assert.equal(app.hasRoute({ method: 'GET', url: byPattern ? '/users/:id' : '/users/1', constraints: { version: '1.0.0' } }), true)
    assert.equal(app.hasRoute({ method: 'POST', url: '/users/:id' }), false)
    assert.equal(app.hasRoute({}), false)
  }
})

test('the \'/prefix/\' twin of a prefixed \'/\' route reports \'/prefix\' at the Fastify 5 level, its own path at the Fastify 4 level', async () => {
  for (const [factory, expected] of [[enclave5, '/prefix'], [enclave, '/prefix/']] as const) {
    const app = factory()
    const seen: string[] = []
    app.addHook('onRoute', (options: any) => { if (options.method === 'GET') seen.push(options.url) })
    app.register(async (child: any) => {
      child.get('/', async (request: any) => `${String(request.routeOptions.url)} ${String(request.routeOptions.config.url)}`)
    }, { prefix: '/prefix' })
    assert.equal((await app.inject('/prefix')).body, '/prefix /prefix')
    assert.equal((await app.inject('/prefix/')).body, `${expected} ${expected}`)
    assert.deepEqual(seen, ['/prefix'])
  }
})
