/** onReady, onListen and preClose hooks: when they run, and what a hook that never finishes does. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave, logSink } from '../helpers'

test('an onReady hook that never calls done fails ready() with FST_ERR_HOOK_TIMEOUT after pluginTimeout', async () => {
  const app = enclave({ pluginTimeout: 50 })
  app.addHook('onReady', function (_done: () => void) {})
  await assert.rejects(app.ready(), {
    code: 'FST_ERR_HOOK_TIMEOUT',
    message: "A callback for 'onReady' hook timed out. You may have forgotten to call 'done' function or to resolve a Promise"
  })
})

test('an async onReady hook that never settles fails ready() the same way', async () => {
  const app = enclave({ pluginTimeout: 50 })
  app.addHook('onReady', () => new Promise(() => {}))
  await assert.rejects(app.ready(), { code: 'FST_ERR_HOOK_TIMEOUT' })
})

test('with pluginTimeout 0, onReady hooks are waited for without limit', async () => {
  const app = enclave({ pluginTimeout: 0 })
  app.addHook('onReady', (done: () => void) => { setTimeout(done, 30) })
  await app.ready()
})

test('a failing onListen hook is logged and the others still run; listen() succeeds', async (t) => {
  const sink = logSink()
  const app = enclave({ logger: { level: 'error', stream: sink.stream } })
  t.after(() => app.close())
  const ran: string[] = []
  app.addHook('onListen', async () => { throw new Error('onListen failed') })
  app.addHook('onListen', async () => { ran.push('second') })
  const address = await app.listen({ port: 0 })
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
  assert.deepEqual(ran, ['second'])
  assert.deepEqual(sink.lines.map((line) => [line.msg, line.err.message]), [['onListen failed', 'onListen failed']])
})

test('ready() called by an encapsulated plugin while plugins load settles before the onReady hooks run', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async (child: any) => { child.ready(() => order.push('plugin ready callback')) })
  app.addHook('onReady', async () => { order.push('onReady') })
  await app.ready()
  assert.deepEqual(order, ['plugin ready callback', 'onReady'])
})
