/**
 * What `onRoute` hooks see (plugins such as @fastify/swagger build on it): Enclave and the real fastify@4 register
 * the same routes and must call the hook for the same routes, in the same order, with the same options. One
 * difference is left out on purpose: Fastify's automatic HEAD route carries its own internal `onSend` hook.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any
const shown = ['method', 'url', 'path', 'routePath', 'prefix', 'config', 'logLevel', 'attachValidation', 'exposeHeadRoute', 'prefixTrailingSlash', 'bodyLimit', 'version', 'constraints']

async function onRouteCalls (factory: Factory, options: Record<string, unknown>): Promise<unknown[]> {
  const app = factory(options)
  const seen: unknown[] = []
  app.addHook('onRoute', (route: any) => {
    const view: Record<string, unknown> = { keys: Object.keys(route).filter((key) => !(route.method === 'HEAD' && key === 'onSend')).sort() }
    for (const key of shown) if (route[key] !== undefined) view[key] = route[key]
    seen.push(view)
  })
  app.get('/', async () => 'x')
  app.route({ method: ['GET', 'POST'], url: '/multi', bodyLimit: 10, handler: async () => 'x' })
  app.register(async (child: any) => {
    child.get('/', async () => 'x')
    child.patch('/', { prefixTrailingSlash: 'slash' }, async () => 'x')
    child.post('/', { prefixTrailingSlash: 'no-slash' }, async () => 'x')
    child.put('', async () => 'x')
    child.get('/x', { config: { a: 1 }, logLevel: 'warn', attachValidation: true }, async () => 'x')
    child.get('/no-head', { exposeHeadRoute: false }, async () => 'x')
    child.get('/versioned', { version: '1.0.0' }, async () => 'x')
    child.register(async (grand: any) => { grand.get('/', async () => 'x') }, { prefix: '/g' })
  }, { prefix: '/p' })
  await app.ready()
  await app.close()
  return seen
}

for (const options of [{}, { ignoreTrailingSlash: true }, { exposeHeadRoutes: false }]) {
  test(`onRoute is called as fastify@4 calls it (${JSON.stringify(options)})`, async () => {
    const expected = await onRouteCalls(Fastify as unknown as Factory, options)
    assert.ok(expected.length >= 8)
    assert.deepEqual(await onRouteCalls(enclave, options), expected)
  })
}
