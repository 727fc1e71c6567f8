import { test } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync, gzipSync, brotliDecompressSync } from 'node:zlib'
import { Readable } from 'node:stream'
import compress from '@fastify/compress'
import enclave from '../../src/index'

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item number ${i}` })) }

async function build (): Promise<any> {
  const app: any = enclave()
  await app.register(compress, { threshold: 1024 })
  app.get('/big', async () => big)
  app.get('/small', async () => ({ small: true }))
  app.get('/stream', async (_request: any, reply: any) => reply.type('text/plain').send(Readable.from(['chunk-1 ', 'chunk-2'])))
  app.get('/off', { compress: false }, async () => big)
  app.post('/echo', async (request: any) => ({ received: request.body }))
  return app
}

test('compress: JSON above the threshold is compressed by the negotiated encoding; small bodies are left alone', async () => {
  const app = await build()
  const gzip = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(gzip.statusCode, 200)
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  assert.equal(gzip.headers.vary, 'accept-encoding')
  assert.equal(gzip.headers['content-length'], undefined)
  assert.deepEqual(JSON.parse(gunzipSync(gzip.rawPayload).toString()), big)

  const br = await app.inject({ url: '/big', headers: { 'accept-encoding': 'br;q=1, gzip;q=0.5' } })
  assert.equal(br.headers['content-encoding'], 'br')
  assert.deepEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()), big)

  const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(small.headers['content-encoding'], undefined)
  assert.deepEqual(small.json(), { small: true })

  const identity = await app.inject({ url: '/big' })
  assert.equal(identity.headers['content-encoding'], undefined)
  assert.deepEqual(identity.json(), big)

  const off = await app.inject({ url: '/off', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(off.headers['content-encoding'], undefined)
  assert.deepEqual(off.json(), big)
  await app.close()
})

test('compress: a stream reply is compressed on the fly', async () => {
  const app = await build()
  const res = await app.inject({ url: '/stream', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-encoding'], 'gzip')
  assert.equal(gunzipSync(res.rawPayload).toString(), 'chunk-1 chunk-2')
  await app.close()
})

test('compress: a gzip request body is decompressed before the JSON parser; an unsupported encoding answers 415', async () => {
  const app = await build()
  const res = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: gzipSync(JSON.stringify({ a: 1 }))
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { received: { a: 1 } })

  const unsupported = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    payload: 'xyz'
  })
  assert.equal(unsupported.statusCode, 415)
  assert.deepEqual(unsupported.json(), {
    statusCode: 415,
    code: 'FST_CP_ERR_INVALID_CONTENT_ENCODING',
    error: 'Unsupported Media Type',
    message: 'Unsupported Content-Encoding: compress'
  })
  await app.close()
})
