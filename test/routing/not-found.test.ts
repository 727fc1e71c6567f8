import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { enclave } from '../helpers'

test('default 404 payload names the method and url', async () => {
  const app = enclave()
  app.get('/exists', async () => 'yes')
  const res = await app.inject('/x')
  assert.equal(res.statusCode, 404)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(res.json(), { message: 'Route GET:/x not found', error: 'Not Found', statusCode: 404 })
  const post = await app.inject({ method: 'POST', url: '/exists?a=1' })
  assert.equal(post.statusCode, 404)
  assert.deepEqual(post.json(), { message: 'Route POST:/exists?a=1 not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('404 also without any route and under an unknown prefix', async () => {
  const app = enclave()
  for (const url of ['/', '/a/b/c', '/v1']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { message: `Route GET:${url} not found`, error: 'Not Found', statusCode: 404 })
  }
  await app.close()
})

test('setNotFoundHandler at the root replaces the default', async () => {
  const app = enclave()
  app.setNotFoundHandler(async (req: any, reply: any) => {
    reply.code(404).header('x-nf', 'root')
    return { custom: true, url: req.url, is404: req.is404 }
  })
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 404)
  assert.equal(res.headers['x-nf'], 'root')
  assert.deepEqual(res.json(), { custom: true, url: '/missing', is404: true })
  await app.close()
})

test('not-found handlers are encapsulated by prefix', async () => {
  const app = enclave()
  app.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send({ handler: 'root' }) })
  app.register(async (v1: any) => {
    v1.get('/known', async () => 'known')
    v1.setNotFoundHandler((req: any, reply: any) => { reply.code(404).send({ handler: 'v1', url: req.url }) })
    v1.register(async (deeper: any) => {
      deeper.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send({ handler: 'v1/deep' }) })
    }, { prefix: '/deep' })
  }, { prefix: '/v1' })
  app.register(async (v2: any) => { v2.get('/known', async () => 'v2') }, { prefix: '/v2' })
  await app.ready()
  assert.deepEqual((await app.inject('/v1/unknown')).json(), { handler: 'v1', url: '/v1/unknown' })
  assert.deepEqual((await app.inject('/v1/a/b')).json(), { handler: 'v1', url: '/v1/a/b' })
  assert.deepEqual((await app.inject('/v1')).json(), { handler: 'v1', url: '/v1' })
  assert.deepEqual((await app.inject('/v1/')).json(), { handler: 'v1', url: '/v1/' })
  // the app is case-sensitive, so is the choice of not-found handler
  assert.deepEqual((await app.inject('/V1/x')).json(), { handler: 'root' })
  assert.deepEqual((await app.inject('/v1/deep/x')).json(), { handler: 'v1/deep' })
  assert.deepEqual((await app.inject('/unknown')).json(), { handler: 'root' })
  assert.deepEqual((await app.inject('/v2/unknown')).json(), { handler: 'root' })
  assert.deepEqual((await app.inject('/v10')).json(), { handler: 'root' })
  assert.equal((await app.inject('/v1/known')).payload, 'known')
  await app.close()
})

