import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import enclave from '../../src/index'
import { logSink } from '../helpers'

describe('request lifecycle hooks', () => {
  test('every hook runs once, in lifecycle order (async form)', async () => {
    const app: any = enclave()
    const order: string[] = []
    for (const name of ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse']) {
      app.addHook(name, async () => { order.push(name) })
    }
    app.post('/', async (req: any) => {
      order.push('handler')
      return { got: req.body }
    })
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { got: { a: 1 } })
    assert.deepEqual(order, ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  test('every hook runs once, in lifecycle order (callback form)', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('onRequest', (_req: any, _reply: any, done: any) => { order.push('onRequest'); done() })
    app.addHook('preParsing', (_req: any, _reply: any, payload: any, done: any) => { order.push('preParsing'); done(null, payload) })
    app.addHook('preValidation', (_req: any, _reply: any, done: any) => { order.push('preValidation'); done() })
    app.addHook('preHandler', (_req: any, _reply: any, done: any) => { order.push('preHandler'); done() })
    app.addHook('preSerialization', (_req: any, _reply: any, payload: any, done: any) => { order.push('preSerialization'); done(null, payload) })
    app.addHook('onSend', (_req: any, _reply: any, payload: any, done: any) => { order.push('onSend'); done(null, payload) })
    app.addHook('onResponse', (_req: any, _reply: any, done: any) => { order.push('onResponse'); done() })
    app.post('/', (req: any, reply: any) => {
      order.push('handler')
      reply.send({ got: req.body })
    })
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { got: { a: 1 } })
    assert.deepEqual(order, ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  test('instance hooks run before route-level hooks; route hooks accept a function or an array', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('preHandler', async () => { order.push('instance') })
    app.get('/single', { preHandler: async () => { order.push('route') } }, async () => 'ok')
    app.get('/array', {
      onRequest: [async () => { order.push('a1') }, (_r: any, _p: any, done: any) => { order.push('a2'); done() }]
    }, async () => 'ok')
    let res = await app.inject('/single')
    assert.equal(res.payload, 'ok')
    assert.deepEqual(order, ['instance', 'route'])
    order.length = 0
    res = await app.inject('/array')
    assert.equal(res.payload, 'ok')
    assert.deepEqual(order, ['a1', 'a2', 'instance'])
  })

  test('hooks are encapsulated: a child hook does not run for the parent routes', async () => {
    const app: any = enclave()
    const calls: string[] = []
    app.addHook('onRequest', async (req: any) => { calls.push('root:' + req.url) })
    app.register(async (child: any) => {
      child.addHook('onRequest', async (req: any) => { calls.push('child:' + req.url) })
      child.get('/child', async () => 'child')
    })
    app.get('/parent', async () => 'parent')
    await app.inject('/parent')
    await app.inject('/child')
    assert.deepEqual(calls, ['root:/parent', 'root:/child', 'child:/child'])
  })

  test('hooks are bound to the instance they were registered in', async () => {
    const app: any = enclave()
    let seen: any
    app.register(async (child: any) => {
      child.decorate('tag', 'child')
      child.addHook('onRequest', async function (this: any) { seen = this.tag })
      child.get('/', async () => 'ok')
    })
    await app.inject('/')
    assert.equal(seen, 'child')
  })

  test('preParsing may replace the payload stream', async () => {
    const app: any = enclave()
    app.addHook('preParsing', async (_req: any, _reply: any, payload: any) => {
      payload.resume()
      const replacement: any = Readable.from([Buffer.from('{"replaced":true}')])
      replacement.receivedEncodedLength = 17
      return replacement
    })
    app.post('/', async (req: any) => req.body)
    const res = await app.inject({ method: 'POST', url: '/', payload: { original: true } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { replaced: true })
  })

  test('preSerialization may change the payload before serialization', async () => {
    const app: any = enclave()
    app.addHook('preSerialization', async (_req: any, _reply: any, payload: any) => ({ ...payload, added: 1 }))
    app.addHook('preSerialization', (_req: any, _reply: any, payload: any, done: any) => done(null, { wrapped: payload }))
    app.get('/', async () => ({ a: 1 }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { wrapped: { a: 1, added: 1 } })
  })

  test('a string returned by preSerialization is serialized as JSON', async () => {
    const app: any = enclave()
    app.addHook('preSerialization', async () => 'replaced')
    app.get('/', async () => ({ a: 1 }))
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(res.payload, '"replaced"')
  })

  test('preSerialization is not called for a string payload', async () => {
    const app: any = enclave()
    let called = false
    app.addHook('preSerialization', async () => { called = true })
    app.get('/', async () => 'text')
    const res = await app.inject('/')
    assert.equal(res.payload, 'text')
    assert.equal(called, false)
  })

  test('onSend sees the serialized string and may replace it', async () => {
    const app: any = enclave()
    let seen: unknown
    app.addHook('onSend', async (_req: any, reply: any, payload: any) => {
      seen = payload
      reply.header('content-type', 'text/plain; charset=utf-8')
      return 'replaced'
    })
    app.get('/', async () => ({ a: 1 }))
    const res = await app.inject('/')
    assert.equal(seen, '{"a":1}')
    assert.equal(res.payload, 'replaced')
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.headers['content-length'], '8')
  })

  test('onSend callback form replaces the payload with done(null, value)', async () => {
    const app: any = enclave()
    app.addHook('onSend', (_req: any, _reply: any, payload: any, done: any) => done(null, payload + '!'))
    app.get('/', async () => 'hi')
    const res = await app.inject('/')
    assert.equal(res.payload, 'hi!')
  })

  test('onResponse runs after the response and sees the final status', async () => {
    const app: any = enclave()
    let status = 0
    app.addHook('onResponse', async (_req: any, reply: any) => { status = reply.statusCode })
    app.get('/', async (_req: any, reply: any) => reply.code(201).send('made'))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 201)
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(status, 201)
  })
})

describe('answering from a hook', () => {
  test('reply.send in onRequest skips the handler and the later hooks', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('onRequest', (_req: any, reply: any, _done: any) => { order.push('onRequest'); reply.code(401).send({ denied: true }) })
    app.addHook('preHandler', async () => { order.push('preHandler') })
    app.addHook('onSend', async () => { order.push('onSend') })
    app.addHook('onResponse', async () => { order.push('onResponse') })
    app.get('/', async () => { order.push('handler'); return 'no' })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { denied: true })
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(order, ['onRequest', 'onSend', 'onResponse'])
  })

  test('an async hook that sends and returns the reply ends the chain', async () => {
    const app: any = enclave()
    let handlerCalled = false
    app.addHook('preHandler', async (_req: any, reply: any) => reply.code(202).send('early'))
    app.get('/', async () => { handlerCalled = true; return 'late' })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 202)
    assert.equal(res.payload, 'early')
    assert.equal(handlerCalled, false)
  })

  test('an async hook that sends then resolves undefined does not run the handler', async () => {
    const app: any = enclave()
    let handlerCalled = false
    app.addHook('preValidation', async (_req: any, reply: any) => { reply.send('early') })
    app.get('/', async () => { handlerCalled = true; return 'late' })
    const res = await app.inject('/')
    assert.equal(res.payload, 'early')
    assert.equal(handlerCalled, false)
  })
})

