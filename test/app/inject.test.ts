import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

test('inject() with a callback on an application that fails to boot: the error, and null for the response', async () => {
  const app = enclave()
  app.register(async () => { throw new Error('boot failed') })
  const args = await new Promise<unknown[]>((resolve) => { app.inject('/', (...received: unknown[]) => resolve(received)) })
  assert.equal(args.length, 2)
  assert.equal((args[0] as Error).message, 'boot failed')
  assert.equal(args[1], null)
})

test('inject() with a callback after close(): the error alone', async () => {
  const app = enclave()
  await app.close()
  const args = await new Promise<unknown[]>((resolve) => { app.inject('/', (...received: unknown[]) => resolve(received)) })
  assert.deepEqual(args.map((arg: any) => arg?.code), ['FST_ERR_REOPENED_CLOSE_SERVER'])
})