test('a prefixed not-found handler works with the root default left in place', async () => {
  const app = enclave()
  app.register(async (v1: any) => {
    v1.setNotFoundHandler((_req: any, reply: any) => { reply.code(418).send('teapot') })
  }, { prefix: '/v1' })
  const inside = await app.inject({ method: 'DELETE', url: '/v1/nope' })
  assert.equal(inside.statusCode, 418)
  assert.equal(inside.payload, 'teapot')
  const outside = await app.inject('/nope')
  assert.deepEqual(outside.json(), { message: 'Route GET:/nope not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('the not-found handler runs its own context\'s hooks, and setNotFoundHandler options hooks', async () => {
  const app = enclave()
  const calls: string[] = []
  app.addHook('onRequest', async (req: any) => { calls.push(`root onRequest ${req.url}`) })
  app.register(async (v1: any) => {
    v1.addHook('onRequest', async (req: any) => { calls.push(`v1 onRequest ${req.url}`) })
    v1.addHook('onSend', async (_req: any, reply: any) => { reply.header('x-v1', 'yes') })
    v1.setNotFoundHandler({
      preValidation: async () => { calls.push('v1 preValidation') },
      preHandler: [async () => { calls.push('v1 preHandler') }]
    }, (_req: any, reply: any) => { reply.code(404).send('v1 missing') })
  }, { prefix: '/v1' })
  await app.ready()

  const res = await app.inject('/v1/x')
  assert.equal(res.statusCode, 404)
  assert.equal(res.payload, 'v1 missing')
  assert.equal(res.headers['x-v1'], 'yes')
  assert.deepEqual(calls, ['root onRequest /v1/x', 'v1 onRequest /v1/x', 'v1 preValidation', 'v1 preHandler'])

  calls.length = 0
  const outside = await app.inject('/x')
  assert.equal(outside.statusCode, 404)
  assert.equal(outside.headers['x-v1'], undefined)
  assert.deepEqual(calls, ['root onRequest /x'])
  await app.close()
})

test('an onRequest hook of the not-found context can answer first', async () => {
  const app = enclave()
  app.addHook('onRequest', async (req: any, reply: any) => {
    if (req.headers.authorization === undefined) reply.code(401).send({ auth: 'missing' })
  })
  const res = await app.inject('/nothing')
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { auth: 'missing' })
  await app.close()
})

test('reply.callNotFound() answers with the not-found handler of the URL', async () => {
  const app = enclave()
  app.get('/hidden', (_req: any, reply: any) => { reply.callNotFound() })
  app.register(async (v1: any) => {
    v1.get('/hidden', (_req: any, reply: any) => { reply.callNotFound() })
    v1.setNotFoundHandler((req: any, reply: any) => { reply.code(404).send({ v1: req.url }) })
  }, { prefix: '/v1' })
  const root = await app.inject('/hidden')
  assert.equal(root.statusCode, 404)
  assert.deepEqual(root.json(), { message: 'Route GET:/hidden not found', error: 'Not Found', statusCode: 404 })
  const v1 = await app.inject('/v1/hidden')
  assert.equal(v1.statusCode, 404)
  assert.deepEqual(v1.json(), { v1: '/v1/hidden' })
  await app.close()
})

test('setting a not-found handler twice for the same prefix throws', async () => {
  const app = enclave()
  app.setNotFoundHandler(() => {})
  assert.throws(() => app.setNotFoundHandler(() => {}), (err: any) => {
    assert.equal(err.code, 'FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET')
    assert.equal(err.message, "Not found handler already set for Fastify instance with prefix: '/'")
    return true
  })
  const other = enclave()
  other.register(async (a: any) => { a.setNotFoundHandler(() => {}) }, { prefix: '/p' })
  other.register(async (b: any) => { b.setNotFoundHandler(() => {}) }, { prefix: '/p' })
  await assert.rejects(other.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET')
    assert.match(err.message, /'\/p'/)
    return true
  })
})

test('setNotFoundHandler() without a handler keeps the default, which a later call may still replace', async () => {
  const app = enclave()
  app.setNotFoundHandler()
  app.setNotFoundHandler((_request: any, reply: any) => { reply.code(404).send('custom') })
  assert.equal((await app.inject('/missing')).body, 'custom')
})

test('a not-found handler takes effect in loading order: a plugin registered before it has added its request decorator', async () => {
  const app = enclave()
  app.register(fp(async (instance: any) => { instance.decorateRequest('tenant', 'acme') }))
  app.setNotFoundHandler((request: any, reply: any) => { reply.code(404).send({ tenant: request.tenant }) })
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { tenant: 'acme' })
})

test('setNotFoundHandler after start throws', async () => {
  const app = enclave()
  await app.ready()
  assert.throws(() => app.setNotFoundHandler(() => {}), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
  await app.close()
})

test('a not-found handler that throws goes to the error handler', async () => {
  const app = enclave()
  app.setNotFoundHandler(async () => { throw new Error('nf failed') })
  const res = await app.inject('/x')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'nf failed' })
  await app.close()
})

test('the not-found handler of a context without a prefix is the root one (same prefix)', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send('from child') })
  })
  const res = await app.inject('/anything')
  assert.equal(res.statusCode, 404)
  assert.equal(res.payload, 'from child')
  await app.close()
})

