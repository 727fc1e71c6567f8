/**
 * The request pipeline (src/request/pipeline.ts): the order of its steps, which step a request skips, and how an
 * answer or a failure at each step ends the remaining ones.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

const steps = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const

/** An app whose one route records every step it reaches in `request.trail` and answers with the trail. */
function tracingApp (answerAt?: string, failAt?: string): any {
  const app = enclave()
  app.decorateRequest('trail', null)
  app.addHook('onRequest', async (request: any) => { request.trail = [] })
  for (const step of steps) {
    app.addHook(step, async (request: any, reply: any) => {
      request.trail.push(step)
      if (step === answerAt) return reply.code(299).send({ answeredAt: step, trail: request.trail })
      if (step === failAt) throw Object.assign(new Error(`failed at ${step}`), { statusCode: 418 })
    })
  }
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: any, body: string, done: any) => {
    request.trail.push('parse')
    done(null, JSON.parse(body))
  })
  app.post('/', {
    schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } },
    validatorCompiler: () => (data: unknown) => { return { value: data } }
  }, async (request: any) => ({ trail: [...request.trail, 'handler'], body: request.body }))
  return app
}

test('a request goes onRequest → preParsing → parse → preValidation → preHandler → handler', async () => {
  const res = await tracingApp().inject({ method: 'POST', url: '/', payload: { n: 1 } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { trail: ['onRequest', 'preParsing', 'parse', 'preValidation', 'preHandler', 'handler'], body: { n: 1 } })
})

test('a hook that answers ends the pipeline there: no later hook, no parsing, no handler', async () => {
  const expected: Record<string, string[]> = {
    onRequest: ['onRequest'],
    preParsing: ['onRequest', 'preParsing'],
    preValidation: ['onRequest', 'preParsing', 'parse', 'preValidation'],
    preHandler: ['onRequest', 'preParsing', 'parse', 'preValidation', 'preHandler']
  }
  for (const step of steps) {
    const res = await tracingApp(step).inject({ method: 'POST', url: '/', payload: { n: 1 } })
    assert.equal(res.statusCode, 299, step)
    assert.deepEqual(res.json(), { answeredAt: step, trail: expected[step] }, step)
  }
})

test('a hook that fails ends the pipeline with its error: status from the error, default error body', async () => {
  for (const step of steps) {
    const res = await tracingApp(undefined, step).inject({ method: 'POST', url: '/', payload: { n: 1 } })
    assert.equal(res.statusCode, 418, step)
    assert.deepEqual(res.json(), { statusCode: 418, error: "I'm a Teapot", message: `failed at ${step}` }, step)
  }
})

test('GET and HEAD requests are never parsed, whatever they carry', async () => {
  const app = enclave()
  let parsed = 0
  app.addContentTypeParser('text/plain', (_request: any, _payload: any, done: any) => { parsed++; done(null, 'x') })
  app.get('/', async (request: any) => ({ body: request.body ?? null }))
  const res = await app.inject({ method: 'GET', url: '/', headers: { 'content-type': 'text/plain' }, payload: 'hello' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { body: null })
  const head = await app.inject({ method: 'HEAD', url: '/', headers: { 'content-type': 'text/plain' }, payload: 'hello' })
  assert.equal(head.statusCode, 200)
  assert.equal(parsed, 0)
})

test('DELETE is parsed only when it declares a content type and a body', async () => {
  const app = enclave()
  app.delete('/', async (request: any) => ({ body: request.body ?? null }))
  const bare = await app.inject({ method: 'DELETE', url: '/' })
  assert.deepEqual(bare.json(), { body: null })
  const typed = await app.inject({ method: 'DELETE', url: '/', payload: { a: 1 } })
  assert.deepEqual(typed.json(), { body: { a: 1 } })
})

test('a failed validation answers 400 before preHandler; with attachValidation the handler sees the error', async () => {
  const app = enclave()
  let preHandlers = 0
  app.addHook('preHandler', async () => { preHandlers++ })
  const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } } }
  app.get('/strict', { schema }, async () => 'unreachable')
  app.get('/lenient', { schema, attachValidation: true }, async (request: any) => ({ context: request.validationError.validationContext }))
  const strict = await app.inject('/strict?n=x')
  assert.equal(strict.statusCode, 400)
  assert.deepEqual(strict.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/n must be integer' })
  assert.equal(preHandlers, 0)
  const lenient = await app.inject('/lenient?n=x')
  assert.equal(lenient.statusCode, 200)
  assert.deepEqual(lenient.json(), { context: 'querystring' })
  assert.equal(preHandlers, 1)
})

