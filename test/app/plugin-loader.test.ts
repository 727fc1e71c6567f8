import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { enclave } from '../helpers'

test('async and callback plugins both load, in registration order', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async function first (child: any) {
    order.push('first')
    child.register(async function nested () { order.push('first.nested') })
  })
  app.register(function second (_child: any, _opts: any, done: (err?: Error) => void) {
    order.push('second')
    setTimeout(done, 5)
  })
  app.register(async function third () {
    await new Promise((resolve) => setTimeout(resolve, 5))
    order.push('third')
  })
  assert.deepEqual(order, [])
  await app.ready()
  assert.deepEqual(order, ['first', 'first.nested', 'second', 'third'])
  await app.close()
})

test('plugins see their options; prefix is applied to their routes', async () => {
  const app = enclave()
  let seen: any
  app.register(async (child: any, opts: any) => {
    seen = opts
    child.get('/info', async () => ({ prefix: child.prefix, custom: opts.custom }))
  }, { prefix: '/api', custom: 42 })
  await app.ready()
  assert.equal(seen.prefix, '/api')
  assert.equal(seen.custom, 42)
  const res = await app.inject('/api/info')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { prefix: '/api', custom: 42 })
  await app.close()
})

test('plugin options may be a function of the parent instance', async () => {
  const app = enclave()
  app.decorate('configured', 'from-parent')
  let seen: any
  app.register(async (_child: any, opts: any) => { seen = opts }, (parent: any) => ({ value: parent.configured }))
  await app.ready()
  assert.equal(seen.value, 'from-parent')
  await app.close()
})

test('after() with a callback and as a promise', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async () => { order.push('a') })
  app.after((err: Error | null) => {
    assert.equal(err, null)
    order.push('after a')
  })
  app.register(async () => { order.push('b') })
  await app.after()
  order.push('awaited after b')
  app.register(async () => { order.push('c') })
  await app.ready()
  assert.deepEqual(order, ['a', 'after a', 'b', 'awaited after b', 'c'])
  await app.close()
})

test('await app.register(...) loads the plugin at once', async () => {
  const app = enclave()
  await app.register(async (child: any) => { child.decorate('loaded', true) })
  // the decorator was added on a child instance: the root does not see it
  assert.equal(app.hasDecorator('loaded'), false)
  let ran = false
  await app.register(async () => { ran = true })
  assert.equal(ran, true)
  await app.ready()
  await app.close()
})

test('ready() as a promise resolves to the instance; as a callback gets null', async () => {
  const app = enclave()
  app.register(async () => {})
  const resolved = await app.ready()
  assert.equal(resolved, app)
  const err = await new Promise((resolve) => app.ready(resolve))
  assert.equal(err, null)
  // ready() is idempotent
  assert.equal(await app.ready(), app)
  await app.close()
})

test('a plugin that never calls done fails ready() with FST_ERR_PLUGIN_TIMEOUT naming it', async () => {
  const app = enclave({ pluginTimeout: 30 })
  app.register(function neverDone (_i: any, _o: any, _done: () => void) {})
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    assert.equal(err.message, "fastify-plugin: Plugin did not start in time: 'neverDone'. You may have forgotten to call 'done' function or to resolve a Promise")
    return true
  })
})

test('a plugin whose promise never settles fails ready() in the callback form too', async () => {
  const app = enclave({ pluginTimeout: 30 })
  app.register(async function hangs () { await new Promise(() => {}) })
  const err: any = await new Promise((resolve) => app.ready(resolve))
  assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
  assert.equal(err.message, "fastify-plugin: Plugin did not start in time: 'hangs'. You may have forgotten to call 'done' function or to resolve a Promise")
})

test('an async plugin that also takes done is settled by its promise: done is not waited for (it warns FSTWRN002)', async () => {
  const app = enclave({ pluginTimeout: 50 })
  const seen: string[] = []
  app.register(async function neverCallsDone (_i: any, _o: any, _done: () => void) { seen.push('neverCallsDone') })
  app.register(async function rejects (_i: any, _o: any, _done: () => void) { throw new Error('boom') })
    .after((err: any, next: () => void) => { seen.push(`after: ${err?.message}`); next() })
  await app.ready()
  assert.deepEqual(seen, ['neverCallsDone', 'after: boom'])
  await app.close()
})

