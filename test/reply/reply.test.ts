import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { ReadableStream } from 'node:stream/web'
import enclave from '../../src/index'

function logSink (): { stream: { write: (line: string) => void }, lines: any[] } {
  const lines: any[] = []
  return { lines, stream: { write (line: string) { lines.push(JSON.parse(line)) } } }
}

describe('status code', () => {
  test('code() and status() set the status', async () => {
    const app: any = enclave()
    app.get('/code', async (_req: any, reply: any) => reply.code(201).send('a'))
    app.get('/status', async (_req: any, reply: any) => reply.status(202).send('b'))
    assert.equal((await app.inject('/code')).statusCode, 201)
    assert.equal((await app.inject('/status')).statusCode, 202)
  })

  test('an invalid status code throws FST_ERR_BAD_STATUS_CODE', async () => {
    const app: any = enclave()
    const thrown: string[] = []
    app.get('/', async (_req: any, reply: any) => {
      for (const bad of [99, 600, 'abc', 599.5]) {
        try { reply.code(bad) } catch (err: any) { thrown.push(err.code) }
      }
      return 'ok'
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(thrown, Array(4).fill('FST_ERR_BAD_STATUS_CODE'))
  })

  test('a status with a fraction is truncated, as Node (and so Fastify) writes it', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.code(404.5).send('gone') })
    assert.equal((await app.inject('/')).statusCode, 404)
  })

  test('an invalid status code thrown from a handler answers 500', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => reply.code(1000).send('x'))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), {
      statusCode: 500, code: 'FST_ERR_BAD_STATUS_CODE', error: 'Internal Server Error', message: 'Called reply with an invalid status code: 1000'
    })
  })

  test('statusCode getter and setter', async () => {
    const app: any = enclave()
    let before = 0
    app.get('/', async (_req: any, reply: any) => {
      before = reply.statusCode
      reply.statusCode = 203
      return 'x'
    })
    const res = await app.inject('/')
    assert.equal(before, 200)
    assert.equal(res.statusCode, 203)
  })
})

describe('headers', () => {
  test('header, headers, getHeader, getHeaders, hasHeader, removeHeader', async () => {
    const app: any = enclave()
    let observed: any
    app.get('/', async (_req: any, reply: any) => {
      reply.header('X-One', '1').headers({ 'x-two': '2', 'x-three': '3' })
      reply.removeHeader('x-three')
      observed = {
        one: reply.getHeader('x-one'),
        oneUpper: reply.getHeader('X-ONE'),
        has: reply.hasHeader('x-two'),
        hasRemoved: reply.hasHeader('x-three'),
        all: reply.getHeaders()
      }
      return 'ok'
    })
    const res = await app.inject('/')
    assert.deepEqual(observed, { one: '1', oneUpper: '1', has: true, hasRemoved: false, all: { 'x-one': '1', 'x-two': '2' } })
    assert.equal(res.headers['x-one'], '1')
    assert.equal(res.headers['x-two'], '2')
    assert.equal(res.headers['x-three'], undefined)
  })

  test('set-cookie headers accumulate', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => reply.header('set-cookie', 'a=1').header('set-cookie', 'b=2').send('ok'))
    const res = await app.inject('/')
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2'])
  })

  test('header(key) without a value sets an empty header', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.header('x-empty').send('ok') })
    const res = await app.inject('/')
    assert.equal(res.headers['x-empty'], '')
  })

  test('an invalid header value answers one 500 instead of hanging', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.header('x-ok', 'fine').header('x-bad', 'a\nb').send('ok') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.headers['x-bad'], undefined)
    assert.deepEqual(res.json(), {
      statusCode: 500, code: 'ERR_INVALID_CHAR', error: 'Internal Server Error', message: 'Invalid character in header content ["x-bad"]'
    })
  })

  test('an invalid header on a stream reply answers one 500', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.header('x-bad', 'a\nb').send(Readable.from(['data'])) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'ERR_INVALID_CHAR')
  })

  test('a JSON type set without charset gets charset=utf-8, also for strings', async () => {
    const app: any = enclave()
    app.get('/plain', (_req: any, reply: any) => { reply.type('application/json').send('{"a":1}') })
    app.get('/semicolon', (_req: any, reply: any) => { reply.type('application/json;').send('{"a":1}') })
    app.get('/hal', (_req: any, reply: any) => { reply.type('application/hal+json').send({ a: 1 }) })
    for (const [url, type] of [['/plain', 'application/json; charset=utf-8'], ['/semicolon', 'application/json; charset=utf-8'], ['/hal', 'application/hal+json; charset=utf-8']]) {
      const res = await app.inject(url)
      assert.equal(res.headers['content-type'], type, url)
      assert.equal(res.payload, '{"a":1}', url)
    }
  })

  test('type() sets content-type and is kept for strings', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => reply.type('text/html').send('<p>hi</p>'))
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'text/html')
    assert.equal(res.payload, '<p>hi</p>')
  })
})

