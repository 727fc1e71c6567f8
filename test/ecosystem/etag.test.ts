import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import etag from '@fastify/etag'
import enclave from '../../src/index'

const body = JSON.stringify({ hello: 'world' })
const sha1 = '"' + createHash('sha1').update(body).digest('base64') + '"'

async function build (options: Record<string, unknown> = {}): Promise<any> {
  const app: any = enclave()
  await app.register(etag, options)
  app.get('/', async () => ({ hello: 'world' }))
  app.get('/preset', async (_request: any, reply: any) => {
    reply.header('etag', '"fixed"')
    return 'text'
  })
  return app
}

test('etag: an onSend hook hashes string payloads; a matching If-None-Match answers 304 with content-length 0', async () => {
  const app = await build()
  const first = await app.inject('/')
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers.etag, sha1)
  assert.equal(first.body, body)

  const again = await app.inject({ url: '/', headers: { 'if-none-match': sha1 } })
  assert.equal(again.statusCode, 304)
  assert.equal(again.body, '')
  assert.equal(again.headers.etag, sha1)
  assert.equal(again.headers['content-length'], '0')

  const weakMatch = await app.inject({ url: '/', headers: { 'if-none-match': 'W/' + sha1 } })
  assert.equal(weakMatch.statusCode, 304)

  const other = await app.inject({ url: '/', headers: { 'if-none-match': '"something-else"' } })
  assert.equal(other.statusCode, 200)
  assert.equal(other.body, body)
  await app.close()
})

test('etag: an etag set by the route is kept and compared; replyWith304 false only sets the header', async () => {
  const app = await build({ weak: true, algorithm: 'fnv1a' })
  const preset = await app.inject({ url: '/preset', headers: { 'if-none-match': '"fixed"' } })
  assert.equal(preset.statusCode, 304)
  assert.equal(preset.headers.etag, '"fixed"')
  assert.equal(preset.headers['content-length'], '0')
  const weak = await app.inject('/')
  assert.equal(weak.headers.etag, 'W/"1efy27v"')
  await app.close()

  const noNotModified = await build({ replyWith304: false })
  const res = await noNotModified.inject({ url: '/', headers: { 'if-none-match': sha1 } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers.etag, sha1)
  assert.equal(res.body, body)
  await noNotModified.close()
})

test('etag: a 304 over a real socket carries the headers and no body', async (t) => {
  const app = await build()
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = `http://127.0.0.1:${app.server.address().port}/`
  const res = await fetch(address, { headers: { 'if-none-match': sha1 } })
  assert.equal(res.status, 304)
  assert.equal(res.headers.get('etag'), sha1)
  assert.equal(res.headers.get('content-length'), '0')
  assert.equal(await res.text(), '')
})