test('not-found over a real socket', async () => {
  const app = enclave()
  await app.listen({ port: 0 })
  const res = await fetch(`http://127.0.0.1:${app.server.address().port}/nowhere`)
  assert.equal(res.status, 404)
  assert.deepEqual(await res.json(), { message: 'Route GET:/nowhere not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('getDefaultRoute/setDefaultRoute (deprecated, FSTDEP014): raw handler for unmatched requests, app-wide', async () => {
  const warnings: Array<string | undefined> = []
  const onWarning = (warning: any): void => { warnings.push(warning.code) }
  process.on('warning', onWarning)
  try {
    const app: any = enclave()
    app.get('/exists', async () => 'yes')
    app.register(async (child: any) => {
      child.setNotFoundHandler(async (_req: any, reply: any) => reply.code(404).send('child 404'))
    }, { prefix: '/child' })

    // the default route is the not-found handling itself, and can be called with raw objects
    const original = app.getDefaultRoute()
    assert.equal(typeof original, 'function')
    app.setDefaultRoute((req: any, res: any) => {
      if (req.url.startsWith('/passthrough')) return original(req, res)
      res.setHeader('content-type', 'text/plain')
      res.end(`default ${req.method} ${req.url}`)
    })
    await app.ready()
    assert.equal((await app.inject('/exists')).payload, 'yes')
    assert.equal((await app.inject({ method: 'POST', url: '/nothing' })).payload, 'default POST /nothing')
    assert.equal((await app.inject('/child/nothing')).payload, 'default GET /child/nothing')
    const passthrough = await app.inject('/passthrough')
    assert.deepEqual([passthrough.statusCode, passthrough.json().message], [404, 'Route GET:/passthrough not found'])
    assert.equal(app.getDefaultRoute().length, 2)

    assert.throws(() => app.setDefaultRoute('nope'), { code: 'FST_ERR_DEFAULT_ROUTE_INVALID_TYPE', message: 'The defaultRoute type should be a function' })
    await new Promise((resolve) => setImmediate(resolve))
    // once per process, whichever of the two was called first (another test file may have warned already)
    assert.ok(warnings.filter((code) => code === 'FSTDEP014').length <= 1)
  } finally {
    process.off('warning', onWarning)
  }
})

test('a default route that throws answers 500 and the server keeps serving', async () => {
  const app: any = enclave()
  app.setDefaultRoute(() => { throw new Error('broken default route') })
  const res = await app.inject('/anything')
  assert.deepEqual([res.statusCode, res.json()], [500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }])
  assert.equal((await app.inject('/again')).statusCode, 500)
})

test('setNotFoundHandler({ errorHandler }) handles the errors of the not-found handler', async () => {
  const app = enclave()
  app.setNotFoundHandler({
    errorHandler: (err: Error, _request: any, reply: any) => { reply.code(418).send({ notFoundError: err.message }) }
  }, () => { throw new Error('from the not-found handler') })
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 418)
  assert.deepEqual(res.json(), { notFoundError: 'from the not-found handler' })
})

test('the not-found handler gets the parsed body; a body its parser refuses answers the parser\'s error', async () => {
  const app = enclave()
  app.setNotFoundHandler((request: any, reply: any) => { reply.code(404).send({ body: request.body ?? null }) })
  const parsed = await app.inject({ method: 'POST', url: '/missing', payload: { a: 1 } })
  assert.equal(parsed.statusCode, 404)
  assert.deepEqual(parsed.json(), { body: { a: 1 } })
  const empty = await app.inject({ method: 'POST', url: '/missing', headers: { 'content-type': 'application/json' }, payload: '' })
  assert.equal(empty.statusCode, 400)
  assert.equal(empty.json().code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
  const broken = await app.inject({ method: 'POST', url: '/missing', headers: { 'content-type': 'application/json' }, payload: '{bad' })
  assert.equal(broken.statusCode, 400)
})

test('a body type no parser takes is not a 415 on an unknown route: the not-found handler answers', async () => {
  const app = enclave()
  const res = await app.inject({ method: 'POST', url: '/missing', headers: { 'content-type': 'application/xml' }, payload: '<a/>' })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Route POST:/missing not found', error: 'Not Found', statusCode: 404 })
})
