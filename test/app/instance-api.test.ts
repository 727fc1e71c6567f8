import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { enclave, logSink } from '../helpers'

describe('setGenReqId', () => {
  test('is encapsulated: each context uses its own generator, children inherit, siblings do not', async () => {
    const app = enclave({ genReqId: () => 'base' })
    const idOf = (req: any) => ({ id: req.id })
    app.get('/', idOf)
    app.register(async (webhooks: any) => {
      webhooks.setGenReqId((raw: any) => `webhooks-${raw.method}`)
      webhooks.get('/', idOf)
      webhooks.register(async (nested: any) => { nested.get('/nested', idOf) })
    }, { prefix: '/webhooks' })
    app.register(async (other: any) => { other.get('/', idOf) }, { prefix: '/other' })

    assert.deepEqual((await app.inject('/')).json(), { id: 'base' })
    assert.deepEqual((await app.inject('/webhooks')).json(), { id: 'webhooks-GET' })
    assert.deepEqual((await app.inject('/webhooks/nested')).json(), { id: 'webhooks-GET' })
    assert.deepEqual((await app.inject('/other')).json(), { id: 'base' })
  })

  test('the request id header still wins over a context generator', async () => {
    const app = enclave({ requestIdHeader: 'x-request-id' })
    app.setGenReqId(() => 'generated')
    app.get('/', (req: any) => ({ id: req.id }))
    assert.deepEqual((await app.inject({ url: '/', headers: { 'x-request-id': 'from-header' } })).json(), { id: 'from-header' })
    assert.deepEqual((await app.inject('/')).json(), { id: 'generated' })
  })

  test('a parent generator set after a child was registered still reaches the child; not-found answers use it', async () => {
    const app = enclave()
    app.register(async (child: any) => { child.get('/child', (req: any) => ({ id: req.id })) })
    app.setGenReqId(() => 'late')
    app.setNotFoundHandler((req: any, reply: any) => reply.code(404).send({ id: req.id }))
    assert.deepEqual((await app.inject('/child')).json(), { id: 'late' })
    const missing = await app.inject('/missing')
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), { id: 'late' })
  })

  test('rejects a non-function and calls after start', async () => {
    const app = enclave()
    assert.throws(() => app.setGenReqId('x'), {
      code: 'FST_ERR_INSTANCE_SETTER_NOT_FN', message: "setGenReqId expects a function, instead got 'string'"
    })
    assert.equal(app.setGenReqId(() => 'x'), app)
    await app.ready()
    assert.throws(() => app.setGenReqId(() => 'y'), {
      code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot call "setGenReqId"!'
    })
  })
})

test('instance.genReqId is the id generator of its context, with the request-id header rule', async () => {
  const app: any = enclave({ requestIdHeader: 'x-request-id' })
  let child: any
  app.register(async (instance: any) => {
    instance.setGenReqId(() => 'from-child')
    child = instance
  })
  await app.ready()
  const raw = (headers: Record<string, string>) => ({ headers, url: '/', method: 'GET' })
  assert.equal(app.genReqId(raw({ 'x-request-id': 'given' })), 'given')
  assert.equal(app.genReqId(raw({})), 'req-1')
  assert.equal(child.genReqId(raw({})), 'from-child')
  assert.equal(child.genReqId(raw({ 'x-request-id': 'given' })), 'given')
})

