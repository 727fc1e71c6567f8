/**
 * A text body that is not valid UTF-8: what each level answers. Fastify 4 measures the decoded text against the
 * `Content-Length` (a mismatch: FST_ERR_CTP_INVALID_CONTENT_LENGTH); Fastify 5 counts bytes, so the body goes on.
 * Then, at both levels, a built-in parser the decoded text fails answers its own error (a gzip body sent as JSON is
 * not valid JSON), and a body it would take is refused (FST_ERR_CTP_INVALID_UTF8) rather than parsed with U+FFFD.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

const gzipped = gzipSync(JSON.stringify({ name: 'compressed' }))
// valid JSON once decoded: the two bytes become U+FFFD inside the string
const badString = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])
const invalidJsonBody = { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', error: 'Bad Request', message: "Body is not valid JSON but content-type is set to 'application/json'" }
const invalidUtf8Body = { statusCode: 400, code: 'FST_ERR_CTP_INVALID_UTF8', error: 'Bad Request', message: 'Request body is not valid UTF-8' }

function echoApp (make: () => any): any {
  const app = make()
  app.post('/', async (request: any) => request.body)
  return app
}

test('Fastify 5 level: a gzip body sent as JSON with its Content-Length gets the JSON parser\'s 400', async () => {
  const app = echoApp(enclave5)
  const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: gzipped })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), invalidJsonBody)
  await app.close()
})

test('Fastify 5 level: a gzip stream injected as JSON (no preParsing decoder) gets the JSON parser\'s 400', async () => {
  const app = echoApp(enclave5)
  const stream = new PassThrough()
  stream.end(gzipped)
  const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: stream })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), invalidJsonBody)
  await app.close()
})

test('Fastify 5 level: a non-UTF-8 body the parser would take is refused with FST_ERR_CTP_INVALID_UTF8, Content-Length or not', async () => {
  const app = echoApp(enclave5)
  const json = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: badString })
  assert.equal(json.statusCode, 400)
  assert.deepEqual(json.json(), invalidUtf8Body)
  const text = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, payload: gzipped })
  assert.equal(text.statusCode, 400)
  assert.deepEqual(text.json(), invalidUtf8Body)
  await app.close()
})

test('Fastify 4 level: the same bodies with their Content-Length get FST_ERR_CTP_INVALID_CONTENT_LENGTH (decoded length measured)', async () => {
  const app = echoApp(enclave)
  for (const [type, payload] of [['application/json', gzipped], ['application/json', badString], ['text/plain', gzipped]] as const) {
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload })
    assert.equal(res.statusCode, 400, type)
    assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', error: 'Bad Request', message: 'Request body size did not match Content-Length' })
  }
  await app.close()
})

test('Fastify 4 level: a chunked gzip body sent as JSON gets the JSON parser\'s own 400 (its SyntaxError message)', async (t) => {
  const app = echoApp(enclave)
  await app.listen({ port: 0 })
  t.after(() => app.close())
  const res = await fetch(`http://127.0.0.1:${String(app.server.address().port)}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({ start (controller) { controller.enqueue(gzipped); controller.close() } }),
    duplex: 'half'
  } as RequestInit)
  const body = await res.json() as Record<string, unknown>
  assert.equal(res.status, 400)
  assert.equal(body.code, undefined)
  assert.match(String(body.message), /is not valid JSON/)
})
