/**
 * `reply.writeEarlyHints()` (Fastify 5, present at both levels): a `103 Early Hints` answer before the final one,
 * over HTTP/1.1 and HTTP/2.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import http2 from 'node:http2'
import { enclave } from '../helpers'
import typedEnclave5 from '../../src/fastify5'

const enclave5 = typedEnclave5 as unknown as (options?: Record<string, any>) => any
const preload = '</app.css>; rel=preload; as=style'

for (const [level, factory] of [['4', enclave], ['5', enclave5]] as const) {
  test(`Fastify ${level} level, HTTP/1.1: the hints arrive as a 103 before the 200, and the callback runs`, async (t) => {
    const app = factory()
    let calledBack = false
    app.get('/', async (_req: any, reply: any) => {
      await new Promise<void>((resolve) => reply.writeEarlyHints({ link: preload, 'x-hint': ['a', 'b'] }, () => {
        calledBack = true
        resolve()
      }))
      reply.header('x-final', 'yes')
      return 'page'
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const events: Array<[number, string | undefined, string]> = []
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.get(address)
      req.on('information', (info) => events.push([info.statusCode, info.headers.link as string | undefined, String(info.headers['x-hint'])]))
      req.on('response', (res) => {
        events.push([res.statusCode!, res.headers.link as string | undefined, String(res.headers['x-final'])])
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { text += chunk })
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
    })
    assert.equal(calledBack, true)
    assert.equal(body, 'page')
    assert.deepEqual(events, [[103, preload, 'a,b'], [200, undefined, 'yes']])
  })
}

test('HTTP/2: the hints are an informational HEADERS frame with :status 103', async (t) => {
  const app = enclave5({ http2: true })
  app.get('/', async (_req: any, reply: any) => {
    reply.writeEarlyHints({ link: preload })
    return 'page'
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  const client = http2.connect(address)
  t.after(() => client.close())
  const statuses: Array<[unknown, unknown]> = []
  const body = await new Promise<string>((resolve, reject) => {
    const req = client.request({ ':path': '/' })
    req.on('headers', (headers) => statuses.push([headers[':status'], headers.link]))
    req.on('response', (headers) => statuses.push([headers[':status'], headers.link]))
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { text += chunk })
    req.on('end', () => resolve(text))
    req.on('error', reject)
    req.end()
  })
  assert.equal(body, 'page')
  assert.deepEqual(statuses, [[103, preload], [200, undefined]])
})