describe('send payloads', () => {
  test('an object is sent as JSON', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send({ hello: 'world' }) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(res.headers['content-length'], '17')
    assert.equal(res.payload, '{"hello":"world"}')
  })

  test('a string is sent as text/plain', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send('héllo') })
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.headers['content-length'], '6')
    assert.equal(res.payload, 'héllo')
  })

  test('a Buffer is sent as application/octet-stream', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send(Buffer.from([1, 2, 3])) })
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'application/octet-stream')
    assert.equal(res.headers['content-length'], '3')
    assert.deepEqual([...res.rawPayload], [1, 2, 3])
  })

  test('a Readable is streamed', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send(Readable.from(['a', 'b'])) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, 'ab')
    assert.equal(res.headers['content-length'], undefined)
  })

  test('a file stream is streamed', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-reply-'))
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
    const file = path.join(dir, 'data.txt')
    fs.writeFileSync(file, 'file contents\n'.repeat(1000))
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => reply.type('text/plain').send(fs.createReadStream(file)))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/plain')
    assert.equal(res.payload, 'file contents\n'.repeat(1000))
  })

  test('a stream that errors before data gives one well-formed 500', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      const stream = new Readable({ read () { this.destroy(new Error('stream broke')) } })
      reply.send(stream)
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'stream broke' })
  })

  test('a missing file stream gives one well-formed 500 over a real socket', async (t) => {
    const app: any = enclave()
    t.after(() => app.close())
    app.get('/', async (_req: any, reply: any) => reply.send(fs.createReadStream('/nonexistent/enclave/file')))
    const address = await app.listen({ port: 0 })
    const res = await fetch(address)
    assert.equal(res.status, 500)
    const body: any = await res.json()
    assert.equal(body.statusCode, 500)
    assert.equal(body.code, 'ENOENT')
  })

  test('an Error goes to the error handler', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send(Object.assign(new Error('teapot'), { statusCode: 418 })) })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { statusCode: 418, error: "I'm a Teapot", message: 'teapot' })
  })

  test('send() with nothing answers an empty body', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.send() })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, '')
    assert.equal(res.headers['content-length'], '0')
  })

  test('a web ReadableStream is streamed', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.type('text/plain').send(new ReadableStream({
        start (controller) {
          controller.enqueue(new TextEncoder().encode('web '))
          controller.enqueue(new TextEncoder().encode('stream'))
          controller.close()
        }
      }))
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/plain')
    assert.equal(res.payload, 'web stream')
  })

  test('a fetch Response brings its status, headers and body', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.header('x-reply', 'kept')
      reply.send(new Response('response body', { status: 201, headers: { 'content-type': 'text/x-custom', 'x-response': '1' } }))
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 201)
    assert.equal(res.headers['content-type'], 'text/x-custom')
    assert.equal(res.headers['x-response'], '1')
    assert.equal(res.headers['x-reply'], 'kept')
    assert.equal(res.payload, 'response body')
  })

  test('a Response whose body was read, or a locked web stream, answers 500 instead of hanging', async () => {
    const app: any = enclave()
    app.get('/used', async (_req: any, reply: any) => {
      const response = new Response('read already')
      await response.text()
      return reply.send(response)
    })
    app.get('/locked-response', async (_req: any, reply: any) => {
      const response = new Response('held', { headers: { 'x-held': 'yes' } })
      response.body!.getReader()
      return reply.send(response)
    })
    app.get('/locked-stream', async (_req: any, reply: any) => {
      const stream = new Response('held').body!
      stream.getReader()
      return reply.send(stream)
    })
    const used = await app.inject('/used')
    assert.deepEqual([used.statusCode, used.json()], [500, {
      statusCode: 500, code: 'FST_ERR_REP_RESPONSE_BODY_CONSUMED', error: 'Internal Server Error', message: 'Response.body is already consumed.'
    }])
    const locked = {
      statusCode: 500,
      code: 'FST_ERR_REP_READABLE_STREAM_LOCKED',
      error: 'Internal Server Error',
      message: 'ReadableStream was locked. You should call releaseLock() method on reader before sending.'
    }
    for (const url of ['/locked-response', '/locked-stream']) {
      const res = await app.inject(url)
      assert.deepEqual([res.statusCode, res.json()], [500, locked], url)
      // the Response's own status and headers are not applied to the error answer
      assert.equal(res.headers['x-held'], undefined)
    }
  })

  test('a Content-Length header that is not the body\'s length is corrected (it would break the connection\'s framing)', async (t) => {
    const app: any = enclave()
    app.get('/wrong', async (_req: any, reply: any) => { reply.header('content-length', '2'); return 'hello' })
    app.get('/right', async (_req: any, reply: any) => { reply.header('content-length', '5'); return 'hello' })
    app.head('/head', async (_req: any, reply: any) => { reply.header('content-length', '1000'); return '' })
    for (const url of ['/wrong', '/right']) {
      const res = await app.inject(url)
      assert.deepEqual([res.headers['content-length'], res.payload], ['5', 'hello'], url)
    }
    // a HEAD route of its own may announce the length of the GET body it stands for; the automatic HEAD route of a
    // GET announces the length of the body that GET handler gave (as Fastify does)
    assert.equal((await app.inject({ method: 'HEAD', url: '/head' })).headers['content-length'], '1000')
    const autoHead = await app.inject({ method: 'HEAD', url: '/wrong' })
    assert.deepEqual([autoHead.headers['content-length'], autoHead.payload], ['5', ''])

    // over a real keep-alive connection, the next response is intact
    const address = await app.listen({ port: 0 })
    t.after(() => app.close())
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 })
    t.after(() => agent.destroy())
    for (let i = 0; i < 2; i++) {
      const res = await fetchWithAgent(`${address}/wrong`, agent)
      assert.deepEqual(res, { status: 200, body: 'hello' })
    }
  })

  test('HEAD with a stream payload sends the headers only and releases the stream', async () => {
    const app: any = enclave()
    let destroyed = false
    app.get('/stream', async (_req: any, reply: any) => {
      const stream = new Readable({ read () { this.push('data'); this.push(null) } })
      stream.on('close', () => { destroyed = true })
      return reply.type('text/plain').send(stream)
    })
    const res = await app.inject({ method: 'HEAD', url: '/stream' })
    assert.deepEqual([res.statusCode, res.headers['content-type'], res.payload], [200, 'text/plain', ''])
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(destroyed, true)
  })

  test('null is sent as JSON null and goes through preSerialization', async () => {
    const app: any = enclave()
    app.addHook('preSerialization', async (_req: any, _reply: any, payload: any) => ({ wrapped: payload }))
    app.get('/', (_req: any, reply: any) => { reply.send(null) })
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual(res.json(), { wrapped: null })
  })

  test('serializer(fn) also serializes a string when a content type is set', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.type('application/x-custom').serializer((p: string) => `<${p}>`).send('text')
    })
    const res = await app.inject('/')
    assert.equal(res.payload, '<text>')
  })

  test('serializer(fn) serializes this reply', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.type('application/x-custom').serializer((p: any) => `custom:${p.a}`).send({ a: 1 })
    })
    const res = await app.inject('/')
    assert.equal(res.headers['content-type'], 'application/x-custom')
    assert.equal(res.payload, 'custom:1')
  })
})

