/**
 * `printRoutes()` output, which users snapshot in their tests, printed by Enclave and by the real fastify@4 for the
 * same application: the trees must be identical, with and without route metadata and hooks.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any

/** Global and route hooks, a route and a plugin error handler, log levels, config, prefixes, anonymous functions. */
async function buildApp (factory: Factory, exposeHeadRoutes: boolean): Promise<any> {
  const app = factory({ exposeHeadRoutes })
  app.addHook('onRequest', function globalHook (_req: any, _reply: any, done: () => void) { done() })
  app.addHook('onTimeout', function (_req: any, _reply: any, done: () => void) { done() })
  app.get('/', async () => 'x')
  app.get('/a', {
    config: { x: 1 },
    logLevel: 'warn',
    schema: { querystring: { type: 'object' } },
    onSend: async function routeSend () {},
    preHandler: [function first (_req: any, _reply: any, done: () => void) { done() }, (_req: any, _reply: any, done: () => void) => { done() }]
  }, async () => 'x')
  app.post('/users', async () => 'x')
  app.get('/users/:id', async () => 'x')
  app.register(async function child (c: any) {
    c.setErrorHandler(function myErrors (err: Error, _req: any, reply: any) { reply.send(err) })
    c.addHook('preValidation', async function childHook () {})
    c.get('/', async () => 'x')
    c.post('/b', { errorHandler: function routeErr () {} }, async () => 'x')
    c.get('/items/*', async () => 'x')
    c.register(async function grand (g: any) {
      g.setErrorHandler((err: Error, _req: any, reply: any) => { reply.send(err) })
      g.put('/deep', { logLevel: 'info' }, async () => 'x')
    }, { prefix: '/g' })
  }, { prefix: '/p' })
  await app.ready()
  return app
}

const printOptions: Array<Record<string, unknown>> = [
  {},
  { commonPrefix: false },
  { includeMeta: true },
  { includeHooks: true },
  { includeHooks: true, includeMeta: ['errorHandler'] },
  { includeMeta: ['logLevel', 'errorHandler', 'config', 'schema', 'onSend', 'unknown'] },
  { includeHooks: true, includeMeta: true, commonPrefix: false },
  { method: 'GET', includeMeta: true },
  { method: 'POST', includeHooks: true }
]

for (const exposeHeadRoutes of [true, false]) {
  test(`printRoutes prints what fastify@4 prints (exposeHeadRoutes: ${String(exposeHeadRoutes)})`, async () => {
    const fastifyApp = await buildApp(Fastify as unknown as Factory, exposeHeadRoutes)
    const enclaveApp = await buildApp(enclave, exposeHeadRoutes)
    for (const options of printOptions) {
      const expected: string = fastifyApp.printRoutes(options)
      assert.ok(expected.length > 0)
      assert.equal(enclaveApp.printRoutes(options), expected, `printRoutes(${JSON.stringify(options)})`)
    }
    await Promise.all([fastifyApp.close(), enclaveApp.close()])
  })
}
