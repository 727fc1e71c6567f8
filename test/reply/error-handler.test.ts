import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import { logSink } from '../helpers'

describe('default error handler', () => {
  test('answers { statusCode, error, message } and logs 5xx at error level', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    app.get('/', async () => { throw new Error('kaboom') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'kaboom' })
    const errorLines = sink.lines.filter((l) => l.level === 50)
    assert.equal(errorLines.length, 1)
    assert.equal(errorLines[0].msg, 'kaboom')
    assert.equal(errorLines[0].err.message, 'kaboom')
    assert.equal(errorLines[0].reqId, 'req-1')
  })

  test('4xx errors are logged at info level, not error', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    app.get('/', async () => { throw Object.assign(new Error('forbidden'), { statusCode: 403 }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 403)
    assert.equal(sink.lines.filter((l) => l.level === 50).length, 0)
    assert.equal(sink.lines.filter((l) => l.level === 30 && l.msg === 'forbidden').length, 1)
  })

  test('includes the error code when there is one', async () => {
    const app: any = enclave()
    app.get('/', async () => { throw Object.assign(new Error('coded'), { code: 'E_CODED', statusCode: 422 }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { statusCode: 422, code: 'E_CODED', error: 'Unprocessable Entity', message: 'coded' })
  })

  test('a numeric error code is reported as a string; a numeric-string statusCode is honoured', async () => {
    const app: any = enclave()
    app.get('/', async () => { throw Object.assign(new Error('n'), { code: 42, statusCode: '404' }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { statusCode: 404, code: '42', error: 'Not Found', message: 'n' })
  })

  test('errors with statusCode 418 keep it; `status` works too', async () => {
    const app: any = enclave()
    app.get('/a', async () => { throw Object.assign(new Error('tea'), { statusCode: 418 }) })
    app.get('/b', async () => { throw Object.assign(new Error('st'), { status: 403 }) })
    assert.equal((await app.inject('/a')).statusCode, 418)
    assert.deepEqual((await app.inject('/b')).json(), { statusCode: 403, error: 'Forbidden', message: 'st' })
  })

  test('an out-of-range statusCode on the error falls back to 500', async () => {
    const app: any = enclave()
    app.get('/', async () => { throw Object.assign(new Error('weird'), { statusCode: 200 }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'weird' })
  })

  test('reply.code(401).send(new Error()) keeps 401', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.code(401).send(new Error('who are you')) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'who are you' })
  })

  test('error.headers are applied to the response', async () => {
    const app: any = enclave()
    app.get('/', async () => { throw Object.assign(new Error('slow down'), { statusCode: 429, headers: { 'retry-after': '10' } }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 429)
    assert.equal(res.headers['retry-after'], '10')
    assert.deepEqual(res.json(), { statusCode: 429, error: 'Too Many Requests', message: 'slow down' })
  })

  for (const [label, value] of [['null', null], ['undefined', undefined]] as const) {
    test(`throwing ${label} gives one well-formed 500 (FST_ERR_SEND_UNDEFINED_ERR)`, async () => {
      const app: any = enclave()
      app.get('/', async () => { throw value })
      const res = await app.inject('/')
      assert.equal(res.statusCode, 500)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
      assert.deepEqual(res.json(), { statusCode: 500, code: 'FST_ERR_SEND_UNDEFINED_ERR', error: 'Internal Server Error', message: 'Undefined error has occurred' })
    })
  }

  test('a thrown string is the body of the 500, as Fastify sends it', async () => {
    const app: any = enclave()
    app.get('/', async () => { throw 'just a string' })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.body, 'just a string')
  })


  test('a sync handler that throws gives 500', async () => {
    const app: any = enclave()
    app.get('/', () => { throw new Error('sync throw') })
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'sync throw' })
  })
})

describe('setErrorHandler', () => {
  test('a custom handler answers, with this = the instance it was set on', async () => {
    const app: any = enclave()
    let self: any
    app.setErrorHandler(function (this: any, err: any, req: any, reply: any) {
      self = this
      reply.code(503).send({ handled: err.message, url: req.url })
    })
    app.get('/', async () => { throw new Error('x') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 503)
    assert.deepEqual(res.json(), { handled: 'x', url: '/' })
    assert.equal(self, app)
  })

  test('is encapsulated: a child handler only serves child routes', async () => {
    const app: any = enclave()
    let childThis: any
    let childInstance: any
    app.setErrorHandler((_err: any, _req: any, reply: any) => { reply.send({ by: 'root' }) })
    app.register(async (child: any) => {
      childInstance = child
      child.setErrorHandler(function (this: any, _err: any, _req: any, reply: any) {
        childThis = this
        reply.send({ by: 'child' })
      })
      child.get('/child', async () => { throw new Error('c') })
    })
    app.get('/parent', async () => { throw new Error('p') })
    assert.deepEqual((await app.inject('/parent')).json(), { by: 'root' })
    assert.deepEqual((await app.inject('/child')).json(), { by: 'child' })
    assert.equal(childThis, childInstance)
  })

  test('a value returned by an async handler is sent', async () => {
    const app: any = enclave()
    app.setErrorHandler(async (err: any, _req: any, reply: any) => {
      reply.code(400)
      return { returned: err.message }
    })
    app.get('/', async () => { throw new Error('r') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { returned: 'r' })
  })

  test('an error thrown in a child handler falls back to the parent handler', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      seen.push('root:' + err.message)
      reply.code(502).send({ root: err.message })
    })
    app.register(async (child: any) => {
      child.setErrorHandler(async (err: any) => {
        seen.push('child:' + err.message)
        throw new Error('rethrown')
      })
      child.get('/', async () => { throw new Error('original') })
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 502)
    assert.deepEqual(res.json(), { root: 'rethrown' })
    assert.deepEqual(seen, ['child:original', 'root:rethrown'])
  })

  test('an error sent by the root custom handler falls back to the default handler', async () => {
    const app: any = enclave()
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      reply.send(Object.assign(new Error('wrapped ' + err.message), { statusCode: 422 }))
    })
    app.get('/', async () => { throw new Error('inner') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { statusCode: 422, error: 'Unprocessable Entity', message: 'wrapped inner' })
  })

  test('a thrown error in the root custom handler reaches the default handler', async () => {
    const app: any = enclave()
    app.setErrorHandler(() => { throw new Error('handler broke') })
    app.get('/', async () => { throw new Error('inner') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'handler broke' })
  })

  test('a route errorHandler option takes precedence and falls back to the instance handler', async () => {
    const app: any = enclave()
    app.setErrorHandler((err: any, _req: any, reply: any) => { reply.code(500).send({ instance: err.message }) })
    app.get('/own', { errorHandler: (_err: any, _req: any, reply: any) => { reply.code(400).send({ route: true }) } }, async () => { throw new Error('a') })
    app.get('/fallback', { errorHandler: () => { throw new Error('from route handler') } }, async () => { throw new Error('b') })
    assert.deepEqual((await app.inject('/own')).json(), { route: true })
    assert.deepEqual((await app.inject('/fallback')).json(), { instance: 'from route handler' })
  })

  test('a custom handler sets its own status: the reply is still 200 there, whatever the error says (as in Fastify 4)', async () => {
    const app: any = enclave()
    const seen: number[] = []
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      seen.push(reply.statusCode)
      if (err.message === 'teapot') reply.code(418)
      reply.send({ m: err.message })
    })
    app.get('/plain', async () => { throw new Error('plain') })
    app.get('/conflict', async () => { throw Object.assign(new Error('conflict'), { statusCode: 409 }) })
    app.get('/teapot', async () => { throw new Error('teapot') })
    app.get('/v', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => 'x')
    const statuses = []
    for (const url of ['/plain', '/conflict', '/teapot', '/v?n=x']) statuses.push((await app.inject(url)).statusCode)
    assert.deepEqual(statuses, [200, 200, 418, 200])
    assert.deepEqual(seen, [200, 200, 200, 200])
  })

  test('the error\'s own status and headers are applied by the default handler only', async () => {
    const app: any = enclave()
    const limited = () => Object.assign(new Error('slow down'), { statusCode: 429, headers: { 'retry-after': '5' } })
    app.get('/default', async () => { throw limited() })
    app.register(async (child: any) => {
      child.setErrorHandler((_err: any, _req: any, reply: any) => { reply.send({ status: reply.statusCode, retryAfter: reply.getHeader('retry-after') ?? null }) })
      child.get('/custom', async () => { throw limited() })
    })
    const byDefault = await app.inject('/default')
    assert.equal(byDefault.statusCode, 429)
    assert.equal(byDefault.headers['retry-after'], '5')
    const byCustom = await app.inject('/custom')
    assert.equal(byCustom.statusCode, 200)
    assert.equal(byCustom.headers['retry-after'], undefined)
    assert.deepEqual(byCustom.json(), { status: 200, retryAfter: null })
  })

  test('a value thrown that is not an Error reaches the custom handler as it was thrown', async () => {
    const app: any = enclave()
    app.setErrorHandler((err: any, _req: any, reply: any) => { reply.send({ type: typeof err, isError: err instanceof Error, err }) })
    app.get('/string', async () => { throw 'a string' })
    app.get('/object', () => { throw { message: 'obj', extra: 1, statusCode: 409 } })
    app.get('/hook', { preHandler: (_req: any, _reply: any, done: any) => done({ reason: 'denied' }) }, async () => 'no')
    assert.deepEqual((await app.inject('/string')).json(), { type: 'string', isError: false, err: 'a string' })
    assert.deepEqual((await app.inject('/object')).json(), { type: 'object', isError: false, err: { message: 'obj', extra: 1, statusCode: 409 } })
    assert.deepEqual((await app.inject('/hook')).json(), { type: 'object', isError: false, err: { reason: 'denied' } })
  })

  test('the default handler sends a thrown plain object as the payload, with its statusCode or status', async () => {
    const app: any = enclave()
    app.get('/object', async () => { throw { message: 'obj', detail: 'the thrower\'s own field', status: 404 } })
    app.get('/plain', async () => { throw { myError: 'kaboom', message: 'i am an error' } })
    const withStatus = await app.inject('/object')
    assert.equal(withStatus.statusCode, 404)
    assert.deepEqual(withStatus.json(), { message: 'obj', detail: 'the thrower\'s own field', status: 404 })
    const plain = await app.inject('/plain')
    assert.equal(plain.statusCode, 500)
    assert.deepEqual(plain.json(), { myError: 'kaboom', message: 'i am an error' })
  })

  test('a plain (not async) handler that returns a value answers with it', async () => {
    const app: any = enclave()
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      reply.code(503)
      return { handled: err.message }
    })
    app.get('/', () => { throw new Error('boom') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 503)
    assert.deepEqual(res.json(), { handled: 'boom' })
  })

  test('an async handler resolving undefined without sending answers an empty body, not a hanging request', async () => {
    const app: any = enclave()
    app.setErrorHandler(async () => undefined)
    app.get('/', async () => { throw Object.assign(new Error('x'), { statusCode: 409 }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, '')
  })

  test('reply.serializer and setReplySerializer are not used for the default error body', async () => {
    const app: any = enclave()
    app.setReplySerializer(() => 'context serializer')
    app.get('/', (_req: any, reply: any) => {
      reply.serializer(() => 'reply serializer')
      reply.send(Object.assign(new Error('json please'), { statusCode: 400 }))
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'json please' })
  })

  test('setErrorHandler after the app has started throws FST_ERR_INSTANCE_ALREADY_LISTENING', async () => {
    const app: any = enclave()
    await app.ready()
    assert.throws(() => app.setErrorHandler(() => {}), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
  })

  test('a non-function throws FST_ERR_ERROR_HANDLER_NOT_FN', () => {
    const app: any = enclave()
    assert.throws(() => app.setErrorHandler('nope'), { code: 'FST_ERR_ERROR_HANDLER_NOT_FN' })
  })

  test('the status a handler sets is reset for every request', async () => {
    const app: any = enclave()
    app.setErrorHandler((_err: any, _req: any, reply: any) => {
      const before = reply.statusCode
      reply.code(409).send({ before })
    })
    app.get('/', async () => { throw new Error('x') })
    assert.deepEqual((await app.inject('/')).json(), { before: 200 })
    assert.deepEqual((await app.inject('/')).json(), { before: 200 })
  })
})

describe('onError hooks', () => {
  test('run before the error handler and cannot send', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    let caught: any
    const order: string[] = []
    app.addHook('onError', (_req: any, reply: any, _err: any, done: any) => {
      order.push('onError')
      try { reply.send('from onError') } catch (err) { caught = err }
      done()
    })
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      order.push('handler')
      reply.code(500).send({ handled: err.message })
    })
    app.get('/', async () => { throw new Error('e') })
    const res = await app.inject('/')
    assert.equal(caught.code, 'FST_ERR_SEND_INSIDE_ONERR')
    assert.deepEqual(order, ['onError', 'handler'])
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { handled: 'e' })
  })

  test('an onError hook that throws its FST_ERR_SEND_INSIDE_ONERR still yields one response', async () => {
    const app: any = enclave()
    app.addHook('onError', async (_req: any, reply: any) => { reply.send('nope') })
    app.get('/', async () => { throw Object.assign(new Error('original'), { statusCode: 400 }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'original' })
  })

  test('are encapsulated and only run for errors', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.register(async (child: any) => {
      child.addHook('onError', async (req: any) => { seen.push(req.url) })
      child.get('/child', async () => { throw new Error('c') })
      child.get('/ok', async () => 'ok')
    })
    app.get('/parent', async () => { throw new Error('p') })
    await app.inject('/parent')
    await app.inject('/ok')
    await app.inject('/child')
    assert.deepEqual(seen, ['/child'])
  })

  test('an onSend hook failing on the error body yields one 500, not a loop', async () => {
    const app: any = enclave()
    let calls = 0
    app.addHook('onSend', async () => { calls++; throw new Error('onSend failed ' + calls) })
    app.get('/', async () => { throw new Error('handler failed') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'onSend failed 1' })
    assert.equal(calls, 1)
  })

  test('run once even when the error falls back through several handlers', async () => {
    const app: any = enclave()
    let count = 0
    app.addHook('onError', async () => { count++ })
    app.setErrorHandler(() => { throw new Error('again') })
    app.get('/', async () => { throw new Error('first') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(count, 1)
  })
})
