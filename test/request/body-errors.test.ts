/** A body that cannot be read is the client's fault: 400, with the reading error's message and code. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createGunzip, gzipSync } from 'node:zlib'
import { Transform } from 'node:stream'
import { enclave } from '../helpers'
import { rawRequest } from '../security/helpers'

/** POSTs `body` in one chunk with `transfer-encoding: chunked` (so without a Content-Length). */
async function postChunked (port: number, contentType: string, body: Buffer): Promise<{ status?: number, body: string }> {
  const http = await import('node:http')
  return await new Promise((resolve, reject) => {
    const req = http.request({ port, method: 'POST', path: '/', headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

function appWithDecoders (): any {
  const app = enclave()
  app.addHook('preParsing', async (request: any, _reply: any, payload: any) => {
    if (request.headers['content-encoding'] === 'gzip') return payload.pipe(createGunzip())
    if (request.headers['x-break'] !== undefined) {
      return payload.pipe(new Transform({ transform (_chunk, _encoding, callback) { callback(new Error('the decoder broke')) } }))
    }
    return payload
  })
  app.post('/', async (request: any) => request.body)
  return app
}

test('a gzip body that is not gzip answers 400 with zlib\'s code and message', async () => {
  const res = await appWithDecoders().inject({
    method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: 'plain text'
  })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { statusCode: 400, code: 'Z_DATA_ERROR', error: 'Bad Request', message: 'incorrect header check' })
})

test('a preParsing stream that fails answers 400 with its message', async () => {
  const res = await appWithDecoders().inject({
    method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'x-break': '1' }, payload: '{"a":1}'
  })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'the decoder broke' })
})

test('a body that is not valid UTF-8 is refused with 400 when read as text, and taken as bytes by a buffer parser', async (t) => {
  const app = enclave()
  app.post('/', async (request: any) => request.body)
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request: any, body: Buffer, done: any) => done(null, { bytes: body.length }))
  const invalid = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
  await app.listen({ port: 0 })
  t.after(() => app.close())
  for (const type of ['application/json', 'text/plain']) {
    // without a Content-Length (chunked), Enclave's own answer
    const chunked = await postChunked(app.server.address().port, type, invalid)
    assert.equal(chunked.status, 400, type)
    assert.deepEqual(JSON.parse(chunked.body), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_UTF8', error: 'Bad Request', message: 'Request body is not valid UTF-8' })
    // with one, Fastify's: it compares the length of the decoded text (longer: U+FFFD takes 3 bytes) to it
    const sized = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload: invalid })
    assert.deepEqual(sized.json(), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', error: 'Bad Request', message: 'Request body size did not match Content-Length' })
  }
  // a gzip body sent as plain JSON, as Fastify answers it
  const gzip = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: gzipSync('{"a":1}') })
  assert.deepEqual([gzip.statusCode, gzip.json().code], [400, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'])
  const bytes = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/octet-stream' }, payload: invalid })
  assert.deepEqual(bytes.json(), { bytes: invalid.length })
})

test('a body refused before it has all arrived (413) closes the connection: the rest is not read, nor taken for a next request', async (t) => {
  const http = await import('node:http')
  const app = enclave({ bodyLimit: 100 })
  t.after(() => app.close())
  app.post('/', async () => 'never')
  await app.listen({ port: 0 })
  const answer = await new Promise<{ status?: number, connection?: string }>((resolve, reject) => {
    const req = http.request({ port: app.server.address().port, method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'content-length': 100000 } }, (res) => {
      res.resume()
      resolve({ status: res.statusCode, connection: res.headers.connection })
    })
    req.on('error', reject)
    req.write('x'.repeat(1000))
  })
  assert.deepEqual(answer, { status: 413, connection: 'close' })
})

test('a refused body whose declared length fits the body limit keeps the connection (as Fastify): the next request is answered', async (t) => {
  const app = enclave({ bodyLimit: 100 })
  t.after(() => app.close())
  app.post('/', async () => 'parsed')
  app.get('/next', async () => 'next')
  await app.listen({ port: 0 })
  const unsupported = 'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: text/xml\r\ncontent-length: 4\r\n\r\n<a/>'
  const { responses } = await rawRequest(app.server.address().port, [unsupported, 'GET /next HTTP/1.1\r\nhost: x\r\n\r\n'],
    { afterEachAnswer: true, expectResponses: 2 })
  assert.deepEqual(responses.map((response) => [response.status, response.headers.connection]), [[415, 'keep-alive'], [200, 'keep-alive']])
  assert.equal(responses[1].body.toString(), 'next')
})

test('a refused chunked body, whose size nothing bounds, closes the connection after the answer', async (t) => {
  const app = enclave({ bodyLimit: 100 })
  t.after(() => app.close())
  app.post('/', async () => 'parsed')
  await app.listen({ port: 0 })
  const chunked = 'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: text/xml\r\ntransfer-encoding: chunked\r\n\r\n4\r\n<a/>\r\n'
  const { responses, ended } = await rawRequest(app.server.address().port, chunked)
  assert.deepEqual([responses.map((response) => [response.status, response.headers.connection]), ended], [[[415, 'close']], 'end'])
})