describe('setChildLoggerFactory and childLoggerFactory', () => {
  test('is encapsulated and called with the context instance, default bindings, child options and the raw request', async () => {
    const sink = logSink()
    const app = enclave({ logger: { stream: sink.stream }, disableRequestLogging: true })
    const calls: any[] = []
    let pluginInstance: any
    app.get('/root', (req: any) => { req.log.info('root'); return 'ok' })
    app.register(async (child: any) => {
      pluginInstance = child
      child.setChildLoggerFactory(function (this: any, logger: any, bindings: any, opts: any, raw: any) {
        calls.push({ self: this === child, bindings: { ...bindings }, opts, url: raw.url })
        return logger.child({ ...bindings, plugin: 'child' }, opts)
      })
      child.get('/child', { logLevel: 'debug' }, (req: any) => { req.log.debug('child'); return 'ok' })
    })
    await app.inject('/root')
    await app.inject({ url: '/child', headers: { 'request-id': 'r-1' } })
    assert.deepEqual(calls, [{ self: true, bindings: { reqId: 'r-1' }, opts: { level: 'debug' }, url: '/child' }])
    assert.deepEqual(sink.lines.map((l) => [l.msg, l.reqId, l.plugin]), [['root', 'req-1', undefined], ['child', 'r-1', 'child']])
    assert.ok(pluginInstance !== app)
  })

  test('the route option wins over the context factory', async () => {
    const sink = logSink()
    const app = enclave({ logger: { stream: sink.stream }, disableRequestLogging: true })
    app.setChildLoggerFactory((logger: any, bindings: any, opts: any) => logger.child({ ...bindings, from: 'context' }, opts))
    app.get('/a', (req: any) => { req.log.info('a'); return 'ok' })
    app.get('/b', {
      childLoggerFactory: (logger: any, bindings: any, opts: any) => logger.child({ ...bindings, from: 'route' }, opts)
    }, (req: any) => { req.log.info('b'); return 'ok' })
    await app.inject('/a')
    await app.inject('/b')
    assert.deepEqual(sink.lines.map((l) => [l.msg, l.from]), [['a', 'context'], ['b', 'route']])
  })

  test('a route childLoggerFactory that is not a function fails ready()', async () => {
    const app = enclave()
    app.get('/', { childLoggerFactory: 'nope' }, () => 'ok')
    await assert.rejects(app.ready(), {
      code: 'FST_ERR_ROUTE_OPTION_INVALID', message: 'Invalid option "childLoggerFactory" for route "GET:/": must be a function'
    })
  })

  test('the getter returns the factory in effect: the default, the option, or the nearest one set', async () => {
    const option = (logger: any, bindings: any, opts: any): any => logger.child(bindings, opts)
    const withOption = enclave({ childLoggerFactory: option })
    assert.equal(withOption.childLoggerFactory, option)

    const app = enclave()
    const root = app.childLoggerFactory
    assert.equal(typeof root, 'function')
    const made: any[] = []
    const fakeLogger = { child: (bindings: any, opts: any) => { made.push([bindings, opts]); return 'child' } }
    assert.equal(root(fakeLogger, { reqId: 'x' }, { level: 'info' }, {}), 'child')
    assert.deepEqual(made, [[{ reqId: 'x' }, { level: 'info' }]])

    const set = (logger: any, bindings: any, opts: any): any => logger.child(bindings, opts)
    let seen: any[] = []
    app.register(async (child: any) => {
      const before = child.childLoggerFactory
      child.setChildLoggerFactory(set)
      child.register(async (grandchild: any) => { seen = [before, child.childLoggerFactory, grandchild.childLoggerFactory] })
    })
    await app.ready()
    assert.deepEqual(seen, [root, set, set])
    assert.equal(app.childLoggerFactory, root)
    assert.throws(() => app.setChildLoggerFactory(set), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
  })
})

describe('Symbol.asyncDispose', () => {
  test('closes the instance', async () => {
    const app = enclave()
    const closed: string[] = []
    app.addHook('onClose', async () => { closed.push('onClose') })
    await app.ready()
    assert.equal(await app[Symbol.asyncDispose](), undefined)
    assert.deepEqual(closed, ['onClose'])
    await assert.rejects(app.inject('/'), /closed/i)
  })
})

describe('log', () => {
  test('is a writable property: an assignment in a context reaches its children, not its parent or siblings', async () => {
    const app = enclave()
    const rootLogger = app.log
    const seen: Record<string, unknown> = {}
    app.register(async (child: any) => {
      child.log = Object.create(child.log)
      child.log.tag = 'wrapped'
      seen.parentAfterAssignment = app.log
      child.register(async (grandchild: any) => { seen.grandchild = grandchild.log.tag })
    })
    app.register(async (sibling: any) => { seen.sibling = sibling.log.tag })
    await app.ready()
    assert.equal(seen.parentAfterAssignment, rootLogger)
    assert.equal(seen.grandchild, 'wrapped')
    assert.equal(seen.sibling, undefined)
    assert.deepEqual(Object.keys(Object.getOwnPropertyDescriptor(app, 'log') ?? {}), ['value', 'writable', 'enumerable', 'configurable'])
  })

  test('request loggers still come from the factory logger, whatever app.log became', async () => {
    const app = enclave()
    app.log = Object.create(app.log)
    app.log.tag = 'root'
    app.register(async (child: any) => {
      child.log = Object.create(child.log)
      child.log.tag = 'child'
      child.get('/child', (req: any) => ({ tag: req.log.tag ?? null }))
    })
    app.get('/', (req: any) => ({ tag: req.log.tag ?? null }))
    assert.deepEqual((await app.inject('/')).json(), { tag: null })
    assert.deepEqual((await app.inject('/child')).json(), { tag: null })
  })

  test('the listening line goes to the logger app.log holds when listen() is called', async () => {
    const app = enclave()
    const lines: string[] = []
    app.log = { ...app.log, info: (message: string) => { lines.push(message) } }
    await app.listen({ port: 0, host: '127.0.0.1' })
    await app.close()
    assert.equal(lines.length, 1)
    assert.match(lines[0], /^Server listening at http:\/\/127\.0\.0\.1:\d+$/)
  })
})
