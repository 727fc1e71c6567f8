/**
 * Web `ReadableStream` bodies: read one chunk at a time as the response takes them, cancelled when the response
 * closes first or the request is HEAD; a head the handler wrote itself is kept, with Fastify's warning.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { ReadableStream } from 'node:stream/web'
import { Writable } from 'node:stream'
import { enclave } from '../helpers'
import typedEnclave5 from '../../src/fastify5'

const enclave5 = typedEnclave5 as unknown as (options?: Record<string, any>) => any

/** A logger that records `[level, message]` of every line at or above info. */
function recordingLogger (): { logger: Record<string, unknown>, lines: Array<[string, string, unknown]> } {
  const lines: Array<[string, string, unknown]> = []
  const logger: Record<string, unknown> = { level: 'info' }
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace']) {
    logger[level] = (first: unknown, message?: string) => {
      if (typeof first === 'string') lines.push([level, first, undefined])
      else lines.push([level, String(message), (first as { err?: unknown } | null)?.err])
    }
  }
  logger.child = () => logger
  return { logger, lines }
}

for (const [level, factory] of [['4', enclave], ['5', enclave5]] as const) {
  test(`Fastify ${level} level: a response closed while waiting for 'drain' cancels the stream and reads no further`, async (t) => {
    const app = factory()
    const pulls: number[] = []
    let cancelled: () => void
    const cancelledNow = new Promise<void>((resolve) => { cancelled = resolve })
    app.get('/', (_req: any, reply: any) => {
      const res = reply.raw
      const write = res.write.bind(res)
      let first = true
      // the first write fills the buffer; the response is then destroyed before its 'drain'
      res.write = (chunk: unknown, ...rest: unknown[]) => {
        if (!first) return write(chunk, ...rest)
        first = false
        queueMicrotask(() => { res.destroy(); res.emit('drain') })
        return false
      }
      let n = 0
      reply.type('text/plain').send(new ReadableStream({
        pull (controller) {
          pulls.push(++n)
          controller.enqueue(new TextEncoder().encode(`chunk ${n}`))
        },
        cancel () { cancelled() }
      }, { highWaterMark: 0 }))
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    t.after(() => app.close())
    const req = http.get(address, (res) => res.resume())
    req.on('error', () => {})
    await cancelledNow
    // one chunk written, at most one more asked for by the reader; never read again after the close
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.ok(pulls.length <= 2, `pulled ${pulls.length} chunks`)
  })
}

test('a slow client: the stream is read only as fast as the response drains, and ends complete', async (t) => {
  const app = enclave5()
  // 64 MiB: far more than the kernel's and Node's buffers on a loopback connection hold (a few MiB, more on newer
  // Node lines), so a server that read the whole stream regardless of the client would be seen
  const size = 64 * 1024
  const chunks = 1024
  let pulled = 0
  app.get('/', (_req: any, reply: any) => {
    reply.type('application/octet-stream').send(new ReadableStream({
      pull (controller) {
        if (++pulled > chunks) controller.close()
        else controller.enqueue(new Uint8Array(size).fill(pulled % 256))
      }
    }, { highWaterMark: 0 }))
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  const res = await new Promise<http.IncomingMessage>((resolve) => http.get(address, resolve))
  // nothing read by the client yet: the server has stopped pulling long before the end
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.ok(pulled < chunks / 4, `pulled ${pulled} of ${chunks} chunks before the client read anything`)
  let received = 0
  const sink = new Writable({ write (chunk: Buffer, _enc, done) { received += chunk.length; done() } })
  res.pipe(sink)
  await once(sink, 'finish')
  assert.equal(received, chunks * size)
})

test('HEAD: the GET route\'s web stream is cancelled with a reason; a failing cancel is logged, not thrown', async () => {
  const { logger, lines } = recordingLogger()
  const app = enclave({ logger })
  const reasons: unknown[] = []
  app.get('/', (_req: any, reply: any) => {
    reply.send(new ReadableStream({
      start (controller) { controller.enqueue('never read') },
      cancel (reason) {
        reasons.push(reason)
        throw new Error('cancel failed')
      }
    }))
  })
  const res = await app.inject({ method: 'HEAD', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.payload, '')
  assert.equal(res.headers['content-type'], undefined)
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(reasons, ['Stream cancelled by HEAD route'])
  const logged = lines.find(([lvl]) => lvl === 'error')
  assert.deepEqual(logged?.slice(0, 2), ['error', 'Error on Stream found for HEAD route'])
  assert.equal((logged?.[2] as Error).message, 'cancel failed')
})

test('a head written by the handler itself is kept for a stream body, with Fastify\'s warning (web and Node streams)', async (t) => {
  const { logger, lines } = recordingLogger()
  const app = enclave({ logger })
  app.get('/web', (_req: any, reply: any) => {
    reply.raw.writeHead(202, { 'content-type': 'text/x-own' })
    reply.header('x-ignored', 'late').send(new ReadableStream({ start (c) { c.enqueue('web body'); c.close() } }))
  })
  app.get('/node', (_req: any, reply: any) => {
    reply.raw.writeHead(202, { 'content-type': 'text/x-own' })
    reply.send(Readable.from(['node body']))
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  for (const [path, body] of [['/web', 'web body'], ['/node', 'node body']]) {
    const res = await fetch(address + path)
    assert.equal(res.status, 202)
    assert.equal(res.headers.get('content-type'), 'text/x-own')
    assert.equal(res.headers.get('x-ignored'), null)
    assert.equal(await res.text(), body)
  }
  const warnings = lines.filter(([lvl]) => lvl === 'warn').map(([, message]) => message)
  assert.deepEqual(warnings, [
    'response will send, but you shouldn\'t use res.writeHead in stream mode',
    'response will send, but you shouldn\'t use res.writeHead in stream mode'
  ])
})

test('a chunk the response cannot write (not bytes nor text) before anything was sent is answered 500', async () => {
  const app = enclave()
  app.get('/', (_req: any, reply: any) => {
    reply.send(new ReadableStream({ start (c) { c.enqueue(42); c.close() } }))
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'ERR_INVALID_ARG_TYPE')
})
