import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from './helpers'

/** A pino destination collecting parsed log lines. */
function logSink (): { stream: { write: (line: string) => void }, lines: any[] } {
  const lines: any[] = []
  return { lines, stream: { write (line: string) { lines.push(JSON.parse(line)) } } }
}

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