describe('redirect, callNotFound, hijack', () => {
  test('redirect(url) answers 302 with location', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.redirect('/elsewhere') })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 302)
    assert.equal(res.headers.location, '/elsewhere')
    assert.equal(res.payload, '')
  })

  test('redirect(code, url) uses the given code, with Fastify 4\'s FSTDEP021 warning once', async (t) => {
    const warnings: string[] = []
    const onWarning = (warning: any): void => { warnings.push(warning.code) }
    process.on('warning', onWarning)
    t.after(() => { process.off('warning', onWarning) })
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.redirect(301, '/moved') })
    app.get('/new', (_req: any, reply: any) => { reply.redirect('/moved', 308) })
    for (let i = 0; i < 2; i++) {
      const res = await app.inject('/')
      assert.deepEqual([res.statusCode, res.headers.location], [301, '/moved'])
    }
    const res = await app.inject('/new')
    assert.deepEqual([res.statusCode, res.headers.location], [308, '/moved'])
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings.filter((code) => code.startsWith('FSTDEP')), ['FSTDEP021'])
  })

  test('redirect keeps a code set earlier', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => reply.code(303).redirect('/see'))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, '/see')
  })

  test('callNotFound answers with the not-found handler', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => { reply.callNotFound() })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { message: 'Route GET:/ not found', error: 'Not Found', statusCode: 404 })
  })

  test('callNotFound uses a custom not-found handler', async () => {
    const app: any = enclave()
    app.setNotFoundHandler((req: any, reply: any) => { reply.code(404).send('custom 404 ' + req.url) })
    app.get('/x', async (_req: any, reply: any) => { reply.callNotFound(); return reply })
    const res = await app.inject('/x')
    assert.equal(res.statusCode, 404)
    assert.equal(res.payload, 'custom 404 /x')
  })

  test('callNotFound inside the not-found handler sends a basic 404 instead of looping', async () => {
    const app: any = enclave()
    app.setNotFoundHandler((_req: any, reply: any) => { reply.callNotFound() })
    const res = await app.inject('/missing')
    assert.equal(res.statusCode, 404)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.payload, '404 Not Found')
  })

  test('hijack() lets the handler write to reply.raw', async () => {
    const app: any = enclave()
    let onSendCalled = false
    app.addHook('onSend', async () => { onSendCalled = true })
    app.get('/', async (_req: any, reply: any) => {
      reply.hijack()
      reply.raw.writeHead(200, { 'content-type': 'text/plain' })
      reply.raw.end('raw answer')
      return 'ignored'
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, 'raw answer')
    assert.equal(onSendCalled, false)
  })

  test('a hook that hijacks and then throws or rejects leaves the raw answer alone and logs nothing more', async () => {
    for (const hook of ['onRequest', 'preValidation', 'preHandler']) {
      for (const style of ['throws', 'rejects']) {
        const { stream, lines } = logSink()
        const app: any = enclave({ logger: { stream, level: 'info' } })
        const after = (reply: any): void => { reply.hijack(); reply.raw.end('hijacked') }
        app.addHook(hook, style === 'throws'
          ? (_req: any, reply: any) => { after(reply); throw new Error('after hijack') }
          : async (_req: any, reply: any) => { after(reply); throw new Error('after hijack') })
        app.get('/', async () => 'handler')
        const res = await app.inject('/')
        await new Promise((resolve) => setImmediate(resolve))
        assert.deepEqual([res.statusCode, res.payload], [200, 'hijacked'], `${hook} ${style}`)
        assert.deepEqual(lines.filter((line) => line.level > 30), [], `${hook} ${style}`)
      }
    }
  })

  test('raw is the node ServerResponse', async () => {
    const app: any = enclave()
    app.get('/', (_req: any, reply: any) => {
      reply.raw.setHeader('x-raw', 'yes')
      reply.send({ isResponse: typeof reply.raw.writeHead === 'function' })
    })
    const res = await app.inject('/')
    assert.equal(res.headers['x-raw'], 'yes')
    assert.deepEqual(res.json(), { isResponse: true })
  })
})

