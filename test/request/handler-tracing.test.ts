/**
 * The `fastify.request.handler` tracing channel (Fastify 5, both levels): which events a handler call publishes, with
 * what, and the status an `error` subscriber reads.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import diagnostics from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import { enclave } from '../helpers'
import typedEnclave5 from '../../src/fastify5'

const enclave5 = typedEnclave5 as unknown as (options?: Record<string, any>) => any
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const

/** Subscribes to the five channels for the test's duration; records `[event, summary]` in order. */
function record (t: { after: (fn: () => void) => void }, summarize: (name: string, message: any) => unknown): Array<[string, unknown]> {
  const seen: Array<[string, unknown]> = []
  for (const name of EVENTS) {
    const channel = diagnostics.channel(`tracing:fastify.request.handler:${name}`)
    const handler = (message: unknown): void => { seen.push([name, summarize(name, message)]) }
    channel.subscribe(handler)
    t.after(() => channel.unsubscribe(handler))
  }
  return seen
}

test('a sync handler publishes start and end, with the request, the reply and the route pattern', async (t) => {
  const app = enclave()
  const objects = new Set<unknown>()
  const seen = record(t, (name, m) => {
    objects.add(m)
    return name === 'end' ? [m.route, m.async, m.request.params.id, typeof m.reply.send] : [m.route]
  })
  app.get('/items/:id', (_req: any, reply: any) => { reply.send('ok') })
  const res = await app.inject('/items/7')
  assert.equal(res.payload, 'ok')
  const route = { url: '/items/:id', method: 'GET' }
  assert.deepEqual(seen, [['start', [route]], ['end', [route, false, '7', 'function']]])
  assert.equal(objects.size, 1, 'one object per request for all events')
})

test('an async handler adds asyncStart and asyncEnd around sending what it resolved', async (t) => {
  const app = enclave5()
  const seen = record(t, (_name, m) => m.reply.sent)
  app.get('/', async () => 'value')
  const res = await app.inject('/')
  assert.equal(res.payload, 'value')
  assert.deepEqual(seen.map(([name]) => name), ['start', 'end', 'asyncStart', 'asyncEnd'])
  // sent between asyncStart and asyncEnd
  assert.deepEqual(seen.map(([, sent]) => sent), [false, false, false, true])
})

for (const [kind, handler] of [
  ['throws', () => { throw Object.assign(new Error('gone'), { statusCode: 410 }) }],
  ['rejects', async () => { throw Object.assign(new Error('gone'), { status: 410 }) }]
] as const) {
  test(`a handler that ${kind}: the error event carries the error and the status the answer will have`, async (t) => {
    const app = enclave5()
    const seen = record(t, (name, m) => name === 'error' ? [m.error.message, m.reply.statusCode] : null)
    app.get('/', handler)
    const res = await app.inject('/')
    assert.equal(res.statusCode, 410)
    const error = seen.find(([name]) => name === 'error')
    assert.deepEqual(error, ['error', ['gone', 410]])
  })
}

test('the error event reads 500 for an error without a valid status, and a custom error handler still sees the reply untouched', async (t) => {
  const app = enclave()
  const statuses: number[] = []
  record(t, (name, m) => { if (name === 'error') statuses.push(m.reply.statusCode) })
  let seenByHandler = 0
  app.setErrorHandler((_err: unknown, _req: any, reply: any) => {
    seenByHandler = reply.statusCode
    reply.code(503).send('custom')
  })
  app.get('/plain', async () => { throw new Error('plain') })
  app.get('/600', async () => { throw Object.assign(new Error('odd'), { statusCode: 600 }) })
  for (const url of ['/plain', '/600']) {
    const res = await app.inject(url)
    assert.deepEqual([res.statusCode, res.payload], [503, 'custom'])
  }
  assert.deepEqual(statuses, [500, 500])
  assert.equal(seenByHandler, 200)
})

test('a store bound to the start channel is the handler\'s context', async (t) => {
  const app = enclave()
  const store = new AsyncLocalStorage<string>()
  const start = diagnostics.tracingChannel('fastify.request.handler').start
  start.bindStore(store, (message: any) => `traced ${message.request.url}`)
  t.after(() => start.unbindStore(store))
  app.get('/where', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1))
    return store.getStore()
  })
  const res = await app.inject('/where')
  assert.equal(res.payload, 'traced /where')
})

test('without subscribers nothing is published and handlers answer as usual', async () => {
  const app = enclave()
  app.get('/', async () => ({ ok: true }))
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { ok: true })
  assert.equal(diagnostics.channel('tracing:fastify.request.handler:start').hasSubscribers, false)
})
