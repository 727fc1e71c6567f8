import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { enclave, logSink } from '../helpers'

describe('logger option', () => {
  test('disabled by default: app.log and request.log exist and do nothing', async () => {
    const app: any = enclave()
    for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'child']) {
      assert.equal(typeof app.log[method], 'function', method)
    }
    app.get('/', async (req: any) => {
      req.log.info('nobody hears this')
      return { sameChild: typeof req.log.child({}).info }
    })
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { sameChild: 'function' })
  })

  test('pino options with a stream: level is honoured', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { level: 'warn', stream: sink.stream } })
    app.get('/', async (req: any) => {
      req.log.info('hidden')
      req.log.warn('shown')
      return 'ok'
    })
    await app.inject('/')
    assert.deepEqual(sink.lines.map((l) => [l.level, l.msg, l.reqId]), [[40, 'shown', 'req-1']])
    assert.equal(app.log.level, 'warn')
  })

  test('logs the listening address', async (t) => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    t.after(() => app.close())
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    assert.ok(sink.lines.some((l) => l.level === 30 && l.msg === `Server listening at ${address}`))
  })

  test('incoming request and request completed lines carry req and res serializations', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    app.get('/path', async (_req: any, reply: any) => reply.code(202).send('ok'))
    await app.inject({ url: '/path?x=1', headers: { host: 'example.test', 'accept-version': '1.x' } })
    const incoming = sink.lines.find((l) => l.msg === 'incoming request')
    assert.deepEqual(incoming.req, {
      method: 'GET', url: '/path?x=1', version: '1.x', hostname: 'example.test', remoteAddress: '127.0.0.1'
    })
    const completed = sink.lines.find((l) => l.msg === 'request completed')
    assert.deepEqual(completed.res, { statusCode: 202 })
    assert.ok(completed.responseTime >= 0)
  })

  test('5xx errors are logged with the serialized error', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream } })
    app.get('/', async () => { throw new Error('exploded') })
    await app.inject('/')
    const line = sink.lines.find((l) => l.level === 50)
    assert.equal(line.msg, 'exploded')
    assert.equal(line.err.type, 'Error')
    assert.equal(line.err.message, 'exploded')
    assert.match(line.err.stack, /exploded/)
    assert.equal(line.res.statusCode, 500)
  })

  test('user serializers are merged with the defaults', async () => {
    const sink = logSink()
    const app: any = enclave({
      logger: { stream: sink.stream, serializers: { req: (req: any) => ({ onlyUrl: req.url }) } }
    })
    app.get('/', async () => 'ok')
    await app.inject('/')
    assert.deepEqual(sink.lines.find((l) => l.msg === 'incoming request').req, { onlyUrl: '/' })
    assert.deepEqual(sink.lines.find((l) => l.msg === 'request completed').res, { statusCode: 200 })
  })

  test('a route logLevel changes the request logger level', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    app.get('/quiet', { logLevel: 'error' }, async (req: any) => { req.log.info('quiet info'); req.log.error('quiet error'); return 'ok' })
    app.get('/verbose', { logLevel: 'debug' }, async (req: any) => { req.log.debug('verbose debug'); return 'ok' })
    await app.inject('/quiet')
    await app.inject('/verbose')
    const messages = sink.lines.map((l) => l.msg)
    assert.ok(!messages.includes('quiet info'))
    assert.ok(messages.includes('quiet error'))
    assert.ok(messages.includes('verbose debug'))
    // the request lines of /quiet are info: suppressed too
    assert.equal(sink.lines.filter((l) => l.msg === 'incoming request').length, 1)
  })

  test('a logger instance is used as it is; request loggers are its children', async () => {
    const calls: unknown[] = []
    const make = (bindings: Record<string, unknown>): any => ({
      level: 'info',
      info: (...args: unknown[]) => calls.push(['info', bindings, ...args]),
      error: () => {},
      debug: () => {},
      fatal: () => {},
      warn: () => {},
      trace: () => {},
      child: (child: Record<string, unknown>) => make({ ...bindings, ...child })
    })
    const logger = make({})
    const app: any = enclave({ logger, disableRequestLogging: true })
    assert.equal(app.log, logger)
    app.get('/', async (req: any) => { req.log.info('hello'); return 'ok' })
    await app.inject('/')
    assert.deepEqual(calls, [['info', { reqId: 'req-1' }, 'hello']])
  })

  test('a logger instance missing methods is rejected', () => {
    assert.throws(() => enclave({ logger: { info () {}, error () {} } }), { code: 'FST_ERR_LOG_INVALID_LOGGER' })
  })

  test('stream and file together are rejected', () => {
    assert.throws(() => enclave({ logger: { stream: { write () {} }, file: '/tmp/x.log' } }), { code: 'FST_ERR_LOG_INVALID_DESTINATION' })
  })

  test('childLoggerFactory builds the request logger', async () => {
    const sink = logSink()
    const app: any = enclave({
      logger: { stream: sink.stream },
      disableRequestLogging: true,
      childLoggerFactory (this: any, logger: any, bindings: any, opts: any, raw: any) {
        return logger.child({ ...bindings, path: raw.url, isRoot: this === app }, opts)
      }
    })
    app.get('/x', async (req: any) => { req.log.info('from factory'); return 'ok' })
    await app.inject('/x')
    const line = sink.lines.find((l) => l.msg === 'from factory')
    assert.equal(line.reqId, 'req-1')
    assert.equal(line.path, '/x')
    assert.equal(line.isRoot, true)
  })

  test('a childLoggerFactory is called for every request even when logging is off, and its logger is request.log', async () => {
    const app: any = enclave()
    const seen: string[] = []
    app.setChildLoggerFactory(function (logger: any, bindings: any, _opts: any, raw: any) {
      seen.push(`${String(bindings.reqId)} ${String(raw.url)}`)
      const child = Object.create(logger)
      child.marker = 'made by the factory'
      return child
    })
    app.get('/a', async (request: any) => ({ marker: request.log.marker }))
    app.get('/b', { childLoggerFactory: (logger: any) => Object.assign(Object.create(logger), { marker: 'route' }) }, async (request: any) => ({ marker: request.log.marker }))
    assert.deepEqual((await app.inject('/a')).json(), { marker: 'made by the factory' })
    assert.deepEqual((await app.inject('/b')).json(), { marker: 'route' })
    assert.deepEqual(seen, ['req-1 /a'])
  })

  test('reply.log is the request logger', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream }, disableRequestLogging: true })
    app.get('/', async (req: any, reply: any) => {
      reply.log.info('from reply')
      return { same: req.log === reply.log }
    })
    const res = await app.inject({ url: '/', headers: { 'request-id': 'rid-9' } })
    assert.deepEqual(res.json(), { same: true })
    assert.equal(sink.lines.find((l) => l.msg === 'from reply').reqId, 'rid-9')
  })
})

