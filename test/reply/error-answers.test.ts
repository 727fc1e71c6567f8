/**
 * How errors are answered where Fastify 5's suite showed gaps: the status the default handler picks, odd thrown
 * values per level, a content type set on the raw response, onError hearing of a failed error answer, and the
 * `allowErrorHandlerOverride` option.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { enclave } from '../helpers'
import typedEnclave5 from '../../src/fastify5'

const enclave5 = typedEnclave5 as unknown as (options?: Record<string, any>) => any
const levels = [['4', enclave], ['5', enclave5]] as const

for (const [level, factory] of levels) {
  test(`Fastify ${level} level: the error's own status wins over one the reply had; without one the reply's error status stays`, async () => {
    const app = factory()
    app.get('/coded', async (_req: any, reply: any) => { reply.code(404); throw Object.assign(new Error('busy'), { statusCode: 503 }) })
    app.get('/status', async (_req: any, reply: any) => { reply.code(404); throw Object.assign(new Error('teapot'), { status: 418 }) })
    app.get('/plain', async (_req: any, reply: any) => { reply.code(404); throw new Error('gone') })
    app.get('/invalid', async (_req: any, reply: any) => { reply.code(404); throw Object.assign(new Error('odd'), { statusCode: 600 }) })
    app.get('/success-status', async (_req: any, reply: any) => { reply.code(201); throw new Error('late') })
    const statuses: Record<string, number> = {}
    for (const url of ['/coded', '/status', '/plain', '/invalid', '/success-status']) statuses[url] = (await app.inject(url)).statusCode
    assert.deepEqual(statuses, { '/coded': 503, '/status': 418, '/plain': 404, '/invalid': 404, '/success-status': 500 })
  })

  test(`Fastify ${level} level: a custom handler that set 400 then throws an error with its own status answers that status`, async () => {
    const app = factory()
    app.setErrorHandler((_err: unknown, _req: any, reply: any) => {
      reply.code(400)
      throw Object.assign(new Error('unavailable'), { statusCode: 503 })
    })
    app.get('/', async () => { throw new Error('first') })
    const res = await app.inject('/')
    assert.deepEqual([res.statusCode, res.json()], [503, { statusCode: 503, error: 'Service Unavailable', message: 'unavailable' }])
  })

  test(`Fastify ${level} level: a thrown symbol is answered 500 with an empty JSON body`, async () => {
    const app = factory()
    app.get('/', () => { throw Symbol('odd') })
    const res = await app.inject('/')
    assert.deepEqual([res.statusCode, res.headers['content-type'], res.payload], [500, 'application/json; charset=utf-8', ''])
  })

  test(`Fastify ${level} level: a content type set on the raw response decides how send() treats the payload`, async () => {
    const app = factory()
    app.get('/object', (_req: any, reply: any) => { reply.raw.setHeader('content-type', 'text/plain'); reply.send({ a: 1 }) })
    app.get('/html', (_req: any, reply: any) => { reply.raw.setHeader('content-type', 'text/html'); reply.send('<b>hi</b>') })
    app.get('/json', (_req: any, reply: any) => { reply.raw.setHeader('content-type', 'application/json'); reply.send('{"a":1}') })
    const object = await app.inject('/object')
    assert.deepEqual([object.statusCode, object.json().code], [500, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE'])
    const html = await app.inject('/html')
    assert.deepEqual([html.statusCode, html.headers['content-type'], html.payload], [200, 'text/html', '<b>hi</b>'])
    const json = await app.inject('/json')
    assert.deepEqual([json.headers['content-type'], json.payload], ['application/json; charset=utf-8', '{"a":1}'])
  })

  test(`Fastify ${level} level: a stream failing before its first byte leaves its content type to the error handler's answer`, async (t) => {
    const app = factory()
    app.get('/', async (_req: any, reply: any) => {
      const stream = new Readable({ read () { this.push('partial') } })
      process.nextTick(() => stream.destroy(new Error('stream failed')))
      reply.type('application/text')
      return reply.send(stream)
    })
    let seen = ''
    app.setErrorHandler((err: Error, _req: any, reply: any) => {
      seen = err.message
      reply.code(400).send({ error: err.message })
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await fetch(address)
    assert.equal(seen, 'stream failed')
    // an object under 'application/text' cannot be written: Fastify's documented pitfall for stream replies
    assert.equal(res.status, 500)
    assert.equal((await res.json()).code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  })

  test(`Fastify ${level} level: onError hears once more of a failure to send the default handler's answer`, async () => {
    for (const hook of ['preSerialization', 'onSend'] as const) {
      const app = factory()
      const heard: string[] = []
      app.addHook(hook, async (_req: any, reply: any, payload: unknown) => {
        reply.header('x-broken', 'a\nb')
        return payload
      })
      app.addHook('onError', (_req: any, _reply: any, err: any, done: () => void) => { heard.push(err.code); done() })
      app.get('/', async () => ({ ok: true }))
      const res = await app.inject('/')
      assert.equal(res.statusCode, 500, hook)
      assert.equal(res.json().code, 'ERR_INVALID_CHAR', hook)
      assert.equal(res.headers['x-broken'], undefined, hook)
      assert.deepEqual(heard, ['ERR_INVALID_CHAR', 'ERR_INVALID_CHAR'], hook)
    }
  })

  test(`Fastify ${level} level: a custom handler's answer failing in onSend goes to the default handler; onError hears of the last failure`, async () => {
    const app = factory()
    const heard: string[] = []
    app.addHook('onSend', async () => { throw new Error('onSend failed') })
    app.addHook('onError', (_req: any, _reply: any, err: Error, done: () => void) => { heard.push(err.message); done() })
    app.setErrorHandler((err: Error, _req: any, reply: any) => { heard.push(`handler: ${err.message}`); reply.send({ handled: true }) })
    app.get('/', async () => { throw new Error('route failed') })
    const res = await app.inject('/')
    assert.deepEqual([res.statusCode, res.json().message], [500, 'onSend failed'])
    assert.deepEqual(heard, ['route failed', 'handler: route failed', 'onSend failed'])
  })

  test(`Fastify ${level} level: allowErrorHandlerOverride: false refuses a second setErrorHandler in one scope`, async () => {
    const app = factory({ allowErrorHandlerOverride: false })
    app.setErrorHandler(() => {})
    assert.throws(() => app.setErrorHandler(() => {}), {
      code: 'FST_ERR_ERROR_HANDLER_ALREADY_SET',
      message: "Error Handler already set in this scope. Set 'allowErrorHandlerOverride: true' to allow overriding."
    })
    let childThrew: unknown
    app.register(async (child: any) => {
      // a child scope may set its own once
      child.setErrorHandler(() => {})
      try { child.setErrorHandler(() => {}) } catch (err) { childThrew = err }
    })
    await app.ready()
    assert.equal((childThrew as { code?: string }).code, 'FST_ERR_ERROR_HANDLER_ALREADY_SET')
    assert.throws(() => factory({ allowErrorHandlerOverride: 'no' }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  })
}

test('a handler throwing null or undefined: the Fastify 4 level answers FST_ERR_SEND_UNDEFINED_ERR, the Fastify 5 level sends the value', async () => {
  const answers: Record<string, unknown[]> = {}
  for (const [level, factory] of levels) {
    const app = factory()
    app.get('/null', () => { throw null })
    app.get('/undefined', async () => { throw undefined })
    for (const url of ['/null', '/undefined']) {
      const res = await app.inject(url)
      answers[`${level} ${url}`] = [res.statusCode, res.headers['content-type'], res.payload]
    }
  }
  const undefinedError = JSON.stringify({ statusCode: 500, code: 'FST_ERR_SEND_UNDEFINED_ERR', error: 'Internal Server Error', message: 'Undefined error has occurred' })
  assert.deepEqual(answers, {
    '4 /null': [500, 'application/json; charset=utf-8', undefinedError],
    '4 /undefined': [500, 'application/json; charset=utf-8', undefinedError],
    '5 /null': [500, 'application/json; charset=utf-8', 'null'],
    '5 /undefined': [500, undefined, '']
  })
})

test('a second setErrorHandler in one scope warns FSTWRN004 at the Fastify 5 level only', async () => {
  const warnings: string[] = []
  const onWarning = (warning: any): void => { if (warning.code === 'FSTWRN004') warnings.push(String(warning.name)) }
  process.on('warning', onWarning)
  try {
    for (const factory of [enclave, enclave5]) {
      const app = factory()
      app.setErrorHandler(() => {})
      app.setErrorHandler(() => {})
    }
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  assert.deepEqual(warnings, ['FastifyWarning'])
})