describe('hook errors', () => {
  for (const [hook, style] of [['onRequest', 'throws'], ['preHandler', 'rejects'], ['preParsing', 'throws']] as const) {
    test(`a ${hook} hook that hijacks the reply and then ${style}: its failure is for nobody, nothing is logged or sent`, async () => {
      const sink = logSink()
      const app: any = enclave({ logger: { level: 'info', stream: sink.stream } })
      app.addHook(hook, style === 'throws'
        ? function (_request: any, reply: any) {
          reply.hijack()
          reply.raw.end('answered by the hook')
          throw new Error('after the hijack')
        }
        : async function (_request: any, reply: any) {
          reply.hijack()
          reply.raw.end('answered by the hook')
          throw new Error('after the hijack')
        })
      app.post('/', async () => 'handler')
      const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
      assert.equal(res.body, 'answered by the hook')
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(sink.lines.filter((line) => line.level >= 40), [])
    })
  }

  for (const [label, hook] of [
    ['thrown', () => { throw Object.assign(new Error('thrown'), { statusCode: 403 }) }],
    ['done(err)', (_req: any, _reply: any, done: any) => done(Object.assign(new Error('done(err)'), { statusCode: 403 }))],
    ['rejected', async () => { throw Object.assign(new Error('rejected'), { statusCode: 403 }) }]
  ] as const) {
    test(`an error from a hook (${label}) goes to the error handler with its statusCode`, async () => {
      const app: any = enclave()
      let handlerCalled = false
      app.addHook('preHandler', hook)
      app.get('/', async () => { handlerCalled = true; return 'no' })
      const res = await app.inject('/')
      assert.equal(res.statusCode, 403)
      assert.deepEqual(res.json(), { statusCode: 403, error: 'Forbidden', message: label })
      assert.equal(handlerCalled, false)
    })
  }

  test('an onRequest error is handled by a custom error handler', async () => {
    const app: any = enclave()
    app.setErrorHandler((err: any, _req: any, reply: any) => { reply.code(400).send({ custom: err.message }) })
    app.addHook('onRequest', async () => { throw new Error('nope') })
    app.get('/', async () => 'no')
    const res = await app.inject('/')
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { custom: 'nope' })
  })

  test('an onSend error is sent through the error handler', async () => {
    const app: any = enclave()
    app.addHook('onSend', async (_req: any, _reply: any, payload: any) => {
      if (payload === 'ok') throw new Error('onSend failed')
      return payload
    })
    app.get('/', async () => 'ok')
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'onSend failed' })
  })

  test('a preParsing error answers with its status', async () => {
    const app: any = enclave()
    app.addHook('preParsing', async () => { throw Object.assign(new Error('bad stream'), { statusCode: 400 }) })
    app.post('/', async () => 'no')
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'bad stream' })
  })

  test('an async hook with a done parameter is rejected', () => {
    const app: any = enclave()
    assert.throws(() => app.addHook('onRequest', async (_req: any, _reply: any, _done: any) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
    assert.throws(() => app.addHook('onSend', async (_req: any, _reply: any, _payload: any, _done: any) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  })

  test('an unknown hook name is rejected', () => {
    const app: any = enclave()
    assert.throws(() => app.addHook('onBanana', async () => {}), { code: 'FST_ERR_HOOK_NOT_SUPPORTED', message: 'onBanana hook not supported!' })
  })

  test('a hook that is not a function is rejected', () => {
    const app: any = enclave()
    assert.throws(() => app.addHook('onRequest', 'nope'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'onRequest hook should be a function, instead got [object String]' })
    // a missing function is named as given
    assert.throws(() => app.addHook('preHandler', null), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'preHandler hook should be a function, instead got null' })
    assert.throws(() => app.addHook('preParsing'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'preParsing hook should be a function, instead got undefined' })
  })
})

describe('onError and onTimeout', () => {
  test('onError runs before the error handler with the error (async and callback)', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('onError', async (_req: any, _reply: any, err: any) => { order.push('onError:' + err.message) })
    app.addHook('onError', (_req: any, _reply: any, err: any, done: any) => { order.push('onError2:' + err.message); done() })
    app.setErrorHandler((err: any, _req: any, reply: any) => {
      order.push('handler:' + err.message)
      reply.code(409).send({ handled: true })
    })
    app.get('/', async () => { throw new Error('boom') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 409)
    assert.deepEqual(res.json(), { handled: true })
    assert.deepEqual(order, ['onError:boom', 'onError2:boom', 'handler:boom'])
  })

  test('onTimeout runs when a socket stalls past connectionTimeout', async () => {
    const app: any = enclave({ connectionTimeout: 100 })
    let timedOutUrl: string | undefined
    const timedOut = new Promise<void>((resolve) => {
      app.addHook('onTimeout', async (req: any) => { timedOutUrl = req.url; resolve() })
    })
    app.get('/stall', async () => new Promise(() => {}))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const clientError = new Promise((resolve) => {
      http.get(address + '/stall', () => resolve('response')).on('error', (err) => resolve(err))
    })
    await timedOut
    assert.equal(timedOutUrl, '/stall')
    const outcome: any = await clientError
    assert.equal(outcome.code, 'ECONNRESET')
    await app.close()
  })
})

describe('onTimeout on kept-alive sockets', () => {
  test('one timeout listener per socket, however many requests it serves', async (t) => {
    const app: any = enclave({ connectionTimeout: 5000 })
    t.after(() => app.close())
    app.addHook('onTimeout', async () => {})
    app.get('/', async (req: any) => ({ listeners: req.raw.socket.listenerCount('timeout') }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    t.after(() => agent.destroy())
    const counts: number[] = []
    for (let i = 0; i < 12; i++) {
      const body: string = await new Promise((resolve, reject) => {
        http.get(address, { agent }, (res) => {
          let data = ''
          res.on('data', (chunk) => { data += chunk })
          res.on('end', () => resolve(data))
        }).on('error', reject)
      })
      counts.push(JSON.parse(body).listeners)
    }
    assert.equal(new Set(counts).size, 1, `listener counts: ${counts.join(',')}`)
  })

  test('an idle kept-alive socket timing out after a completed request does not run onTimeout', async (t) => {
    const app: any = enclave({ connectionTimeout: 80 })
    t.after(() => app.close())
    let timeouts = 0
    app.addHook('onTimeout', async () => { timeouts++ })
    app.get('/', async () => 'fast')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const agent = new http.Agent({ keepAlive: true })
    t.after(() => agent.destroy())
    const closed = new Promise<string>((resolve, reject) => {
      http.get(address, { agent }, (res) => {
        res.socket.once('close', () => resolve('closed'))
        res.resume()
      }).on('error', reject)
    })
    assert.equal(await closed, 'closed')
    assert.equal(timeouts, 0)
  })
})

describe('application hooks', () => {
  test('onRoute sees every route and may change its options', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.addHook('onRoute', (opts: any) => {
      seen.push(opts.method + ' ' + opts.url)
      if (opts.url === '/rewrite') opts.handler = async () => 'rewritten'
    })
    app.get('/rewrite', async () => 'original')
    app.post('/other', async () => 'other')
    const res = await app.inject('/rewrite')
    assert.equal(res.payload, 'rewritten')
    // the HEAD route exposed for a GET is a route of its own and goes through onRoute too, as in Fastify 4
    assert.deepEqual(seen, ['GET /rewrite', 'HEAD /rewrite', 'POST /other'])
  })

  test('onRoute is encapsulated and sees the prefixed url', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.register(async (child: any) => {
      child.addHook('onRoute', (opts: any) => { seen.push(opts.url) })
      child.get('/a', async () => 'a')
    }, { prefix: '/v1' })
    app.get('/root', async () => 'root')
    await app.ready()
    assert.deepEqual(seen, ['/v1/a', '/v1/a']) // GET, then its HEAD route
  })

  test('onRoute options carry Fastify 4\'s defaults: attachValidation false, logLevel \'\', routePath \'\' for a bare prefix, no config', async () => {
    const app: any = enclave()
    const seen: unknown[] = []
    app.register(async (child: any) => {
      child.addHook('onRoute', (opts: any) => {
        seen.push([opts.method, opts.url, opts.routePath, opts.attachValidation, opts.logLevel, 'config' in opts])
        opts.onRequest = async (_req: any, reply: any) => { reply.header('x-hooked', 'yes') }
      })
      child.get('/', { exposeHeadRoute: false }, async () => 'root')
      child.post('/x', { attachValidation: true, logLevel: 'warn', config: { a: 1 } }, async () => 'x')
    }, { prefix: '/v1' })
    await app.ready()
    // the '/v1/' variant is not shown to onRoute again (as in Fastify 4) but carries what the hook changed
    assert.deepEqual(seen, [
      ['GET', '/v1', '', false, '', false],
      ['POST', '/v1/x', '/x', true, 'warn', true]
    ])
    for (const url of ['/v1', '/v1/']) {
      const res = await app.inject(url)
      assert.equal(res.statusCode, 200)
      assert.equal(res.payload, 'root')
      assert.equal(res.headers['x-hooked'], 'yes')
    }
  })

  test('onRegister is called with each new child instance and its options', async () => {
    const app: any = enclave()
    const seen: unknown[] = []
    app.addHook('onRegister', (instance: any, opts: any) => { seen.push([instance.prefix, opts.prefix]) })
    app.register(async () => {}, { prefix: '/x' })
    await app.ready()
    assert.deepEqual(seen, [['/x', '/x']])
  })

  test('onReady runs in order with this = instance, in async and callback form', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.decorate('label', 'root')
    app.addHook('onReady', async function (this: any) { seen.push('async:' + this.label) })
    app.addHook('onReady', function (this: any, done: any) { seen.push('cb:' + this.label); done() })
    await app.ready()
    assert.deepEqual(seen, ['async:root', 'cb:root'])
  })

  test('an onReady error rejects ready()', async () => {
    const app: any = enclave()
    app.addHook('onReady', function (done: any) { done(new Error('not ready')) })
    await assert.rejects(app.ready(), { message: 'not ready' })
  })

  test('an async onReady rejection rejects ready()', async () => {
    const app: any = enclave()
    app.addHook('onReady', async () => { throw new Error('async not ready') })
    await assert.rejects(app.ready(), { message: 'async not ready' })
  })

  test('onClose hooks run at close in reverse order; preClose runs first', async () => {
    const app: any = enclave()
    const order: string[] = []
    app.addHook('onClose', async () => { order.push('close1') })
    app.addHook('onClose', (_instance: any, done: any) => { order.push('close2'); done() })
    app.addHook('preClose', async () => { order.push('preClose') })
    await app.ready()
    assert.deepEqual(order, [])
    await app.close()
    assert.deepEqual(order, ['preClose', 'close2', 'close1'])
  })

  test('addHook after the app has started throws FST_ERR_INSTANCE_ALREADY_LISTENING', async () => {
    const app: any = enclave()
    await app.ready()
    for (const name of ['onRequest', 'onReady', 'onClose', 'onRoute']) {
      assert.throws(() => app.addHook(name, async () => {}), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' }, name)
    }
  })

  test('onClose is called with this = its instance, in async and callback form', async () => {
    const app: any = enclave()
    const seen: boolean[] = []
    let childInstance: any
    app.register(async (child: any) => {
      childInstance = child
      child.addHook('onClose', async function (this: any, instance: any) { seen.push(this === child, instance === child) })
      child.addHook('onClose', function (this: any, instance: any, done: any) { seen.push(this === child, instance === child); done() })
    })
    await app.ready()
    await app.close()
    assert.ok(childInstance !== app)
    assert.deepEqual(seen, [true, true, true, true])
  })

  test('onClose receives the instance it was registered in', async () => {
    const app: any = enclave()
    let seen: any
    app.register(async (child: any) => {
      child.decorate('name2', 'child')
      child.addHook('onClose', async (instance: any) => { seen = instance.name2 })
    })
    await app.ready()
    await app.close()
    assert.equal(seen, 'child')
  })
})

test('a hook added to a parent after a child was registered still runs for the child\'s routes', async () => {
  const app = enclave()
  const calls: string[] = []
  await app.register(async (child: any) => {
    child.addHook('onRequest', async () => { calls.push('child') })
    child.get('/inner', async () => ({ ok: true }))
  })
  app.addHook('onRequest', async () => { calls.push('parent') })
  app.get('/outer', async () => ({ ok: true }))
  const inner = await app.inject({ url: '/inner' })
  assert.equal(inner.statusCode, 200)
  assert.deepEqual(calls, ['child', 'parent'])
  calls.length = 0
  await app.inject({ url: '/outer' })
  assert.deepEqual(calls, ['parent'])
})

test('onRequestAbort hooks take (request, done), run context by context, and an async one may not take done', async (t) => {
  const net = await import('node:net')
  const app: any = enclave()
  t.after(() => app.close())
  const order: string[] = []
  let allRan: () => void = () => {}
  const ran = new Promise<void>((resolve) => { allRan = resolve })
  app.addHook('onRequestAbort', function (request: any, done: () => void) { order.push(`root ${typeof request.id}`); done() })
  app.register(async (child: any) => {
    child.addHook('onRequestAbort', async () => { order.push('child') })
    child.get('/', {
      onRequestAbort: async () => { order.push('route'); allRan() }
    }, () => new Promise((resolve) => setTimeout(() => resolve('late'), 500)))
  })
  assert.throws(() => app.addHook('onRequestAbort', async (_request: any, _done: any) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  await app.listen({ port: 0 })
  const socket = net.connect(app.server.address().port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))
  setTimeout(() => socket.destroy(), 100)
  await ran
  assert.deepEqual(order, ['root string', 'child', 'route'])
})

test('a failing onResponse hook is logged as "request errored"', async () => {
  const sink = logSink()
  const app: any = enclave({ logger: { level: 'error', stream: sink.stream } })
  app.addHook('onResponse', (_request: any, _reply: any, done: (err: Error) => void) => done(new Error('kaboom')))
  app.get('/', async () => 'ok')
  await app.inject('/')
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(sink.lines.map((line) => [line.level, line.msg, line.err.message]), [[50, 'request errored', 'kaboom']])
})
