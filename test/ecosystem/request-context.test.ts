import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { fastifyRequestContext, requestContext } from '@fastify/request-context'
import enclave from '../../src/index'

const context = requestContext as any

test('request-context: a value set in onRequest is read in the handler, through the module and the request', async () => {
  const app: any = enclave()
  app.register(fastifyRequestContext, { defaultStoreValues: { user: { id: 'system' } } })
  app.addHook('onRequest', async (request: any) => {
    if (request.headers['x-user'] !== undefined) request.requestContext.set('user', { id: request.headers['x-user'] })
  })
  app.get('/', async function (this: any, request: any) {
    return { module: context.get('user'), request: request.requestContext.get('user'), instance: this.requestContext.get('user') }
  })
  const named = await app.inject({ url: '/', headers: { 'x-user': 'ada' } })
  assert.equal(named.statusCode, 200)
  assert.deepEqual(named.json(), { module: { id: 'ada' }, request: { id: 'ada' }, instance: { id: 'ada' } })
  const anonymous = await app.inject('/')
  assert.deepEqual(anonymous.json(), { module: { id: 'system' }, request: { id: 'system' }, instance: { id: 'system' } })
  await app.close()
})

test('request-context: concurrent requests keep their own values across awaits', async () => {
  const app: any = enclave()
  app.register(fastifyRequestContext)
  app.addHook('onRequest', async (request: any) => { context.set('tag', request.query.tag) })
  app.get('/', async (request: any) => {
    await sleep(Number(request.query.wait))
    return { tag: context.get('tag') }
  })
  const answers = await Promise.all([
    app.inject('/?tag=slow&wait=30'),
    app.inject('/?tag=fast&wait=1'),
    app.inject('/?tag=middle&wait=15')
  ])
  assert.deepEqual(answers.map((res: any) => res.json().tag), ['slow', 'fast', 'middle'])
  await app.close()
})

test('request-context: a value set in onRequest survives body parsing and is seen by preValidation and the handler', async () => {
  const app: any = enclave()
  app.register(fastifyRequestContext)
  app.addHook('onRequest', async (request: any) => { context.set('trace', request.headers['x-trace']) })
  const seen: unknown[] = []
  app.addHook('preValidation', async () => { seen.push(context.get('trace')) })
  app.post('/items', {
    schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }
  }, async (request: any) => ({ name: request.body.name, trace: context.get('trace') }))
  const res = await app.inject({ method: 'POST', url: '/items', headers: { 'x-trace': 't-1' }, payload: { name: 'pen' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { name: 'pen', trace: 't-1' })
  assert.deepEqual(seen, ['t-1'])
  await app.close()
})

test('request-context: defaultStoreValues may be a function of the request; the hook option moves the store\'s start', async () => {
  const app: any = enclave()
  app.register(fastifyRequestContext, {
    hook: 'preValidation',
    defaultStoreValues: (request: any) => ({ path: request.url })
  })
  let inOnRequest: unknown = 'not run'
  app.addHook('onRequest', async () => { inOnRequest = context.get('path') })
  app.get('/where', async () => ({ path: context.get('path') }))
  const res = await app.inject('/where')
  assert.deepEqual(res.json(), { path: '/where' })
  // before the store starts there is none
  assert.equal(inOnRequest, undefined)
  await app.close()
})

test('request-context: values do not leak into the next request, also over a real socket', async (t) => {
  const app: any = enclave()
  app.register(fastifyRequestContext)
  app.get('/set', async () => {
    context.set('secret', 'only-mine')
    return { secret: context.get('secret') }
  })
  app.get('/read', async () => ({ secret: context.get('secret') ?? null }))
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${app.server.address().port}`
  assert.deepEqual(await (await fetch(`${base}/set`)).json(), { secret: 'only-mine' })
  assert.deepEqual(await (await fetch(`${base}/read`)).json(), { secret: null })
})