describe('plugin logLevel register option', () => {
  /** `[level, msg]` of every line, in order. */
  const levelsAndMessages = (lines: any[]): Array<[number, string]> => lines.map((l) => [l.level, l.msg])

  test('routes of the plugin and its descendants log at its level; a route logLevel wins; other routes keep the logger level', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    const logBoth = async (req: any) => {
      req.log.info(`info ${req.url}`)
      req.log.warn(`warn ${req.url}`)
      return { level: req.log.level, routeLevel: req.routeOptions.logLevel }
    }
    app.register(async (quiet: any) => {
      quiet.get('/quiet', logBoth)
      quiet.get('/own', { logLevel: 'info' }, logBoth)
      quiet.register(async (nested: any) => { nested.get('/nested', logBoth) })
      quiet.register(async (louder: any) => { louder.get('/louder', logBoth) }, { logLevel: 'debug' })
    }, { logLevel: 'warn' })
    app.get('/root', logBoth)

    const expected: Record<string, { body: unknown, lines: Array<[number, string]> }> = {
      '/quiet': { body: { level: 'warn', routeLevel: 'warn' }, lines: [[40, 'warn /quiet']] },
      '/nested': { body: { level: 'warn', routeLevel: 'warn' }, lines: [[40, 'warn /nested']] },
      '/own': {
        body: { level: 'info', routeLevel: 'info' },
        lines: [[30, 'incoming request'], [30, 'info /own'], [40, 'warn /own'], [30, 'request completed']]
      },
      '/louder': {
        body: { level: 'debug', routeLevel: 'debug' },
        lines: [[30, 'incoming request'], [30, 'info /louder'], [40, 'warn /louder'], [30, 'request completed']]
      },
      '/root': {
        body: { level: 'info', routeLevel: '' },
        lines: [[30, 'incoming request'], [30, 'info /root'], [40, 'warn /root'], [30, 'request completed']]
      }
    }
    for (const [url, { body, lines }] of Object.entries(expected)) {
      sink.lines.length = 0
      const res = await app.inject(url)
      assert.equal(res.statusCode, 200, url)
      assert.deepEqual(res.json(), body, url)
      assert.deepEqual(levelsAndMessages(sink.lines), lines, url)
    }
    assert.equal(app.log.level, 'info')
    await app.close()
  })

  test('onRoute hooks see the plugin level; the automatic HEAD route gets it too', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    const seen: string[] = []
    app.addHook('onRoute', (route: any) => { seen.push(`${route.method} ${route.url} ${route.logLevel}`) })
    app.register(async (quiet: any) => {
      quiet.get('/a', async () => 'a')
      quiet.get('/b', { logLevel: 'debug' }, async () => 'b')
    }, { logLevel: 'error' })
    await app.ready()
    assert.deepEqual(seen, ['GET /a error', 'HEAD /a error', 'GET /b debug', 'HEAD /b debug'])
    const head = await app.inject({ method: 'HEAD', url: '/a' })
    assert.equal(head.statusCode, 200)
    assert.deepEqual(sink.lines, [])
    await app.close()
  })

  test('the not-found and error handlers of the plugin log at its level', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    app.register(async (api: any) => {
      api.get('/fail', async () => { throw new Error('boom') })
      api.setNotFoundHandler(async (req: any, reply: any) => {
        req.log.info('not found info')
        req.log.warn('not found warn')
        return reply.code(404).send({ missing: req.url, level: req.log.level })
      })
    }, { prefix: '/api', logLevel: 'warn' })

    const missing = await app.inject('/api/nothing')
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), { missing: '/api/nothing', level: 'warn' })
    assert.deepEqual(levelsAndMessages(sink.lines), [[40, 'not found warn']])

    sink.lines.length = 0
    const failed = await app.inject('/api/fail')
    assert.equal(failed.statusCode, 500)
    assert.deepEqual(failed.json(), { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
    assert.deepEqual(levelsAndMessages(sink.lines), [[50, 'boom']])

    // outside the prefix the root's default 404 keeps the logger level
    sink.lines.length = 0
    assert.equal((await app.inject('/elsewhere')).statusCode, 404)
    assert.deepEqual(levelsAndMessages(sink.lines), [[30, 'incoming request'], [30, 'Route GET:/elsewhere not found'], [30, 'request completed']])
    await app.close()
  })

  test('the default 404 handler logs the miss at info with the request id, unless request logging is off', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    const res = await app.inject({ method: 'DELETE', url: '/missing?x=1' })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { message: 'Route DELETE:/missing?x=1 not found', error: 'Not Found', statusCode: 404 })
    const miss = sink.lines.find((line) => line.msg === 'Route DELETE:/missing?x=1 not found')
    assert.deepEqual([miss?.level, miss?.reqId], [30, 'req-1'])

    const quietSink = logSink()
    const quiet: any = enclave({ logger: { stream: quietSink.stream, level: 'info' }, disableRequestLogging: true })
    assert.equal((await quiet.inject('/missing')).statusCode, 404)
    assert.deepEqual(quietSink.lines, [])
  })

  test('a skip-override plugin has no context of its own: its logLevel option is ignored', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
    app.register(async (quiet: any) => {
      quiet.register(fp(async (shared: any) => {
        shared.get('/shared', async (req: any) => { req.log.info('shared info'); return req.log.level })
      }), { logLevel: 'debug' })
    }, { logLevel: 'warn' })
    app.register(fp(async (top: any) => {
      top.get('/top', async (req: any) => { req.log.info('top info'); return req.log.level })
    }), { logLevel: 'error' })

    assert.equal((await app.inject('/shared')).payload, 'warn')
    assert.equal((await app.inject('/top')).payload, 'info')
    assert.deepEqual(sink.lines.map((l) => l.msg), ['incoming request', 'top info', 'request completed'])
    await app.close()
  })

  test('an unknown level fails ready() instead of every request', async () => {
    const fromPlugin: any = enclave({ logger: { level: 'info', stream: logSink().stream } })
    fromPlugin.register(async (p: any) => { p.get('/x', async () => 'x') }, { logLevel: 'loud' })
    await assert.rejects(fromPlugin.ready(), {
      code: 'FST_ERR_ROUTE_OPTION_INVALID',
      message: 'Invalid option "logLevel" for route "GET:/x": unknown log level "loud"'
    })

    const fromRoute: any = enclave({ logger: { level: 'info', stream: logSink().stream } })
    fromRoute.get('/y', { logLevel: 'verbose' }, async () => 'y')
    await assert.rejects(fromRoute.ready(), {
      code: 'FST_ERR_ROUTE_OPTION_INVALID',
      message: 'Invalid option "logLevel" for route "GET:/y": unknown log level "verbose"'
    })

    // pino custom levels and 'silent' are levels too
    const sink = logSink()
    const custom: any = enclave({ logger: { level: 'info', stream: sink.stream, customLevels: { audit: 35 } } })
    custom.register(async (p: any) => {
      p.get('/audit', async (req: any) => { req.log.info('hidden'); req.log.audit('audited'); return 'ok' })
      p.get('/silent', { logLevel: 'silent' }, async (req: any) => { req.log.fatal('hidden too'); return 'ok' })
    }, { logLevel: 'audit' })
    assert.equal((await custom.inject('/audit')).payload, 'ok')
    assert.equal((await custom.inject('/silent')).payload, 'ok')
    assert.deepEqual(levelsAndMessages(sink.lines), [[35, 'audited']])
    await custom.close()
  })

  describe('logSerializers', () => {
    /** The lines a handler logged itself (without the request lines), minus time/pid/hostname. */
    const own = (lines: any[]): any[] => lines
      .filter((l) => l.msg !== 'incoming request' && l.msg !== 'request completed')
      .map((line) => { const { time: _time, pid: _pid, hostname: _hostname, ...rest } = line; return rest })

    test('register and route options merge down the context chain; siblings and the root are unaffected', async () => {
      const sink = logSink()
      const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
      const logBoth = (msg: string) => async (req: any) => { req.log.info({ user: 'u', key: 'k' }, msg); return 'ok' }
      app.register(async (parent: any) => {
        parent.get('/a', logBoth('a'))
        parent.get('/b', { logSerializers: { key: (v: string) => `route ${v}` } }, logBoth('b'))
        parent.register(async (child: any) => {
          child.get('/c', logBoth('c'))
        }, { logSerializers: { user: (v: string) => `child ${v}` } })
      }, { logSerializers: { user: (v: string) => `parent ${v}` } })
      app.register(async (sibling: any) => { sibling.get('/s', logBoth('s')) })
      app.get('/root', logBoth('root'))

      for (const url of ['/a', '/b', '/c', '/s', '/root']) assert.equal((await app.inject(url)).statusCode, 200)
      assert.deepEqual(own(sink.lines), [
        { level: 30, reqId: 'req-1', user: 'parent u', key: 'k', msg: 'a' },
        { level: 30, reqId: 'req-2', user: 'parent u', key: 'route k', msg: 'b' },
        { level: 30, reqId: 'req-3', user: 'child u', key: 'k', msg: 'c' },
        { level: 30, reqId: 'req-4', user: 'u', key: 'k', msg: 's' },
        { level: 30, reqId: 'req-5', user: 'u', key: 'k', msg: 'root' }
      ])
      await app.close()
    })

    test('req and res serializers shape the request lines; the error and not-found handlers of the plugin use them', async () => {
      const sink = logSink()
      const app: any = enclave({ logger: { stream: sink.stream, level: 'info' } })
      app.register(async (api: any) => {
        api.get('/short', { logSerializers: { req: (req: any) => ({ m: req.method }), res: (res: any) => ({ s: res.statusCode }) } }, async () => 'ok')
        api.get('/fail', async () => { throw new Error('boom') })
        api.setErrorHandler(async (_err: Error, req: any) => { req.log.info({ user: 'u' }, 'handled'); return 'handled' })
        api.setNotFoundHandler(async (req: any, reply: any) => { req.log.info({ user: 'u' }, 'missing'); return reply.code(404).send('missing') })
      }, { prefix: '/api', logSerializers: { user: (v: string) => `api ${v}` } })

      await app.inject('/api/short')
      assert.deepEqual(sink.lines.map(({ req, res, msg }) => ({ req, res, msg })), [
        { req: { m: 'GET' }, res: undefined, msg: 'incoming request' },
        { req: undefined, res: { s: 200 }, msg: 'request completed' }
      ])
      sink.lines.length = 0
      assert.equal((await app.inject('/api/fail')).payload, 'handled')
      assert.equal((await app.inject('/api/nothing')).payload, 'missing')
      assert.deepEqual(own(sink.lines), [
        { level: 30, reqId: 'req-2', user: 'api u', msg: 'handled' },
        { level: 30, reqId: 'req-3', user: 'api u', msg: 'missing' }
      ])
      await app.close()
    })

    test('a childLoggerFactory receives them in its options', async () => {
      const seen: any[] = []
      const app: any = enclave({
        logger: { stream: logSink().stream },
        childLoggerFactory (logger: any, bindings: any, opts: any) {
          seen.push(Object.keys(opts.serializers ?? {}))
          return logger.child(bindings, opts)
        }
      })
      app.register(async (p: any) => { p.get('/', async () => 'ok') }, { logSerializers: { user: String } })
      await app.inject('/')
      assert.deepEqual(seen, [['user']])
    })

    test('a serializer that is not a function fails ready()', async () => {
      const fromRoute: any = enclave({ logger: { stream: logSink().stream } })
      fromRoute.get('/x', { logSerializers: { user: 'upper' } }, async () => 'x')
      await assert.rejects(fromRoute.ready(), {
        code: 'FST_ERR_ROUTE_OPTION_INVALID',
        message: 'Invalid option "logSerializers" for route "GET:/x": serializer "user" must be a function'
      })
      const fromPlugin: any = enclave({ logger: { stream: logSink().stream } })
      fromPlugin.register(async (p: any) => { p.get('/y', async () => 'y') }, { logSerializers: 'upper' })
      await assert.rejects(fromPlugin.ready(), {
        code: 'FST_ERR_ROUTE_OPTION_INVALID',
        message: 'Invalid option "logSerializers" for route "GET:/y": must be an object of functions'
      })
    })
  })
})

test('a pino instance given as the logger logs requests with Fastify\'s serializers: no headers, no cookies', async () => {
  const pino = (await import('pino')).default
  const lines: any[] = []
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  const app = enclave({ logger })
  app.get('/', async () => 'ok')
  await app.inject({ url: '/', headers: { authorization: 'Bearer secret', cookie: 'session=abc' } })
  const incoming = lines.find((line) => line.msg === 'incoming request')
  assert.deepEqual(incoming.req, { method: 'GET', url: '/', hostname: 'localhost:80', remoteAddress: '127.0.0.1' })
  assert.deepEqual(lines.find((line) => line.msg === 'request completed').res, { statusCode: 200 })
  assert.equal(JSON.stringify(lines).includes('secret'), false)
  assert.equal(Object.getPrototypeOf(app.log), logger, 'app.log is a child of the given logger')
})
