/**
 * `loggerInstance` and `disableRequestLogging` as a function (Fastify 5, both levels); what `logger` takes at each
 * level (a logger instance too at the Fastify 4 level, only `true`/`false` or pino options at the Fastify 5 level),
 * and the request id header each level reads by default.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import typedEnclave5 from '../../src/fastify5'
import { enclave, logSink } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: loggerInstance is used for the application and its requests`, async () => {
    const sink = logSink()
    const app = make({ loggerInstance: pino({}, sink.stream as any) })
    app.get('/', async (request: any) => {
      request.log.info('in the handler')
      return 'ok'
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    const messages = sink.lines.map((line) => line.msg)
    assert.deepEqual(messages, ['incoming request', 'in the handler', 'request completed'])
    // Fastify's request serializer, not the whole request
    assert.equal(sink.lines[0].req.method, 'GET')
    assert.equal(sink.lines[0].req.url, '/')
    assert.equal(sink.lines[0].req.headers, undefined)
    assert.deepEqual(sink.lines[2].res, { statusCode: 200 })
    await app.close()
  })

  test(`${level} level: loggerInstance takes a logger object only, and not beside logger`, () => {
    assert.throws(() => make({ loggerInstance: { level: 'info' } }), {
      code: 'FST_ERR_LOG_INVALID_LOGGER_INSTANCE',
      message: 'loggerInstance only accepts a logger instance.'
    })
    assert.throws(() => make({ loggerInstance: { info () {}, error () {} } }), {
      code: 'FST_ERR_LOG_INVALID_LOGGER',
      message: "Invalid logger object provided. The logger instance should have these functions(s): 'debug,fatal,warn,trace,child'."
    })
    assert.throws(() => make({ logger: { level: 'info' }, loggerInstance: pino({ enabled: false }) }), {
      code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED'
    })
    // logger: false beside it is no conflict
    make({ logger: false, loggerInstance: pino({ enabled: false }) })
  })
}

test('a logger instance given as logger: used at the Fastify 4 level, refused at the Fastify 5 level', async () => {
  const sink = logSink()
  const app4 = enclave({ logger: pino({}, sink.stream as any) })
  app4.log.info('from the instance')
  assert.equal(sink.lines[0].msg, 'from the instance')
  await app4.close()
  assert.throws(() => enclave5({ logger: pino({ enabled: false }) }), {
    code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG',
    message: 'logger options only accepts a configuration object.'
  })
  // a partial logger is named by what it lacks at both levels
  assert.throws(() => enclave5({ logger: { info () {}, error () {}, debug () {}, warn () {}, trace () {} } }), {
    code: 'FST_ERR_LOG_INVALID_LOGGER',
    message: "Invalid logger object provided. The logger instance should have these functions(s): 'fatal,child'."
  })
})

test('pino options as logger build a pino logger at the Fastify 5 level', async () => {
  const sink = logSink()
  const app = enclave5({ logger: { level: 'warn', stream: sink.stream } })
  app.log.info('dropped')
  app.log.warn('kept')
  assert.deepEqual(sink.lines.map((line) => line.msg), ['kept'])
  await app.close()
})

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: disableRequestLogging as a function of the request skips Enclave's lines for the requests it picks`, async () => {
    const sink = logSink()
    const app = make({ logger: { stream: sink.stream }, disableRequestLogging: (request: any) => request.url.startsWith('/quiet') })
    app.get('/quiet', async (request: any) => { request.log.info('the handler still logs'); return 'ok' })
    app.get('/loud', async () => 'ok')
    await app.inject('/quiet')
    await app.inject('/quiet/missing')
    await app.inject('/loud')
    await app.inject('/missing')
    assert.deepEqual(sink.lines.map((line) => line.msg), [
      'the handler still logs',
      'incoming request', 'request completed',
      'incoming request', 'Route GET:/missing not found', 'request completed'
    ])
    await app.close()
  })
}

test('the request id header: request-id by default at the Fastify 4 level, none at the Fastify 5 level', async () => {
  for (const [make, expected] of [[enclave, 'from-the-client'], [enclave5, 'req-1']] as const) {
    const app = make({ genReqId: () => 'req-1' })
    app.get('/', async (request: any) => request.id)
    const res = await app.inject({ url: '/', headers: { 'request-id': 'from-the-client' } })
    assert.equal(res.body, expected)
    await app.close()
  }
  const asked = enclave5({ requestIdHeader: true })
  asked.get('/', async (request: any) => request.id)
  assert.equal((await asked.inject({ url: '/', headers: { 'request-id': 'from-the-client' } })).body, 'from-the-client')
  await asked.close()
})
