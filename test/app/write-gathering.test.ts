import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { setImmediate as setImmediatePromise, setTimeout as sleep } from 'node:timers/promises'
import enclave from '../../src/index'

/** The write methods of a TCP handle: every call is one system call's worth of bytes handed to the kernel. */
const HANDLE_WRITES = ['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']

/** Counts the writes that reach the kernel on every connection the app accepts. */
function countKernelWrites (app: any): { count: number } {
  const counter = { count: 0 }
  app.server.on('connection', (socket: any) => {
    const handle = socket._handle
    for (const name of HANDLE_WRITES) {
      const write = handle[name]
      handle[name] = function (this: unknown, ...args: unknown[]) {
        counter.count++
        return write.apply(this, args)
      }
    }
  })
  return counter
}

/** Sends raw bytes on a new connection and resolves everything the server sent once it closes the connection. */
async function exchange (port: number, request: string, options: { readDelayMs?: number } = {}): Promise<Buffer> {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  if (options.readDelayMs !== undefined) socket.pause()
  socket.write(request)
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  if (options.readDelayMs !== undefined) {
    await sleep(options.readDelayMs)
    socket.resume()
  }
  await once(socket, 'close')
  return Buffer.concat(chunks)
}

/** Splits a byte stream into HTTP/1.1 responses framed by Content-Length: [status, body] each. */
function parseResponses (bytes: Buffer): Array<[number, string]> {
  const responses: Array<[number, string]> = []
  let offset = 0
  while (offset < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset)
    const head = bytes.subarray(offset, headEnd).toString('latin1')
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1])
    const bodyStart = headEnd + 4
    responses.push([Number(head.slice(9, 12)), bytes.subarray(bodyStart, bodyStart + length).toString('utf8')])
    offset = bodyStart + length
  }
  return responses
}

function pipelined (paths: string[]): string {
  return paths.map((path, i) =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('')
}

async function started (app: any): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server.address().port
}

test('ten pipelined requests are answered in order, their responses handed to the kernel in one write', async (t) => {
  const app: any = enclave()
  app.get('/n/:n', async (request: any) => ({ n: Number(request.params.n) }))
  const writes = countKernelWrites(app)
  t.after(() => app.close())
  const port = await started(app)

  const paths = Array.from({ length: 10 }, (_, i) => `/n/${i}`)
  const responses = parseResponses(await exchange(port, pipelined(paths)))

  assert.deepEqual(responses, paths.map((_, i) => [200, JSON.stringify({ n: i })]))
  // every response but the last is kept while later ones are open; the last goes out with them
  assert.equal(writes.count, 1)
})

test('a lone request is written at once: the response has reached the kernel when it finishes', async (t) => {
  const app: any = enclave()
  let writesAtFinish = -1
  app.get('/', (request: any, reply: any) => {
    reply.raw.once('finish', () => { writesAtFinish = writes.count })
    reply.send('alone')
  })
  const writes = countKernelWrites(app)
  t.after(() => app.close())
  const port = await started(app)

  const responses = parseResponses(await exchange(port, pipelined(['/'])))

  assert.deepEqual(responses, [[200, 'alone']])
  assert.equal(writesAtFinish, 1)
})

test('a large response among small pipelined ones arrives whole and in order', async (t) => {
  const app: any = enclave()
  const large = 'x'.repeat(300 * 1024)
  app.get('/small/:n', async (request: any) => `small ${request.params.n}`)
  app.get('/large', async () => large)
  t.after(() => app.close())
  const port = await started(app)

  const responses = parseResponses(await exchange(port, pipelined(['/small/1', '/small/2', '/large', '/small/3', '/large', '/small/4'])))

  assert.deepEqual(responses, [
    [200, 'small 1'], [200, 'small 2'], [200, large], [200, 'small 3'], [200, large], [200, 'small 4']
  ])
})

test('pipelined POST requests, read one after another, are answered in order in one write', async (t) => {
  const app: any = enclave()
  app.post('/echo', async (request: any) => ({ got: request.body.n }))
  const writes = countKernelWrites(app)
  t.after(() => app.close())
  const port = await started(app)

  const requests = Array.from({ length: 6 }, (_, n) => {
    const body = JSON.stringify({ n })
    return `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      `${n === 5 ? 'Connection: close\r\n' : ''}\r\n${body}`
  })
  const responses = parseResponses(await exchange(port, requests.join('')))

  assert.deepEqual(responses, requests.map((_, n) => [200, JSON.stringify({ got: n })]))
  assert.equal(writes.count, 1)
})

test('bytes written to a hijacked socket while a pipelined request waits reach the client before it is destroyed', async (t) => {
  const app: any = enclave()
  app.get('/raw', async (request: any, reply: any) => {
    reply.hijack()
    await setImmediatePromise() // by now the pipelined /next has been read: two responses are open
    const socket = reply.raw.socket
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n')
    socket.write('0123456789')
    socket.destroy()
  })
  app.get('/next', async () => 'never sent')
  const writes = countKernelWrites(app)
  t.after(() => app.close())
  const port = await started(app)

  const responses = parseResponses(await exchange(port, pipelined(['/raw', '/next'])))

  assert.deepEqual(responses, [[200, '0123456789']])
  assert.equal(writes.count, 1)
})

test('writes kept for a response that never finishes still go out in the same turn of the event loop', { timeout: 5000 }, async (t) => {
  const app: any = enclave()
  let rawWrites = -1
  app.get('/raw', async (request: any, reply: any) => {
    reply.hijack()
    await setImmediatePromise()
    reply.raw.socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello')
    rawWrites = writes.count // kept: /next is open too
  })
  app.get('/next', async () => 'queued behind /raw')
  const writes = countKernelWrites(app)
  t.after(() => app.close())
  const port = await started(app)

  const socket = net.connect(port, '127.0.0.1')
  t.after(() => socket.destroy())
  await once(socket, 'connect')
  socket.write(pipelined(['/raw', '/next']))
  const [chunk] = await once(socket, 'data') as [Buffer]

  assert.equal(chunk.toString(), 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello')
  assert.deepEqual([rawWrites, writes.count], [0, 1])
})

test('a client that reads late still receives large streamed bodies after pipelined ones, byte for byte', async (t) => {
  const app: any = enclave()
  const part = Buffer.alloc(64 * 1024, 'ab')
  const parts = 64
  app.get('/small', async () => 'small')
  app.get('/stream', async (request: any, reply: any) => {
    let sent = 0
    reply.header('content-length', String(part.length * parts))
    return reply.send(new Readable({ read () { this.push(sent++ < parts ? part : null) } }))
  })
  t.after(() => app.close())
  const port = await started(app)

  const bytes = await exchange(port, pipelined(['/small', '/stream', '/small', '/stream']), { readDelayMs: 200 })
  const responses = parseResponses(bytes)

  assert.deepEqual(responses.map(([status, body]) => [status, body.length]), [
    [200, 5], [200, part.length * parts], [200, 5], [200, part.length * parts]
  ])
  assert.equal(responses[1][1], part.toString().repeat(parts))
  assert.equal(responses[3][1], responses[1][1])
})