describe('sent, getResponseTime, return values', () => {
  test('sent is false before send and true after', async () => {
    const app: any = enclave()
    const seen: boolean[] = []
    app.get('/', (_req: any, reply: any) => {
      seen.push(reply.sent)
      reply.send('x')
      seen.push(reply.sent)
    })
    await app.inject('/')
    assert.deepEqual(seen, [false, true])
  })

  test('getResponseTime() is a number >= 0 and warns FSTDEP020 once; request logging does not call it', async (t) => {
    const warnings: string[] = []
    const onWarning = (warning: any): void => { warnings.push(warning.code) }
    process.on('warning', onWarning)
    t.after(() => { process.off('warning', onWarning) })
    const logged = enclave({ logger: { level: 'info', stream: { write () {} } } })
    logged.get('/', async () => 'x')
    await logged.inject('/')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings, [])
    const app: any = enclave()
    let time = -1
    app.get('/', async (_req: any, reply: any) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      time = reply.getResponseTime()
      return 'x'
    })
    await app.inject('/')
    await app.inject('/')
    assert.equal(typeof time, 'number')
    assert.ok(time >= 4, `response time ${time}`)
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings, ['FSTDEP020'])
  })

  test('an async handler return value is sent', async () => {
    const app: any = enclave()
    app.get('/', async () => ({ async: true }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { async: true })
  })

  test('a sync handler return value is sent', async () => {
    const app: any = enclave()
    app.get('/', () => ({ sync: true }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { sync: true })
  })

  test('returning reply after reply.send does not send twice', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'warn' } })
    app.get('/', async (_req: any, reply: any) => {
      reply.send('once')
      return reply
    })
    const res = await app.inject('/')
    assert.equal(res.payload, 'once')
    assert.deepEqual(sink.lines, [])
  })

  test('returning reply then sending later works', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => {
      setTimeout(() => reply.send('later'), 5)
      return reply
    })
    const res = await app.inject('/')
    assert.equal(res.payload, 'later')
  })

  test('sending twice logs a warning and sends once', async () => {
    const sink = logSink()
    const app: any = enclave({ logger: { stream: sink.stream, level: 'warn' } })
    app.get('/', (_req: any, reply: any) => {
      reply.send('first')
      reply.send('second')
    })
    const res = await app.inject('/')
    assert.equal(res.payload, 'first')
    const warnings = sink.lines.filter((l) => l.level === 40)
    assert.equal(warnings.length, 1)
    assert.equal(warnings[0].msg, 'Reply was already sent, did you forget to "return reply" in "/" (GET)?')
    assert.equal(warnings[0].err.code, 'FST_ERR_REP_ALREADY_SENT')
  })

  test('an async handler resolving undefined with 204 sends an empty 204', async () => {
    const app: any = enclave()
    app.delete('/', async (_req: any, reply: any) => { reply.code(204) })
    const res = await app.inject({ method: 'DELETE', url: '/' })
    assert.equal(res.statusCode, 204)
    assert.equal(res.payload, '')
    assert.equal(res.headers['content-length'], undefined)
  })

  test('204 answers carry neither body nor content-type', async () => {
    const app: any = enclave()
    app.get('/', async (_req: any, reply: any) => { reply.code(204); return { ignored: true } })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 204)
    assert.equal(res.payload, '')
    assert.equal(res.headers['content-type'], undefined)
  })

  test('headers set for an empty 204 answer are kept', async () => {
    const app: any = enclave()
    app.options('/', (_req: any, reply: any) => { reply.code(204).header('content-length', '0').header('x-preflight', 'ok').send() })
    const res = await app.inject({ method: 'OPTIONS', url: '/' })
    assert.equal(res.statusCode, 204)
    assert.equal(res.headers['content-length'], '0')
    assert.equal(res.headers['x-preflight'], 'ok')
  })

  test('an async handler resolving undefined without sending answers an empty 200 (no hang)', async () => {
    const app: any = enclave()
    app.get('/', async () => undefined)
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.payload, '')
    assert.equal(res.headers['content-length'], '0')
  })

  test('an async handler resolving null sends JSON null', async () => {
    const app: any = enclave()
    app.get('/', async () => null)
    const res = await app.inject('/')
    assert.equal(res.payload, 'null')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  })
})

