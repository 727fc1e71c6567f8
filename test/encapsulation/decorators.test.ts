import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

test('decorate adds a value or a method to the instance; hasDecorator sees it', async () => {
  const app = enclave()
  app.decorate('config', { port: 1 })
  app.decorate('double', function (this: any, n: number) { return { n: n * 2, self: this === app } })
  assert.deepEqual(app.config, { port: 1 })
  assert.deepEqual(app.double(2), { n: 4, self: true })
  assert.equal(app.hasDecorator('config'), true)
  assert.equal(app.hasDecorator('double'), true)
  assert.equal(app.hasDecorator('missing'), false)
  app.get('/', async function (this: any) { return this.config })
  assert.deepEqual((await app.inject('/')).json(), { port: 1 })
  await app.close()
})

test('decorate with a getter/setter definition', async () => {
  const app = enclave()
  let stored = 'initial'
  app.decorate('prop', {
    getter () { return stored },
    setter (value: string) { stored = value }
  })
  assert.equal(app.prop, 'initial')
  app.prop = 'changed'
  assert.equal(stored, 'changed')
  assert.equal(app.prop, 'changed')
  app.decorate('readOnly', { getter () { return 'ro' } })
  assert.equal(app.readOnly, 'ro')
  await app.close()
})

test('decorateRequest / decorateReply: values, methods with this = request/reply, has*Decorator', async () => {
  const app = enclave()
  app.decorateRequest('flag', 'default')
  app.decorateRequest('describe', function (this: any) { return `${this.method} ${this.url}` })
  app.decorateReply('ok', function (this: any, data: unknown) { return this.code(201).send({ ok: data }) })
  app.decorateReply('marker', 7)
  assert.equal(app.hasRequestDecorator('flag'), true)
  assert.equal(app.hasRequestDecorator('describe'), true)
  assert.equal(app.hasReplyDecorator('ok'), true)
  assert.equal(app.hasReplyDecorator('marker'), true)
  assert.equal(app.hasRequestDecorator('ok'), false)
  assert.equal(app.hasReplyDecorator('flag'), false)
  app.get('/x', (req: any, reply: any) => { reply.ok({ flag: req.flag, describe: req.describe(), marker: reply.marker }) })
  const res = await app.inject('/x?q=1')
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json(), { ok: { flag: 'default', describe: 'GET /x?q=1', marker: 7 } })
  await app.close()
})

test('request/reply getter decorators', async () => {
  const app = enclave()
  app.decorateRequest('upperMethod', { getter (this: any) { return this.method.toLowerCase() } })
  app.decorateReply('statusText', { getter (this: any) { return `status ${this.statusCode}` } })
  app.get('/', (req: any, reply: any) => { reply.code(202).send({ m: req.upperMethod, s: reply.statusText }) })
  assert.deepEqual((await app.inject('/')).json(), { m: 'get', s: 'status 202' })
  await app.close()
})

test('each request gets its own copy of a primitive decorator value', async () => {
  const app = enclave()
  app.decorateRequest('counter', 0)
  app.decorateReply('touched', false)
  app.get('/', async (req: any, reply: any) => {
    const before = { counter: req.counter, touched: reply.touched }
    req.counter++
    reply.touched = true
    return before
  })
  assert.deepEqual((await app.inject('/')).json(), { counter: 0, touched: false })
  assert.deepEqual((await app.inject('/')).json(), { counter: 0, touched: false })
  await app.close()
})

test('a null request decorator is set per request in an onRequest hook', async () => {
  const app = enclave()
  app.decorateRequest('user', null)
  app.addHook('onRequest', async (req: any) => { req.user = { name: req.headers['x-user'] } })
  app.get('/', async (req: any) => req.user)
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-user': 'ann' } })).json(), { name: 'ann' })
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-user': 'bob' } })).json(), { name: 'bob' })
  await app.close()
})

