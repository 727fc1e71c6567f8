/**
 * onClose hooks given as resources (Fastify 5, both levels): an AsyncDisposable or Disposable object is disposed when
 * the application closes.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: an onClose resource is disposed at close(), Symbol.asyncDispose before Symbol.dispose`, async () => {
    const app = make()
    const disposed: string[] = []
    app.addHook('onClose', { [Symbol.dispose] () { disposed.push('sync') } })
    app.addHook('onClose', {
      async [Symbol.asyncDispose] () { disposed.push('async') },
      [Symbol.dispose] () { disposed.push('not this one') }
    })
    await app.ready()
    assert.deepEqual(disposed, [])
    await app.close()
    // onClose hooks run last added first
    assert.deepEqual(disposed, ['async', 'sync'])
  })
}

test('a resource that fails to dispose fails close(), what its disposal resolves with is ignored', async () => {
  const rejecting = enclave5()
  rejecting.addHook('onClose', { async [Symbol.asyncDispose] () { throw new Error('pool did not drain') } })
  await rejecting.ready()
  await assert.rejects(rejecting.close(), { message: 'pool did not drain' })

  const throwing = enclave5()
  throwing.addHook('onClose', { [Symbol.dispose] () { throw new Error('handle already gone') } })
  await throwing.ready()
  await assert.rejects(throwing.close(), { message: 'handle already gone' })

  const resolving = enclave5()
  resolving.addHook('onClose', { async [Symbol.asyncDispose] () { return 'done' } })
  await resolving.ready()
  await resolving.close()
})

test('a plugin\'s onClose resource is disposed before its parent\'s, the order of onClose functions', async () => {
  const app = enclave5()
  const order: string[] = []
  app.register(async (child: any) => {
    child.addHook('onClose', { async [Symbol.asyncDispose] () { order.push('plugin') } })
  })
  app.addHook('onClose', { async [Symbol.asyncDispose] () { order.push('root') } })
  await app.ready()
  await app.close()
  assert.deepEqual(order, ['plugin', 'root'])
})

test('an object that is not disposable is still refused as an onClose hook', () => {
  const app = enclave5()
  assert.throws(() => app.addHook('onClose', { close () {} }), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
})
