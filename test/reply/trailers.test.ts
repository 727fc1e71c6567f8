import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { createHash } from 'node:crypto'
import { enclave } from '../helpers'

interface RawResponse { status: number, headers: http.IncomingHttpHeaders, body: string, trailers: NodeJS.Dict<string> }

/** A real HTTP/1.1 request, so that the trailers travel over a socket and are parsed by Node's client. */
function request (address: string, path: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http.request(address + path, { method }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, trailers: res.trailers }))
      res.on('error', reject)
    }).on('error', reject).end()
  })
}

function md5 (text: string): string {
  return createHash('md5').update(text).digest('hex')
}

describe('reply.trailer over a real socket', () => {
  test('callback, async and returning trailer functions are sent after a string body', async (t) => {
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply
        .trailer('content-md5', (_reply: any, payload: string, done: any) => { done(null, md5(payload)) })
        .trailer('Server-Timing', async () => 'db;dur=53')
        .trailer('x-sync', () => 'now')
        .send('hello world')
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await request(address, '/')
    assert.equal(res.status, 200)
    assert.equal(res.body, 'hello world')
    assert.equal(res.headers['transfer-encoding'], 'chunked')
    assert.equal(res.headers['content-length'], undefined)
    assert.equal(res.headers.trailer, 'content-md5 server-timing x-sync') // space-separated, as Fastify writes it
    assert.deepEqual({ ...res.trailers }, { 'content-md5': md5('hello world'), 'server-timing': 'db;dur=53', 'x-sync': 'now' })
  })

  test('a serialized object is the payload the trailer function receives', async (t) => {
    const app = enclave()
    app.get('/', async (_req: any, reply: any) => {
      reply.trailer('etag', (_reply: any, payload: string, done: any) => done(null, `"${md5(payload)}"`))
      return { hello: 'world' }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await request(address, '/')
    assert.equal(res.body, '{"hello":"world"}')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual({ ...res.trailers }, { etag: `"${md5('{"hello":"world"}')}"` })
  })

  test('a stream body ends after its trailers; the trailer function gets a null payload', async (t) => {
    const app = enclave()
    const seen: unknown[] = []
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('x-count', async (_reply: any, payload: unknown) => {
        seen.push(payload)
        return '3'
      })
      reply.type('text/plain').send(Readable.from(['a', 'b', 'c']))
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await request(address, '/')
    assert.equal(res.body, 'abc')
    assert.equal(res.headers.trailer, 'x-count')
    assert.deepEqual({ ...res.trailers }, { 'x-count': '3' })
    assert.deepEqual(seen, [null])
  })

  test('a stream that ended before it was sent still ends the response with its trailers', async (t) => {
    const spent = Readable.from(['gone'])
    spent.resume()
    await new Promise((resolve) => spent.once('end', resolve))
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('x-after', () => 'done').send(spent)
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await request(address, '/')
    assert.equal(res.status, 200)
    assert.equal(res.body, '')
    assert.equal(res.headers.trailer, 'x-after')
    assert.deepEqual({ ...res.trailers }, { 'x-after': 'done' })
  })

  test('HEAD requests get the GET headers and no trailers', async (t) => {
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('x-late', () => 'value').send('hello')
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const res = await request(address, '/', 'HEAD')
    assert.equal(res.status, 200)
    assert.equal(res.body, '')
    assert.equal(res.headers['content-length'], '5')
    assert.equal(res.headers.trailer, undefined)
    assert.deepEqual({ ...res.trailers }, {})
  })
})

describe('reply.trailer through inject', () => {
  test('an empty body still ends with its trailers', async () => {
    const app = enclave()
    const payloads: unknown[] = []
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('x-empty', (_reply: any, payload: unknown, done: any) => {
        payloads.push(payload)
        done(null, 'yes')
      }).send()
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, '')
    assert.equal(res.headers['transfer-encoding'], 'chunked')
    assert.equal(res.headers['content-length'], undefined)
    assert.equal(res.headers.trailer, 'x-empty')
    assert.deepEqual(res.trailers, { 'x-empty': 'yes' })
    assert.deepEqual(payloads, [null])
  })

  test('a failing trailer is left out; the others and the body are sent', async () => {
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply
        .trailer('x-callback-error', (_r: any, _p: unknown, done: any) => done(new Error('no')))
        .trailer('x-rejected', async () => { throw new Error('no') })
        .trailer('x-thrown', () => { throw new Error('no') })
        .trailer('x-good', async () => 'fine')
        .send('body')
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, 'body')
    assert.equal(res.headers.trailer, 'x-callback-error x-rejected x-thrown x-good')
    assert.deepEqual(res.trailers, { 'x-good': 'fine' })
  })

  test('hasTrailer and removeTrailer are case-insensitive; with none left the reply has a content-length', async () => {
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      const before = reply.hasTrailer('x-a')
      reply.trailer('X-A', () => 'a').trailer('x-b', () => 'b')
      const set = [reply.hasTrailer('x-a'), reply.hasTrailer('X-B')]
      assert.equal(reply.removeTrailer('x-A'), reply)
      reply.removeTrailer('x-b')
      reply.send({ before, set, after: reply.hasTrailer('x-a') })
    })
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { before: false, set: [true, true], after: false })
    assert.equal(res.headers['content-length'], String(res.payload.length))
    assert.equal(res.headers.trailer, undefined)
    assert.equal(res.headers['transfer-encoding'], undefined)
    assert.deepEqual(res.trailers, {})
  })

  test('a trailer removed by another trailer function while they run does not stall the response', async () => {
    const app = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply
        .trailer('x-first', (r: any) => { r.removeTrailer('x-second'); return '1' })
        .trailer('x-second', () => '2')
        .send('ok')
    })
    const res = await app.inject('/')
    assert.equal(res.payload, 'ok')
    assert.deepEqual(res.trailers, { 'x-first': '1', 'x-second': '2' })
  })

  test('a trailer removed while the stream body is read: the announced header stays, the response ends without it', async () => {
    const app = enclave()
    let called = false
    app.get('/', (_req: any, reply: any) => {
      const body = Readable.from((function * () {
        reply.removeTrailer('x-gone')
        yield 'streamed'
      })())
      reply.trailer('x-gone', () => { called = true; return 'never' }).send(body)
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, 'streamed')
    assert.equal(res.headers.trailer, 'x-gone')
    assert.deepEqual(res.trailers, {})
    assert.equal(called, false)
  })

  test('forbidden or malformed names throw FST_ERR_BAD_TRAILER_NAME; a non-function throws FST_ERR_BAD_TRAILER_VALUE', async () => {
    const app = enclave()
    const errors: Array<[string, string]> = []
    app.get('/', (_req: any, reply: any) => {
      for (const name of ['Content-Length', 'transfer-encoding', 'trailer', 'set-cookie', 'bad name']) {
        try {
          reply.trailer(name, () => 'x')
        } catch (err: any) {
          errors.push([err.code, err.message])
        }
      }
      try {
        reply.trailer('x-ok', 'not a function')
      } catch (err: any) {
        errors.push([err.code, err.message])
      }
      reply.send({ any: reply.hasTrailer('x-ok') })
    })
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { any: false })
    assert.deepEqual(errors, [
      ['FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: Content-Length'],
      ['FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: transfer-encoding'],
      ['FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: trailer'],
      ['FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: set-cookie'],
      ['FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: bad name'],
      ['FST_ERR_BAD_TRAILER_VALUE', "Called reply.trailer('x-ok', fn) with an invalid type: string. Expected a function."]
    ])
  })

  test('a reply without trailers keeps its content-length and sends no trailer header', async () => {
    const app = enclave()
    app.get('/', async () => 'plain')
    const res = await app.inject('/')
    assert.equal(res.headers['content-length'], '5')
    assert.equal(res.headers.trailer, undefined)
    assert.equal(res.headers['transfer-encoding'], undefined)
    assert.deepEqual(res.trailers, {})
  })
})