test('a plugin that throws synchronously rejects ready() instead of crashing the process', async () => {
  const app = enclave()
  app.register(function thrower () { throw new Error('sync boom') })
  await assert.rejects(app.ready(), { message: 'sync boom' })
  const nested = enclave()
  nested.register(async (child: any) => {
    child.register((_i: any, _o: any, _done: () => void) => { throw new Error('nested boom') })
  })
  await assert.rejects(nested.ready(), { message: 'nested boom' })
  const lazy = enclave()
  lazy.register(Promise.resolve({ default: () => { throw new Error('lazy boom') } }))
  await assert.rejects(lazy.ready(), { message: 'lazy boom' })
})

test('a nested plugin that times out is named in the error', async () => {
  const app = enclave({ pluginTimeout: 30 })
  app.register(async function outer (child: any) { child.register(function inner (_i: any, _o: any, _done: () => void) {}) })
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    assert.match(err.message, /^fastify-plugin: Plugin did not start in time: 'inner'\./)
    return true
  })
})

test('close() before ready() boots the plugins, runs onClose and resolves', async () => {
  const app = enclave()
  const events: string[] = []
  app.register(async (child: any) => {
    events.push('loaded')
    child.addHook('onClose', async () => { events.push('closed') })
  })
  await app.close()
  assert.deepEqual(events, ['loaded', 'closed'])
})

test('a rejecting plugin rejects ready() and listen()', async () => {
  const app = enclave()
  app.register(async () => { throw new Error('async boom') })
  await assert.rejects(app.ready(), { message: 'async boom' })
  const other = enclave()
  other.register(async () => { throw new Error('listen boom') })
  await assert.rejects(other.listen({ port: 0 }), { message: 'listen boom' })
  assert.equal(other.server.listening, false)
})

test('a plugin passing an error to done rejects ready()', async () => {
  const app = enclave()
  app.register((_i: any, _o: any, done: (err?: Error) => void) => done(new Error('done with error')))
  const err: any = await new Promise((resolve) => app.ready(resolve))
  assert.equal(err.message, 'done with error')
})

test('an error in a plugin is seen by after() and can be swallowed there', async () => {
  const app = enclave()
  const seen: string[] = []
  app.register(async () => { throw new Error('handled') })
  app.after((err: Error | null) => { seen.push(err!.message) })
  await app.ready()
  assert.deepEqual(seen, ['handled'])
  await app.close()
})

test('register accepts an ESM module namespace ({ default: fn }) and a promise of one', async () => {
  const app = enclave()
  const esm = { default: async (child: any) => { child.get('/esm', async () => 'esm') } }
  const lazy = Promise.resolve({ default: async (child: any) => { child.get('/lazy', async () => 'lazy') } })
  app.register(esm)
  app.register(lazy, { prefix: '/p' })
  app.register(import('node:path').then(() => ({ default: async (child: any) => { child.get('/dynamic', async () => 'dynamic') } })))
  await app.ready()
  assert.equal((await app.inject('/esm')).payload, 'esm')
  assert.equal((await app.inject('/p/lazy')).payload, 'lazy')
  assert.equal((await app.inject('/dynamic')).payload, 'dynamic')
  await app.close()
})

test('registering something that is not a plugin fails', async () => {
  const app = enclave()
  assert.throws(() => app.register(42))
  assert.throws(() => app.register({ notAPlugin: true }))
})

test('plugins registered after ready() is called still need to be awaited', async () => {
  const app = enclave()
  await app.ready()
  assert.throws(() => app.register(async () => {}), { code: 'AVV_ERR_ROOT_PLG_BOOTED' })
  await app.close()
})

test('onClose hooks run in reverse order of registration (the child loaded last closes first), with their instance', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async (child: any) => {
    child.decorate('name', 'child')
    child.onClose((instance: any, done: () => void) => {
      order.push(`child ${instance.name}`)
      done()
    })
  })
  app.addHook('onClose', async () => { order.push('root') })
  await app.ready()
  await app.close()
  assert.deepEqual(order, ['child child', 'root'])
})

test('printPlugins lists the plugin tree', async () => {
  const app = enclave()
  app.register(async function myPlugin (child: any) {
    child.register(async function innerPlugin () {})
  })
  await app.ready()
  const printed = app.printPlugins()
  assert.match(printed, /myPlugin/)
  assert.match(printed, /innerPlugin/)
  await app.close()
})

