/**
 * Plugin loading where the levels differ (onRegister's `this`, plugins mixing async and callback styles, plugins that
 * declare no `done`) and where Fastify 5's rule applies at both (pre-release versions).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

test('onRegister hooks get the parent instance as `this` at the Fastify 5 level, avvio\'s loader at the Fastify 4 level', async () => {
  const app5 = enclave5()
  const seen5: Array<[boolean, boolean, unknown]> = []
  app5.addHook('onRegister', function (this: any, instance: any, opts: unknown, done: unknown) {
    seen5.push([this === app5, typeof instance.addHook === 'function', done])
    assert.deepEqual(opts, { custom: 1 })
  })
  app5.register((_child: any, _opts: unknown, done: () => void) => done(), { custom: 1 })
  await app5.ready()
  assert.deepEqual(seen5, [[true, true, undefined]])

  const app4 = enclave()
  const seen4: unknown[] = []
  app4.addHook('onRegister', function (this: any) { seen4.push(this === app4 ? 'instance' : typeof this._current) })
  app4.register(async () => {})
  await app4.ready()
  assert.deepEqual(seen4, ['object'])
})

test('an async plugin that also takes done fails ready() at the Fastify 5 level, naming the plugin', async () => {
  const app = enclave5()
  const mixedStyles = async (_child: unknown, _opts: unknown, done: () => void) => { done() }
  app.register(mixedStyles)
  await assert.rejects(app.ready(), {
    code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER',
    message: 'The mixedStyles plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.'
  })
})

test('the same plugin loads at the Fastify 4 level, with warning FSTWRN002', async () => {
  const warnings: string[] = []
  const onWarning = (warning: Error & { code?: string }): void => { warnings.push(String(warning.code)) }
  process.on('warning', onWarning)
  try {
    const app = enclave()
    app.register(async (_child: unknown, _opts: unknown, done: () => void) => { done() })
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve))
    assert.ok(warnings.includes('FSTWRN002'))
    await app.close()
  } finally {
    process.off('warning', onWarning)
  }
})

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: a pre-release (-rc, -pre, -alpha) loads plugins made for the release before it`, async () => {
    for (const version of ['99.0.0-rc.1', '99.0.0-pre.1', '99.0.0-alpha.2']) {
      const app = make()
      Object.defineProperty(app, 'version', { value: version })
      const plugin = Object.assign((_child: unknown, _opts: unknown, done: () => void) => done(), {
        [Symbol.for('plugin-meta')]: { name: 'older', fastify: '^98.x' }
      })
      app.register(plugin)
      await app.ready()
      await app.close()
    }
  })
}

test('a plugin that declares no done and returns no promise: loaded when it returns at the Fastify 5 level', async () => {
  const app = enclave5({ pluginTimeout: 200 })
  app.register((child: any) => {
    child.decorate('answer', 42)
    child.get('/answer', async () => ({ answer: child.answer }))
  })
  await app.ready()
  const res = await app.inject('/answer')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { answer: 42 })
  await app.close()
})

test('the Fastify 4 level waits for done, which a plugin with a default parameter before it still calls', async () => {
  const app = enclave({ pluginTimeout: 200 })
  let calls = 0
  // length 1: the default ends the count, as in Fastify 4 plugins written this way
  app.register(function (child: any, _opts: unknown = {}, next?: () => void) {
    calls++
    setTimeout(() => { child.decorate('late', true); next!() }, 10)
  })
  await app.ready()
  assert.equal(calls, 1)
  assert.equal(app.hasDecorator('late'), false)
  await app.close()

  const silent = enclave({ pluginTimeout: 50 })
  silent.register((_child: unknown) => {})
  await assert.rejects(silent.ready(), { code: 'FST_ERR_PLUGIN_TIMEOUT' })
})