describe('reply.then (await reply)', () => {
  test('await reply resolves (with undefined) once the response is written, whoever sends it', async () => {
    const app = enclave()
    const order: string[] = []
    app.get('/later', async (_req: any, reply: any) => {
      setTimeout(() => { order.push('send'); reply.send('late') }, 10)
      const value = await reply
      order.push(`awaited ${String(value)} ended=${String(reply.raw.writableEnded)}`)
      return reply
    })
    const res = await app.inject('/later')
    assert.deepEqual([res.statusCode, res.payload], [200, 'late'])
    assert.deepEqual(order, ['send', 'awaited undefined ended=true'])
  })

  test('return reply.send(x) from an async handler answers once, with nothing logged', async () => {
    const sink = logSink()
    const app = enclave({ logger: { stream: sink.stream, level: 'warn' } })
    app.get('/', async (_req: any, reply: any) => reply.code(201).send({ created: true }))
    const res = await app.inject('/')
    assert.deepEqual([res.statusCode, res.json()], [201, { created: true }])
    assert.deepEqual(sink.lines, [])
  })

  test('then(fulfilled) on a reply already answered over a real socket fulfils', async (t) => {
    const app = enclave()
    let replyOf: any
    app.get('/', async (_req: any, reply: any) => { replyOf = reply; return 'ok' })
    const address = await app.listen({ port: 0 })
    t.after(() => app.close())
    assert.equal(await (await fetch(address)).text(), 'ok')
    const outcome = await new Promise((resolve) => replyOf.then(() => resolve('fulfilled'), () => resolve('rejected')))
    assert.equal(outcome, 'fulfilled')
  })

  test('a client that goes away before the end fulfils rather than rejects', async (t) => {
    const app = enclave()
    let settled: (outcome: string) => void = () => {}
    const outcome = new Promise<string>((resolve) => { settled = resolve })
    app.get('/stream', (_req: any, reply: any) => {
      const body = new Readable({ read () {} })
      body.push('first chunk')
      reply.send(body)
      reply.then(() => settled('fulfilled'), (err: Error) => settled(`rejected ${err.message}`))
    })
    const address = await app.listen({ port: 0 })
    t.after(() => app.close())
    const { request } = await import('node:http')
    const req = request(`${address}/stream`, (res) => { res.once('data', () => req.destroy()) })
    req.on('error', () => {})
    req.end()
    assert.equal(await outcome, 'fulfilled')
  })
})

/** GET over a given agent (fetch has no keep-alive agent option): status and body. */
async function fetchWithAgent (url: string, agent: any): Promise<{ status: number, body: string }> {
  const { get } = await import('node:http')
  return await new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    }).on('error', reject)
  })
}