test('the handler\'s result: a value is sent, the reply itself is not, a throw or a rejection is an error', async () => {
  const app = enclave()
  app.get('/value', () => ({ ok: true }))
  app.get('/reply', (_request: any, reply: any) => { setTimeout(() => reply.send('later'), 5); return reply })
  app.get('/throw', () => { throw new Error('sync') })
  app.get('/reject', async () => { throw new Error('async') })
  assert.deepEqual((await app.inject('/value')).json(), { ok: true })
  assert.equal((await app.inject('/reply')).body, 'later')
  const thrown = await app.inject('/throw')
  assert.equal(thrown.statusCode, 500)
  assert.equal(thrown.json().message, 'sync')
  const rejected = await app.inject('/reject')
  assert.equal(rejected.statusCode, 500)
  assert.equal(rejected.json().message, 'async')
})

test('the handler runs with this = the instance of the route\'s context', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.decorate('where', 'child')
    child.get('/', function (this: any) { return { where: this.where } })
  })
  assert.deepEqual((await app.inject('/')).json(), { where: 'child' })
})

test('an AsyncLocalStorage store entered in onRequest is still there after the body was read from the socket', async (t) => {
  const { AsyncLocalStorage } = await import('node:async_hooks')
  const http = await import('node:http')
  const storage = new AsyncLocalStorage<{ id: string }>()
  const app = enclave()
  t.after(() => app.close())
  app.addHook('onRequest', (request: any, _reply: any, done: () => void) => { storage.run({ id: request.id }, done) })
  app.post('/', async (request: any) => ({ store: storage.getStore() ?? null, body: request.body }))
  await app.listen({ port: 0 })
  const answer = await new Promise<string>((resolve, reject) => {
    const req = http.request({ port: app.server.address().port, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let data = ''
      res.on('data', (chunk) => { data += chunk })
      res.on('end', () => resolve(data))
    })
    req.on('error', reject)
    // the body comes later, in its own socket event
    setTimeout(() => req.end('{"a":1}'), 20)
  })
  assert.deepEqual(JSON.parse(answer), { store: { id: 'req-1' }, body: { a: 1 } })
})

test('a body parser that finishes in another async scope hands the request back in its own context, inside one content-type-parser:run resource that is then destroyed', async (t) => {
  const { AsyncLocalStorage, AsyncResource, createHook, executionAsyncId } = await import('node:async_hooks')
  const storage = new AsyncLocalStorage<string>()
  const created = new Set<number>()
  const destroyed = new Set<number>()
  const hook = createHook({
    init (id, type) { if (type === 'content-type-parser:run') created.add(id) },
    destroy (id) { if (created.has(id)) destroyed.add(id) }
  }).enable()
  const elsewhere = new AsyncResource('a-connection-pool')
  const app = enclave()
  t.after(async () => { hook.disable(); elsewhere.emitDestroy(); await app.close() })
  app.addHook('onRequest', (request: any, _reply: any, done: () => void) => { storage.run(request.headers['x-tenant'], done) })
  app.addContentTypeParser('text/x-later', { parseAs: 'string' }, (_request: any, body: string, done: any) => {
    // the parser's work finishes in a scope that knows nothing of the request (a pool, a worker's callback)
    elsewhere.runInAsyncScope(() => setImmediate(() => {
      if (body === 'fail') done(new Error('cannot parse'))
      else done(null, body.toUpperCase())
    }))
  })
  const seen = (request: any) => ({ tenant: storage.getStore() ?? null, inParserResource: created.has(executionAsyncId()), body: request.body ?? null })
  app.setErrorHandler((error: Error, request: any, reply: any) => { reply.code(400).send({ error: error.message, ...seen(request) }) })
  app.post('/', (request: any) => seen(request))
  const send = (tenant: string, payload: string) =>
    app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/x-later', 'x-tenant': tenant }, payload })
  const answers = await Promise.all([send('acme', 'one'), send('globex', 'two'), send('initech', 'fail')])
  assert.deepEqual(answers.map((answer) => [answer.statusCode, answer.json()]), [
    [200, { tenant: 'acme', inParserResource: true, body: 'ONE' }],
    [200, { tenant: 'globex', inParserResource: true, body: 'TWO' }],
    [400, { error: 'cannot parse', tenant: 'initech', inParserResource: true, body: null }]
  ])
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(created.size, 3)
  assert.deepEqual(destroyed, created)
})
