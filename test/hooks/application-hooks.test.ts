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
  let secondRan!: () => void
  const second = new Promise<void>((resolve) => { secondRan = resolve })
  app.addHook('onListen', async () => { throw new Error('onListen failed') })
  app.addHook('onListen', async () => { secondRan() })
  const address = await app.listen({ port: 0 })
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
  await second
  assert.deepEqual(sink.lines.map((line) => [line.msg, line.err.message]), [['onListen failed', 'onListen failed']])
})

test('listen() does not wait for onListen hooks; a context\'s hooks run in turn, then its children\'s side by side', async (t) => {
  const app = enclave()
  t.after(() => app.close())
  const events: string[] = []
  const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5))
  let lastDone!: () => void
  const allDone = new Promise<void>((resolve) => { lastDone = resolve })
  app.addHook('onListen', async () => { events.push('root 1'); await tick(); events.push('root 1 done') })
  app.addHook('onListen', (done: () => void) => { events.push('root 2'); done() })
  app.register(async (a: any) => {
    a.addHook('onListen', async () => { events.push('a'); await tick(); events.push('a done') })
  })
  app.register(async (b: any) => {
    b.addHook('onListen', async () => { events.push('b'); await tick(); await tick(); events.push('b done'); lastDone() })
  })
  await app.listen({ port: 0 })
  events.push('listening')
  await allDone
  assert.deepEqual(events, ['root 1', 'listening', 'root 1 done', 'root 2', 'a', 'b', 'a done', 'b done'])
})

test('ready() called by an encapsulated plugin while plugins load settles before the onReady hooks run', async () => {
  const app = enclave()
  const order: string[] = []
  app.register(async (child: any) => { child.ready(() => order.push('plugin ready callback')) })
  app.addHook('onReady', async () => { order.push('onReady') })
  await app.ready()
  assert.deepEqual(order, ['plugin ready callback', 'onReady'])
})
