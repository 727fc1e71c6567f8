import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { enclave } from '../helpers'
import enclave5 from '../../src/fastify5'

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

test('Fastify 5 level: an unknown route log level throws at registration; the Fastify 4 level fails ready() instead', async () => {
  const expected = {
    code: 'FST_ERR_ROUTE_LOG_LEVEL_INVALID',
    statusCode: 500,
    message: "Log level for 'GET:/api/log' route must be a valid logger level. Received: 'loud'"
  }
  const v5: any = enclave5({ logger: { level: 'info', stream: new PassThrough() } })
  assert.throws(() => v5.get('/api/log', { logLevel: 'loud' }, async () => 'x'), expected)
  assert.throws(() => v5.get('/api/log', { logLevel: 'loud' }, async () => 'x'), TypeError)
  // the plugin's register option is the route's level too, checked when its routes are registered
  v5.register(async (p: any) => {
    assert.throws(() => p.get('/log', async () => 'x'), expected)
    p.get('/custom', { logLevel: 'info' }, async () => 'ok')
  }, { prefix: '/api', logLevel: 'loud' })
  // known levels, 'silent', '' and null (none of its own) register
  v5.get('/silent', { logLevel: 'silent' }, async () => 'ok')
  v5.get('/none', { logLevel: '' }, async () => 'ok')
  v5.get('/null', { logLevel: null }, async () => 'null')
  assert.equal((await v5.inject('/api/custom')).payload, 'ok')
  assert.equal((await v5.inject('/silent')).payload, 'ok')
  assert.equal((await v5.inject('/null')).payload, 'null')
  await v5.close()

  // a logger that does not list its levels (logging off) takes any level
  const quiet: any = enclave5()
  quiet.get('/log', { logLevel: 'loud' }, async () => 'quiet')
  assert.equal((await quiet.inject('/log')).payload, 'quiet')

  const v4: any = enclave({ logger: { level: 'info', stream: new PassThrough() } })
  v4.get('/log', { logLevel: 'loud' }, async () => 'x')
  await assert.rejects(v4.ready(), { code: 'FST_ERR_ROUTE_OPTION_INVALID' })
  const nullLevel4: any = enclave({ logger: { level: 'info', stream: new PassThrough() } })
  nullLevel4.get('/null', { logLevel: null }, async () => 'null')
  assert.equal((await nullLevel4.inject('/null')).payload, 'null')
})
