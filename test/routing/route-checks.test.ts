import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

test('a single async route hook that also declares done is accepted, and the request moves on once', async () => {
  const app = enclave()
  const calls: string[] = []
  app.post('/', {
    onRequest: async (_req: any, _reply: any, done: any) => { calls.push(`onRequest ${typeof done}`) },
    preParsing: async (_req: any, _reply: any, payload: any, _done: any) => payload,
    // calling done and resolving too must not run the rest of the chain twice
    preHandler: async (_req: any, _reply: any, done: any) => { calls.push('preHandler'); done() },
    preSerialization: async (_req: any, _reply: any, payload: any, _done: any) => ({ ...payload, serialized: true })
  }, async (req: any) => { calls.push('handler'); return { got: req.body } })
  const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { got: { a: 1 }, serialized: true })
  assert.deepEqual(calls, ['onRequest function', 'preHandler', 'handler'])
})

test('in a list of route hooks, an async hook that declares done is refused at registration', () => {
  const app = enclave()
  assert.throws(() => app.post('/', { onRequest: [async (_req: any, _reply: any, _done: any) => {}] }, () => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.throws(() => app.post('/', { onSend: [async (_req: any, _reply: any, _payload: any, _done: any) => {}] }, () => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.equal(app.hasRoute({ method: 'POST', url: '/' }), false)
})

test('a GET route\'s single async onSend with done: the GET is added, its automatic HEAD route refuses it (a list there)', async () => {
  const app = enclave()
  const onSend = async (_req: any, _reply: any, payload: any, _done: any) => payload
  assert.throws(() => app.get('/', { onSend }, async () => 'body'), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  app.get('/no-head', { onSend, exposeHeadRoute: false }, async () => 'body')
  assert.equal((await app.inject('/')).body, 'body')
  assert.equal((await app.inject({ method: 'HEAD', url: '/' })).statusCode, 404)
  assert.equal((await app.inject('/no-head')).body, 'body')
})
