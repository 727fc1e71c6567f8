/**
 * When addHook takes effect: in loading order, behind the plugins registered before it (as in Fastify). This is
 * what lets an authentication plugin registered first run before the application's own hooks.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { enclave } from '../helpers'

test('a hook added after a non-encapsulated plugin runs after that plugin\'s hook', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(fp(async (instance: any) => { instance.addHook('onRequest', async () => { order.push('auth') }) }))
  app.addHook('onRequest', async () => { order.push('audit') })
  app.get('/', async () => order)
  assert.deepEqual((await app.inject('/')).json(), ['auth', 'audit'])
})

test('a plugin\'s own hooks run before a parent hook added after the plugin was registered', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async (child: any) => {
    child.addHook('onRequest', async () => { order.push('child') })
    child.get('/', async () => order)
  })
  app.addHook('onRequest', async () => { order.push('root, added later') })
  assert.deepEqual((await app.inject('/')).json(), ['child', 'root, added later'])
})

test('a hook added later still reaches plugins registered before it, and after it', async () => {
  const app = enclave()
  const seen: string[] = []
  app.register(async (child: any) => { child.get('/before', async () => seen.splice(0)) })
  app.addHook('preHandler', async () => { seen.push('late hook') })
  app.register(async (child: any) => { child.get('/after', async () => seen.splice(0)) })
  assert.deepEqual((await app.inject('/before')).json(), ['late hook'])
  assert.deepEqual((await app.inject('/after')).json(), ['late hook'])
})

test('onRegister added after a plugin was registered is not called for that plugin', async () => {
  const app = enclave()
  const registered: string[] = []
  app.register(async function early () {})
  app.addHook('onRegister', (instance: any) => { registered.push(instance.pluginName) })
  app.register(async function late () {})
  await app.ready()
  assert.deepEqual(registered, ['late'])
})

test('onRoute takes effect at once: the next route is seen', async () => {
  const app = enclave()
  const routes: string[] = []
  app.addHook('onRoute', (options: any) => { routes.push(`${options.method} ${options.url}`) })
  app.get('/seen', async () => 'ok')
  assert.deepEqual(routes, ['GET /seen', 'HEAD /seen'])
})

test('addHook inside an onReady hook is refused (the plugins have loaded), not accepted and left hanging', async () => {
  const app = enclave()
  let code: string | undefined
  app.addHook('onReady', async function (this: any) {
    try {
      this.addHook('onRequest', async () => {})
    } catch (err: any) {
      code = err.code
    }
  })
  await app.ready()
  assert.equal(code, 'AVV_ERR_ROOT_PLG_BOOTED')
})
