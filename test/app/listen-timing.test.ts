/**
 * When `await app.listen()` hands control back: without onListen hooks, in the same turn of the event loop as the
 * server's 'listening', as Fastify's does. On localhost (the default host) that turn is the resolver's answer, an I/O
 * callback, so an immediate queued after listen() runs before a timer that is due. With hooks, listen() resolves once
 * those that wait on no I/O have run. On localhost it settles after the resolver's second answer (the other loopback
 * addresses), as Fastify's does, so a client's keep-alive connection to a server closed just before has seen its end.
 * Both levels.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

/** What runs first after `listen()` resolves: an immediate queued then, or a timer that is due by the next turn. */
async function firstAfterListen (app: any): Promise<string[]> {
  await app.listen({ port: 0 })
  const order: string[] = []
  setTimeout(() => order.push('timer'), 0)
  setImmediate(() => order.push('immediate'))
  const start = Date.now()
  // let the timer fall due before the event loop moves on
  while (Date.now() - start < 3);
  await new Promise((resolve) => setTimeout(resolve, 10))
  await app.close()
  return order
}

for (const [level, make] of [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]] as const) {
  test(`${level}: without onListen hooks, await listen() on localhost resumes in the resolver's I/O turn: an immediate queued then comes before a due timer`, async () => {
    const app = make()
    app.get('/', async () => 'ok')
    assert.deepEqual(await firstAfterListen(app), ['immediate', 'timer'])
  })

  test(`${level}: with onListen hooks, listen() resolves after a hook that waits on no I/O has run`, async () => {
    const app = make()
    const seen: string[] = []
    app.addHook('onListen', async () => { await Promise.resolve(); seen.push('hook') })
    await app.listen({ port: 0, host: '127.0.0.1' })
    seen.push('resolved')
    assert.deepEqual(seen, ['hook', 'resolved'])
    await app.close()
  })

  test(`${level}: a keep-alive client of a server closed without waiting reaches the next server listening on the same port`, async (t) => {
    const agent = new http.Agent({ keepAlive: true })
    t.after(() => agent.destroy())
    const get = (port: number): Promise<string> => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        let body = ''
        res.on('data', (chunk) => { body += chunk })
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
    const first = make()
    first.get('/', async () => 'first')
    await first.listen({ port: 0 })
    const port = first.server.address().port
    assert.equal(await get(port), 'first')
    // as a callback-style test suite does: the next test's server starts, then the previous one is closed, unawaited
    const second = make()
    second.get('/', async () => 'second')
    t.after(() => second.close())
    const listened = new Promise((resolve) => second.listen({ port }, resolve))
    void first.close()
    assert.equal(await listened, null)
    assert.equal(await get(port), 'second')
  })
}