test('a request property read in a context where it was not decorated is undefined', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.decorateRequest('childOnly', 'child')
    child.decorateRequest('childFn', function () { return 'fn' })
    child.decorateReply('childReply', 'r')
    child.get('/child', async (req: any, reply: any) => ({ value: req.childOnly, fn: req.childFn(), reply: reply.childReply }))
  })
  app.get('/root', async (req: any, reply: any) => ({ value: req.childOnly ?? null, fn: typeof req.childFn, reply: reply.childReply ?? null }))
  await app.ready()
  assert.equal(app.hasRequestDecorator('childOnly'), false)
  assert.equal(app.hasReplyDecorator('childReply'), false)
  assert.deepEqual((await app.inject('/child')).json(), { value: 'child', fn: 'fn', reply: 'r' })
  assert.deepEqual((await app.inject('/root')).json(), { value: null, fn: 'undefined', reply: null })
  await app.close()
})

test('dependencies: present passes, missing throws FST_ERR_DEC_MISSING_DEPENDENCY', () => {
  const app = enclave()
  app.decorate('base', 1)
  app.decorate('derived', 2, ['base'])
  assert.throws(() => app.decorate('other', 3, ['nope']), (err: any) => {
    assert.equal(err.code, 'FST_ERR_DEC_MISSING_DEPENDENCY')
    assert.equal(err.message, "The decorator is missing dependency 'nope'.")
    return true
  })
  app.decorateRequest('reqBase', 1)
  app.decorateRequest('reqDerived', 2, ['reqBase'])
  assert.throws(() => app.decorateRequest('reqOther', 3, ['base']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
  app.decorateReply('repBase', function () {})
  app.decorateReply('repDerived', 2, ['repBase'])
  assert.throws(() => app.decorateReply('repOther', 3, ['reqBase']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
  assert.throws(() => app.decorate('bad', 1, 'base'), { code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE' })
  // a failed decorate leaves nothing behind
  assert.equal(app.hasDecorator('other'), false)
  assert.equal(app.hasRequestDecorator('reqOther'), false)
})

test('redefinition throws FST_ERR_DEC_ALREADY_PRESENT; request/reply decorators also when inherited from a parent', async () => {
  const app = enclave()
  app.decorate('x', 1)
  assert.throws(() => app.decorate('x', 2), (err: any) => {
    assert.equal(err.code, 'FST_ERR_DEC_ALREADY_PRESENT')
    assert.equal(err.message, "The decorator 'x' has already been added!")
    return true
  })
  app.decorateRequest('r', 1)
  assert.throws(() => app.decorateRequest('r', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  app.decorateReply('p', function () {})
  assert.throws(() => app.decorateReply('p', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  app.register(async (child: any) => {
    assert.throws(() => child.decorateRequest('r', 3), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
    // a parent's method is not this context's: a child may give the name a value of its own, as in Fastify
    assert.doesNotThrow(() => child.decorateReply('p', 3))
  })
  await app.ready()
  await app.close()
})

test('a plugin may decorate a name its parent decorated: the value is its own and its children\'s (as in Fastify)', async () => {
  const app = enclave()
  app.decorate('x', 'root')
  app.register(async (child: any) => {
    child.decorate('x', 'child')
    assert.throws(() => child.decorate('x', 'again'), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
    child.get('/child', async function (this: any) { return { x: this.x } })
    child.register(async (grandchild: any) => {
      grandchild.get('/grandchild', async function (this: any) { return { x: this.x } })
    })
  })
  app.register(async (sibling: any) => {
    sibling.get('/sibling', async function (this: any) { return { x: this.x } })
  })
  // as in Fastify, a plugin may shadow the instance's methods and plain members for itself, not its getters
  app.register(async (child: any) => {
    for (const name of ['inject', 'log', 'server']) child.decorate(name, `${name} of the child`)
    for (const name of ['prefix', 'pluginName', 'errorHandler']) {
      assert.throws(() => child.decorate(name, 1), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, name)
    }
    assert.equal(child.inject, 'inject of the child')
    assert.equal(child.log, 'log of the child')
  })
  await app.ready()
  assert.equal(app.x, 'root')
  assert.deepEqual((await app.inject('/child')).json(), { x: 'child' })
  assert.deepEqual((await app.inject('/grandchild')).json(), { x: 'child' })
  assert.deepEqual((await app.inject('/sibling')).json(), { x: 'root' })
  await app.close()
})

test('the root refuses the names of its own members, as Fastify does; Object.prototype names are free', () => {
  const app = enclave()
  for (const name of ['get', 'log', 'server', 'inject', 'register', 'prefix', 'initialConfig']) {
    assert.throws(() => app.decorate(name, () => {}), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, name)
  }
  app.decorate('toString', () => 'decorated')
  assert.equal(String(app), 'decorated')
})

test('request and reply decorators meet built-in members as in Fastify, where Fastify does not crash', () => {
  const app = enclave()
  const getter = { getter: () => 'decorated' }
  // a getter over a built-in getter, any decorator but a lone getter over a field the constructor assigns
  for (const name of ['url', 'ip', 'hostname', 'protocol', 'routeOptions', 'routerPath', 'method', 'headers']) {
    app.decorateRequest(name, getter)
  }
  app.decorateRequest('id', 'fixed')
  app.decorateRequest('params', function params () {})
  app.decorateRequest('body', { getter () { return this._body }, setter (value: unknown) { this._body = value } })
  app.decorateReply('statusCode', getter)
  app.decorateReply('code', 'not a method')
  for (const name of ['url', 'id', 'headers', 'statusCode']) assert.equal(app.hasRequestDecorator(name) || app.hasReplyDecorator(name), true, name)
  // refused: what throws at registration or on every request in Fastify, and what Enclave reads on every request
  const refused: Array<[string, string, unknown]> = [
    ['decorateRequest', 'ip', 'constant'], ['decorateRequest', 'url', () => '/'], ['decorateRequest', 'query', getter],
    ['decorateRequest', 'raw', {}], ['decorateRequest', 'server', getter], ['decorateRequest', 'constructor', 1],
    ['decorateReply', 'raw', getter], ['decorateReply', 'request', {}], ['decorateReply', 'send', 'not a method'],
    ['decorateReply', 'sent', getter], ['decorateReply', 'statusCode', () => 200], ['decorateReply', 'log', getter]
  ]
  for (const [method, name, value] of refused) {
    assert.throws(() => app[method](name, value), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, `${method}('${name}')`)
  }
})

test('at request time a getter decorator wins over the built-in, a value replaces a field, a setter sees the framework value', async () => {
  const app = enclave({ genReqId: () => 'generated' })
  app.decorateRequest('ip', { getter (this: any) { return this.headers['x-client-ip'] ?? 'unknown' } })
  app.decorateRequest('routeOptions', { getter: () => ({ url: 'from the decorator' }) })
  app.decorateRequest('id', 'fixed')
  app.decorateRequest('params', function params () { return 'hidden by the field' })
  app.decorateRequest('body', { getter (this: any) { return { wrapped: this._body } }, setter (this: any, value: unknown) { this._body = value } })
  app.decorateReply('statusCode', { getter: () => 299, setter () {} })
  app.post('/items/:name', (req: any) => ({ ip: req.ip, url: req.routeOptions.url, id: req.id, params: req.params, body: req.body }))
  const res = await app.inject({ method: 'POST', url: '/items/a', headers: { 'x-client-ip': '10.0.0.9' }, payload: { n: 1 } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { ip: '10.0.0.9', url: 'from the decorator', id: 'fixed', params: { name: 'a' }, body: { wrapped: { n: 1 } } })
})

test('a plugin may shadow route() for itself; the shorthands still register routes', async () => {
  const app = enclave()
  const calls: string[] = []
  app.register(async (child: any) => {
    child.decorate('route', function route () { calls.push('decorated') })
    child.get('/shorthand', async () => 'registered')
  })
  assert.equal((await app.inject('/shorthand')).body, 'registered')
  assert.deepEqual(calls, [])
})

test('a function may replace a built-in reply method, as in Fastify: for the context and its children only', async () => {
  const app = enclave()
  assert.throws(() => app.decorateReply('getHeader', () => {}, ['missing']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
  app.register(async (child: any) => {
    child.decorateReply('getHeader', function (this: any, name: string) { return name === 'vary' ? ['x-a', 'x-b'] : undefined })
    child.get('/mocked', (_req: any, reply: any) => { reply.send({ vary: reply.getHeader('vary') }) })
  })
  app.get('/plain', (_req: any, reply: any) => { reply.header('vary', 'x-c'); reply.send({ vary: reply.getHeader('vary') }) })
  assert.deepEqual((await app.inject('/mocked')).json(), { vary: ['x-a', 'x-b'] })
  assert.deepEqual((await app.inject('/plain')).json(), { vary: 'x-c' })
  await app.close()
})

test('siblings may each define the same decorator name', async () => {
  const app = enclave()
  app.register(async (a: any) => {
    a.decorateRequest('who', 'a')
    a.decorate('tag', 'a')
    a.get('/a', async (req: any) => ({ who: req.who }))
  })
  app.register(async (b: any) => {
    b.decorateRequest('who', 'b')
    b.decorate('tag', 'b')
    b.get('/b', async (req: any) => ({ who: req.who }))
  })
  assert.deepEqual((await app.inject('/a')).json(), { who: 'a' })
  assert.deepEqual((await app.inject('/b')).json(), { who: 'b' })
  await app.close()
})

test('decorating after start throws FST_ERR_DEC_AFTER_START', async () => {
  const app = enclave()
  await app.ready()
  for (const method of ['decorate', 'decorateRequest', 'decorateReply']) {
    assert.throws(() => app[method]('late', 1), (err: any) => {
      assert.equal(err.code, 'FST_ERR_DEC_AFTER_START')
      assert.equal(err.message, "The decorator 'late' has been added after start!")
      return true
    }, method)
  }
  await app.close()
})

test('symbol names work as decorators', async () => {
  const app = enclave()
  const key = Symbol('key')
  app.decorate(key, 'sym')
  app.decorateRequest(key, 'reqsym')
  assert.equal(app[key], 'sym')
  assert.equal(app.hasDecorator(key), true)
  assert.equal(app.hasRequestDecorator(key), true)
  app.get('/', async (req: any) => ({ v: req[key] }))
  assert.deepEqual((await app.inject('/')).json(), { v: 'reqsym' })
  await app.close()
})

test('decorating a request with an object warns (it would be shared between requests)', async (t) => {
  const warnings: string[] = []
  const onWarning = (w: any) => { warnings.push(`${w.name} ${w.code} ${w.message}`) }
  process.on('warning', onWarning)
  t.after(() => { process.off('warning', onWarning) })
  const app = enclave()
  app.decorateRequest('shared', { a: 1 })
  app.decorateReply('list', [])
  await new Promise((resolve) => setImmediate(resolve))
  const text = 'You are decorating Request/Reply with a reference type. This reference is shared amongst all requests. ' +
    'Use onRequest hook instead. Property: '
  assert.deepEqual(warnings, [`DeprecationWarning FSTDEP006 ${text}shared`, `DeprecationWarning FSTDEP006 ${text}list`])
})

test('a plugin may decorate again a method its parent put on requests and replies: its routes get its own', async () => {
  const app = enclave()
  app.decorateRequest('whoAmI', function (this: any) { return 'root' })
  app.decorateReply('whoAmI', function (this: any) { return 'root reply' })
  app.get('/root', async (request: any, reply: any) => [request.whoAmI(), reply.whoAmI()])
  app.register(async (child: any) => {
    child.decorateRequest('whoAmI', function (this: any) { return 'child' })
    child.decorateReply('whoAmI', function (this: any) { return 'child reply' })
    child.get('/child', async (request: any, reply: any) => [request.whoAmI(), reply.whoAmI()])
  })
  assert.deepEqual((await app.inject('/root')).json(), ['root', 'root reply'])
  assert.deepEqual((await app.inject('/child')).json(), ['child', 'child reply'])
})

test('a value decorator of a parent, a method of the same context and a framework member stay refused', async () => {
  const app = enclave()
  app.decorateRequest('counter', 0)
  app.decorateRequest('compute', () => 1)
  assert.throws(() => app.decorateRequest('compute', () => 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  const codes: string[] = []
  app.register(async (child: any) => {
    for (const [name, value] of [['counter', () => 1], ['raw', 1], ['method', () => 1]]) {
      try { child.decorateRequest(name, value) } catch (err: any) { codes.push(err.code) }
    }
  })
  await app.ready()
  assert.deepEqual(codes, Array(3).fill('FST_ERR_DEC_ALREADY_PRESENT'))
})
