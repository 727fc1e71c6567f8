/** The onReady timeout (FST_ERR_HOOK_TIMEOUT) names the hook that did not finish at the Fastify 5 level only. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

test('an onReady hook that times out is named by the error at the Fastify 5 level only', async () => {
  const app5 = enclave5({ pluginTimeout: 50 })
  app5.addHook('onReady', function warmCaches (_done: () => void) {})
  await assert.rejects(app5.ready(), {
    code: 'FST_ERR_HOOK_TIMEOUT',
    message: 'A callback for \'onReady\' hook "warmCaches" timed out. You may have forgotten to call \'done\' function or to resolve a Promise'
  })
  const app4 = enclave({ pluginTimeout: 50 })
  app4.addHook('onReady', function warmCaches (_done: () => void) {})
  await assert.rejects(app4.ready(), {
    message: "A callback for 'onReady' hook timed out. You may have forgotten to call 'done' function or to resolve a Promise"
  })
})
