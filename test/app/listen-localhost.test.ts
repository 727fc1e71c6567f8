/**
 * listen() on localhost (the default host): every loopback address localhost resolves to is bound, on one port, as
 * Fastify 4 binds them; addresses the resolver gives that are not loopback never are. Real sockets throughout; the
 * resolver's answer is what the test sets.
 */
import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import dns from 'node:dns'
import http from 'node:http'
import enclave from '../../src/index'

function get (host: string, port: number): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host, port, path: '/', agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    }).on('error', reject)
  })
}

type Answer = Array<{ address: string, family: number }> | Error

function resolverSays (t: TestContext, answer: Answer) {
  return t.mock.method(dns.promises, 'lookup', async () => {
    if (answer instanceof Error) throw answer
    return answer
  })
}

test('localhost resolving to ::1 and 127.0.0.1: both are bound on one port, IPv4 first; a non-loopback answer is not', async (t) => {
  resolverSays(t, [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }, { address: '192.0.2.7', family: 4 }])
  const app = enclave()
  app.get('/', async (request: any) => ({ local: request.socket.localAddress }))
  const address = await app.listen({ port: 0 })
  const port = Number(new URL(address).port)
  assert.equal(address, `http://127.0.0.1:${port}`)
  assert.deepEqual(app.addresses().map((a: any) => [a.address, a.port]), [['127.0.0.1', port], ['::1', port]])
  assert.deepEqual(await get('127.0.0.1', port), { status: 200, body: JSON.stringify({ local: '127.0.0.1' }) })
  assert.deepEqual(await get('::1', port), { status: 200, body: JSON.stringify({ local: '::1' }) })
  await app.close()
  await assert.rejects(get('::1', port), { code: 'ECONNREFUSED' })
  await assert.rejects(get('127.0.0.1', port), { code: 'ECONNREFUSED' })
})

test('a resolver that fails or gives no loopback address: 127.0.0.1 alone', async (t) => {
  for (const answer of [new Error('resolver down'), [{ address: '192.0.2.7', family: 4 }]]) {
    const lookup = resolverSays(t, answer)
    const app = enclave()
    app.get('/', async () => 'ok')
    const address = await app.listen({ host: 'localhost', port: 0 })
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.equal(app.addresses().length, 1)
    assert.ok(lookup.mock.callCount() > 0)
    await app.close()
    lookup.mock.restore()
  }
})

test('an explicit address is bound as given, without asking the resolver', async (t) => {
  const lookup = resolverSays(t, [{ address: '::1', family: 6 }])
  const app = enclave()
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
  assert.equal(app.addresses().length, 1)
  assert.equal(lookup.mock.callCount(), 0)
  await app.close()
})

test('each address localhost is bound as gets its own "Server listening at" line, IPv6 in brackets', async (t) => {
  resolverSays(t, [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }])
  const lines: string[] = []
  const app = enclave({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line).msg) } } } })
  const address = await app.listen({ port: 0 })
  const port = new URL(address).port
  await app.close()
  assert.deepEqual(lines.filter((msg) => msg.startsWith('Server listening')), [
    `Server listening at http://127.0.0.1:${port}`,
    `Server listening at http://[::1]:${port}`
  ])
})
