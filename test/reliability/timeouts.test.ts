import { test, describe } from 'node:test'
import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import { rawRequest, rawGet, sleep } from '../security/helpers'

/** A failed assertion must not leave a listening server behind (the test process would never exit). */
function closeOnExit (t: TestContext, app: any): void {
  t.after(() => {
    if (app.server.listening) {
      app.server.closeAllConnections()
      app.server.close()
    }
  })
}

describe('timeout options', () => {
  test('connectionTimeout, keepAliveTimeout and requestTimeout reach the server and initialConfig', async (t) => {
    const app: any = enclave({ connectionTimeout: 1234, keepAliveTimeout: 2345, requestTimeout: 3456 })
    closeOnExit(t, app)
    await app.ready()
    assert.equal(app.server.timeout, 1234)
    assert.equal(app.server.keepAliveTimeout, 2345)
    assert.equal(app.server.requestTimeout, 3456)
    assert.equal(app.initialConfig.connectionTimeout, 1234)
    assert.equal(app.initialConfig.keepAliveTimeout, 2345)
    assert.equal(app.initialConfig.requestTimeout, 3456)
    await app.close()
  })

  test('invalid values fail at construction; numeric strings are taken as Fastify takes them', () => {
    for (const name of ['connectionTimeout', 'keepAliveTimeout', 'requestTimeout']) {
      assert.throws(() => enclave({ [name]: -1 } as any), { code: 'FST_ERR_INIT_OPTS_INVALID', message: `Invalid initialization options: '["must be >= 0"]'` })
      assert.throws(() => enclave({ [name]: 'ten' } as any), { code: 'FST_ERR_INIT_OPTS_INVALID' })
      assert.equal((enclave({ [name]: '10' } as any).initialConfig as Record<string, unknown>)[name], 10)
    }
  })
})

/** Cut off means: a 408 (well-formed, JSON) or a closed socket, well before the client would have finished. */
function assertCutOff (result: any, boundMs: number): void {
  assert.notEqual(result.ended, 'timeout', `the slow client was not cut off within ${boundMs} ms`)
  assert.ok(result.elapsedMs < boundMs, `cut off after ${result.elapsedMs} ms`)
  if (result.responses.length > 0) {
    assert.equal(result.responses[0].status, 408, result.raw.toString('latin1'))
    assert.equal(JSON.parse(result.responses[0].body.toString()).statusCode, 408)
  }
}

describe('slow clients (requestTimeout: 500)', () => {
  test('headers trickled one byte at a time are cut off', async (t) => {
    const app: any = enclave({ requestTimeout: 500 })
    closeOnExit(t, app)
    app.get('/', async () => ({ ok: true }))
    await app.listen({ port: 0 })
    const port = app.server.address().port
    // 60 bytes at 50 ms each would take 3 s; the server must stop it after ~0.5 s
    const request = 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(40) + '\r\n\r\n'
    const result = await rawRequest(port, [...request], { interval: 50, timeout: 4000 })
    assertCutOff(result, 2500)
    assert.equal((await rawGet(port, '/')).status, 200)
    await app.close()
  })

  test('a body trickled one byte at a time is cut off and never reaches the handler', async (t) => {
    const app: any = enclave({ requestTimeout: 500 })
    closeOnExit(t, app)
    let called = 0
    app.post('/', async () => { called++; return { ok: true } })
    app.get('/', async () => ({ ok: true }))
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const body = '{"a":"' + 'x'.repeat(50) + '"}'
    const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
    const result = await rawRequest(port, [head, ...body], { interval: 50, timeout: 4000 })
    assertCutOff(result, 2500)
    assert.equal(called, 0)
    assert.equal((await rawGet(port, '/')).status, 200)
    await app.close()
  })
})

describe('onTimeout', () => {
  test('runs when connectionTimeout expires while a request is in flight', async (t) => {
    const app: any = enclave({ connectionTimeout: 200 })
    closeOnExit(t, app)
    const timedOut: string[] = []
    app.addHook('onTimeout', async (request: any) => { timedOut.push(request.url) })
    app.get('/slow', async () => { await sleep(600); return { late: true } })
    app.get('/fast', async () => ({ ok: true }))
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const result = await rawRequest(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', { timeout: 3000 })
    assert.notEqual(result.ended, 'timeout')
    assert.equal(result.responses.length, 0, 'the timed-out socket is closed without an answer')
    assert.ok(result.elapsedMs < 600, `closed after ${result.elapsedMs} ms`)
    await sleep(50)
    assert.deepEqual(timedOut, ['/slow'])
    assert.equal((await rawGet(port, '/fast')).status, 200)
    await sleep(600) // let the slow handler finish: its late answer must not crash anything
    assert.equal((await rawGet(port, '/fast')).status, 200)
    await app.close()
  })
})

describe('keepAliveTimeout', () => {
  test('an idle kept-alive socket is closed after keepAliveTimeout', async (t) => {
    const app: any = enclave({ keepAliveTimeout: 200 })
    closeOnExit(t, app)
    app.get('/', async () => ({ ok: true }))
    await app.listen({ port: 0 })
    const port = app.server.address().port
    const result = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { timeout: 3000 })
    assert.equal(result.ended, 'end')
    assert.equal(result.responses.length, 1)
    assert.equal(result.responses[0].status, 200)
    assert.ok(result.elapsedMs >= 150 && result.elapsedMs < 1500, `closed after ${result.elapsedMs} ms`)
    await app.close()
  })
})
