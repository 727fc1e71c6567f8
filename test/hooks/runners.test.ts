/**
 * The hook runners on their own: order, the two hook styles, errors, answered replies and payload replacement.
 * They are internal, so they are driven directly with stand-in request and reply objects.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runHooks, runPayloadHooks } from '../../src/hooks/runners'
import { kReplyErrorHandler } from '../../src/core/symbols'
import type { RequestState } from '../../src/request/request'
import type { ReplyState } from '../../src/reply/reply'

function standIns (): { request: RequestState, reply: ReplyState & { sent: boolean } } {
  const request = { id: 'r' } as unknown as RequestState
  const reply = { sent: false, [kReplyErrorHandler]: null } as unknown as ReplyState & { sent: boolean }
  return { request, reply }
}

/** Resolves with what the runner's `done` received. */
function run (hooks: Array<(...args: any[]) => unknown>, stopWhenAnswered = true, parts = standIns()): Promise<{ err: unknown, calls: number }> {
  return new Promise((resolve) => {
    let calls = 0
    runHooks(hooks, parts.request, parts.reply, stopWhenAnswered, (err) => {
      calls++
      setImmediate(() => resolve({ err, calls }))
    })
  })
}

test('hooks run in order, callback and async styles mixed, and done is called once with null', async () => {
  const order: string[] = []
  const { err, calls } = await run([
    (_req: unknown, _rep: unknown, done: () => void) => { order.push('callback'); done() },
    async () => { order.push('async') },
    (_req: unknown, _rep: unknown, done: () => void) => { setTimeout(() => { order.push('later'); done() }, 5) }
  ])
  assert.deepEqual(order, ['callback', 'async', 'later'])
  assert.equal(err, null)
  assert.equal(calls, 1)
})

test('a hook that calls done and also returns a promise moves the chain on once', async () => {
  let second = 0
  const { calls } = await run([
    (_req: unknown, _rep: unknown, done: () => void) => { done(); return Promise.resolve() },
    () => { second++; return Promise.resolve() }
  ])
  assert.equal(second, 1)
  assert.equal(calls, 1)
})

test('an error from done, a throw or a rejection stops the chain and reaches done', async () => {
  const cases: Array<(...args: any[]) => unknown> = [
    (_req: unknown, _rep: unknown, done: (err: unknown) => void) => done(new Error('from done')),
    () => { throw new Error('thrown') },
    async () => { throw new Error('rejected') }
  ]
  for (const failing of cases) {
    let after = 0
    const { err } = await run([failing, () => { after++ }])
    assert.ok(err instanceof Error)
    assert.equal(after, 0)
  }
})

test('a non-Error failure reaches done as it was thrown; undefined becomes FST_ERR_SEND_UNDEFINED_ERR', async () => {
  const thrown = { message: 'plain', statusCode: 418 }
  assert.equal((await run([async () => { throw thrown }])).err, thrown)
  assert.equal((await run([(_req: unknown, _rep: unknown, done: (err: unknown) => void) => done('a string')])).err, 'a string')
  const { err } = await run([() => Promise.reject(undefined)])
  assert.equal((err as { code?: string }).code, 'FST_ERR_SEND_UNDEFINED_ERR')
})

test('with stopWhenAnswered, a hook that answers ends the chain without calling done', async () => {
  const parts = standIns()
  let after = 0
  let doneCalls = 0
  await new Promise<void>((resolve) => {
    runHooks([
      (_req: unknown, reply: ReplyState & { sent: boolean }, done: () => void) => { reply.sent = true; done(); setImmediate(resolve) },
      () => { after++ }
    ], parts.request, parts.reply, true, () => { doneCalls++ })
  })
  assert.equal(after, 0)
  assert.equal(doneCalls, 0)
})

test('without stopWhenAnswered (onResponse, onTimeout) every hook runs even once answered', async () => {
  const parts = standIns()
  parts.reply.sent = true
  let ran = 0
  const { err } = await run([async () => { ran++ }, (_req: unknown, _rep: unknown, done: () => void) => { ran++; done() }], false, parts)
  assert.equal(ran, 2)
  assert.equal(err, null)
})

test('payload hooks: a value given to done or resolved replaces the payload; undefined keeps it', async () => {
  const { request, reply } = standIns()
  const result = await new Promise<unknown>((resolve) => {
    runPayloadHooks([
      (_req: unknown, _rep: unknown, payload: string, done: (err: null, value?: string) => void) => done(null, payload + '+callback'),
      async (_req: unknown, _rep: unknown, payload: string) => payload + '+async',
      async () => undefined
    ], request, reply, 'start', false, (_err, _reply, payload) => resolve(payload))
  })
  assert.equal(result, 'start+callback+async')
})

test('payload hooks: a failure stops the chain and reports the payload reached so far', async () => {
  const { request, reply } = standIns()
  let after = 0
  const outcome = await new Promise<{ err: unknown, payload: unknown }>((resolve) => {
    runPayloadHooks([
      async () => 'changed',
      async () => { throw new Error('boom') },
      () => { after++ }
    ], request, reply, 'start', false, (err, _reply, payload) => resolve({ err, payload }))
  })
  assert.equal((outcome.err as Error).message, 'boom')
  assert.equal(outcome.payload, 'changed')
  assert.equal(after, 0)
})