test('inject() before ready() loads the plugins first', async () => {
  const app = enclave()
  app.register(async (child: any) => { child.get('/late', async () => 'loaded') })
  const res = await app.inject('/late')
  assert.equal(res.statusCode, 200)
  assert.equal(res.payload, 'loaded')
  await app.close()
})

test('listen() waits for plugins and serves over a real socket', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    child.get('/', async () => ({ up: true }))
  })
  const address = await app.listen({ port: 0 })
  const res = await fetch(address)
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { up: true })
  await app.close()
})

test('the root is named "fastify", as plugins expect: pluginName and hasPlugin', async () => {
  const app = enclave()
  const seen: Record<string, unknown> = {}
  app.register(async function child (instance: any) { seen.inChild = instance.hasPlugin('fastify') })
  app.register(fp(async function shared (instance: any) { seen.inShared = instance.hasPlugin('fastify') }, { name: 'shared' }))
  await app.ready()
  assert.equal(app.hasPlugin('fastify'), true)
  assert.equal(app.pluginName, 'fastify -> shared')
  assert.deepEqual(seen, { inChild: false, inShared: true })
})

test('Symbol.for(\'registered-plugin\') lists the plugin-meta names registered in the context and its ancestors', async () => {
  const app = enclave()
  const kRegistered = Symbol.for('registered-plugin')
  let inChild: string[] = []
  app.register(fp(async () => {}, { name: 'first' }))
  app.register(async (child: any) => {
    child.register(fp(async () => {}, { name: 'inner' }))
    child.after(() => { inChild = [...child[kRegistered]] })
  })
  await app.ready()
  assert.deepEqual([...app[kRegistered]], ['first'])
  assert.deepEqual(inChild, ['first', 'inner'])
})

test('plugin ranges are checked against the level\'s versions, or a redefined instance.version alone; a release candidate also loads plugins for earlier releases', async () => {
  const plugin = (range: string): any => Object.assign((_instance: any, _opts: any, done: () => void) => done(), { [Symbol.for('plugin-meta')]: { name: 'p', fastify: range } })
  const outcome = async (version: string | undefined, range: string): Promise<string> => {
    const app = enclave()
    if (version !== undefined) Object.defineProperty(app, 'version', { value: version })
    app.register(plugin(range))
    return app.ready().then(() => 'loaded', (err: any) => err.code)
  }
  assert.equal(await outcome('99.0.0-rc.1', '99.x'), 'loaded')
  assert.equal(await outcome('99.0.0-rc.1', '^98.1.0'), 'loaded')
  assert.equal(await outcome(undefined, '4.x'), 'loaded')
  // the Fastify 4 level also takes plugins made for Fastify 5 (src/core/api-level.ts)
  assert.equal(await outcome(undefined, '5.x'), 'loaded')
  assert.equal(await outcome(undefined, '6.x'), 'FST_ERR_PLUGIN_VERSION_MISMATCH')
  assert.equal(await outcome('4.29.2', '5.x'), 'FST_ERR_PLUGIN_VERSION_MISMATCH')
})

test('a plugin\'s symbols are read when it loads: marking it after register() still counts (hoisted function)', async () => {
  const app = enclave()
  app.register(sharesItsContext)
  app.get('/', async function (this: any) { return { decorated: this.fromPlugin, name: this.pluginName } })
  async function sharesItsContext (instance: any) {
    instance.decorate('fromPlugin', 'visible in the parent')
  }
  Object.assign(sharesItsContext, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'late-name' })
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { decorated: 'visible in the parent', name: 'fastify -> late-name' })
})

test('onRegister hooks run with the plugin loader as `this`, whose current plugin is the one being registered', async () => {
  const app = enclave()
  const seen: Array<[string, boolean, string]> = []
  app.addHook('onRegister', function (this: any, instance: any) {
    seen.push([this._current[0].name, this === app || this === instance, typeof this.pluginTree])
  })
  app.register(async function outer (child: any) {
    child.register(async function inner () {})
  })
  await app.ready()
  assert.deepEqual(seen, [['outer', false, 'object'], ['inner', false, 'object']])
})
