import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import enclave from '../../src/index'
import enclave5 from '../../src/fastify5'

test('fastify-plugin: a wrapped plugin skips encapsulation (decorators and hooks reach the parent)', async () => {
  const app: any = enclave()
  app.register(fp(async (instance: any) => {
    instance.decorate('shared', 'yes')
    instance.decorateRequest('fromPlugin', 'req')
    instance.addHook('onSend', async (_request: any, reply: any) => { reply.header('x-wrapped', '1') })
  }))
  app.register(async (instance: any) => {
    instance.decorate('hidden', 'no')
  })
  app.get('/', async (request: any) => ({ shared: app.shared, fromPlugin: request.fromPlugin, hidden: app.hasDecorator('hidden') }))
  await app.ready()
  assert.equal(app.shared, 'yes')
  assert.equal(app.hasDecorator('hidden'), false)
  const res = await app.inject({ url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-wrapped'], '1')
  assert.deepEqual(res.json(), { shared: 'yes', fromPlugin: 'req', hidden: false })
  await app.close()
})

test('fastify-plugin: the display name and name metadata are used by hasPlugin and printPlugins', async () => {
  const app: any = enclave()
  const plugin = fp(async () => {}, { name: 'my-named-plugin' })
  assert.equal((plugin as any)[Symbol.for('fastify.display-name')], 'my-named-plugin')
  assert.equal((plugin as any)[Symbol.for('skip-override')], true)
  app.register(plugin)
  await app.ready()
  assert.equal(app.hasPlugin('my-named-plugin'), true)
  assert.equal(app.hasPlugin('not-registered'), false)
  assert.match(app.printPlugins(), /my-named-plugin/)
  await app.close()
})

test('fastify-plugin: a plugin declaring fastify 4.x loads', async () => {
  const app: any = enclave()
  app.register(fp(async (instance: any) => { instance.decorate('v4', true) }, { fastify: '4.x', name: 'v4-plugin' }))
  await app.ready()
  assert.equal(app.v4, true)
  await app.close()
})

test('fastify-plugin: a plugin declaring fastify 5.x loads at the Fastify 4 level; one declaring 4.x fails at the Fastify 5 level', async () => {
  const app: any = enclave()
  app.register(fp(async (instance: any) => { instance.decorate('v5', true) }, { fastify: '5.x', name: 'v5-plugin' }))
  await app.ready()
  assert.equal(app.v5, true)
  await app.close()

  const app5: any = enclave5()
  app5.register(fp(async () => {}, { fastify: '4.x', name: 'v4-plugin' }))
  await assert.rejects(app5.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_VERSION_MISMATCH')
    assert.equal(err.message, "fastify-plugin: v4-plugin - expected '4.x' fastify version, '5.12.8' is installed; " +
      "it is made for Fastify 4, which Enclave's Fastify 4 level gives: load 'enclave-http/fastify4'")
    return true
  })
})

test('fastify-plugin: required decorators are checked', async () => {
  const missing: any = enclave()
  missing.register(fp(async () => {}, { name: 'needs-db', decorators: { fastify: ['db'] } }))
  await assert.rejects(missing.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE')
    assert.equal(err.message, "The decorator 'db' required by 'needs-db' is not present in Fastify")
    return true
  })

  const missingRequest: any = enclave()
  missingRequest.register(fp(async () => {}, { name: 'needs-user', decorators: { request: ['user'] } }))
  await assert.rejects(missingRequest.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE')
    assert.equal(err.message, "The decorator 'user' required by 'needs-user' is not present in Request")
    return true
  })

  // metadata without a name: the message names only the decorator (a plain function's name is not used)
  const unnamed: any = enclave()
  async function plainPlugin (): Promise<void> {}
  Object.assign(plainPlugin, { [Symbol.for('skip-override')]: true, [Symbol.for('plugin-meta')]: { decorators: { reply: ['render'] } } })
  unnamed.register(plainPlugin)
  await assert.rejects(unnamed.ready(), { message: "The decorator 'render' is not present in Reply" })

  const present: any = enclave()
  present.decorate('db', {})
  present.decorateRequest('user', null)
  present.decorateReply('render', function () {})
  present.register(fp(async (instance: any) => { instance.decorate('ok', true) }, {
    name: 'needs-all', decorators: { fastify: ['db'], request: ['user'], reply: ['render'] }
  }))
  await present.ready()
  assert.equal(present.ok, true)
  await present.close()
})

test('fastify-plugin: dependencies must be registered first', async () => {
  const missing: any = enclave()
  missing.register(fp(async () => {}, { name: 'dependent', dependencies: ['base'] }))
  await assert.rejects(missing.ready(), (err: any) => {
    assert.equal(err.message, "The dependency 'base' of plugin 'dependent' is not registered")
    return true
  })

  const app: any = enclave()
  app.register(fp(async (instance: any) => { instance.decorate('base', 1) }, { name: 'base' }))
  app.register(fp(async (instance: any) => { instance.decorate('dependent', instance.base + 1) }, { name: 'dependent', dependencies: ['base'] }))
  await app.ready()
  assert.equal(app.dependent, 2)
  await app.close()
})

test('fastify-plugin: encapsulate: true keeps the plugin encapsulated; a dependency in a sibling context does not count', async () => {
  const app: any = enclave()
  app.register(fp(async (instance: any) => { instance.decorate('inner', true) }, { name: 'boxed', encapsulate: true }))
  await app.ready()
  assert.equal(app.hasDecorator('inner'), false)
  await app.close()

  const sibling: any = enclave()
  sibling.register(async (child: any) => {
    child.register(fp(async () => {}, { name: 'only-in-child' }))
  })
  sibling.register(fp(async () => {}, { name: 'needs-it', dependencies: ['only-in-child'] }))
  await assert.rejects(sibling.ready(), (err: any) => {
    assert.equal(err.message, "The dependency 'only-in-child' of plugin 'needs-it' is not registered")
    return true
  })
})

test('fastify-plugin: an ES-module style { default } export and a named function are accepted', async () => {
  const app: any = enclave()
  async function namedPlugin (instance: any): Promise<void> { instance.decorate('named', 1) }
  const wrapped = fp(namedPlugin)
  const autoName: string = (wrapped as any)[Symbol.for('fastify.display-name')]
  assert.match(autoName, /^namedPlugin-auto-\d+$/)
  app.register(wrapped)
  app.register(fp({ default: async (instance: any) => { instance.decorate('esm', 2) } } as any, { name: 'esm-plugin' }))
  await app.ready()
  assert.equal(app.named, 1)
  assert.equal(app.esm, 2)
  assert.equal(app.hasPlugin(autoName), true)
  assert.equal(app.hasPlugin('esm-plugin'), true)
  await app.close()
})
