/** A body that cannot be read is the client's fault: 400, with the reading error's message and code. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createGunzip } from 'node:zlib'
import { Transform } from 'node:stream'
import { enclave } from '../helpers'

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
