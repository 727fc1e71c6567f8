/** onReady, onListen and preClose hooks: when they run, and what a hook that never finishes does. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

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
