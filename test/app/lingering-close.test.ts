/**
 * Lingering close: a response that closes its connection before the request's body has all arrived lets the client
 * finish sending it (the rest is read and dropped), instead of resetting the connection under the client's writes.
 * Real sockets: the behaviour is the kernel's answer to bytes that reach a closed socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import { once } from 'node:events'
import path from 'node:path'
import enclave from '../../src/index'
import { temporaryDir } from '../helpers'

const BODY_BYTES = 256 * 1024

/** An application that refuses every upload at once (before reading its body), closing the connection. */
async function refusingApp (t: { after: (fn: () => Promise<void>) => void }): Promise<{ port: number, bodyEnded: Promise<void>, serverSocketClosed: Promise<void> }> {
  const app = enclave()
  let bodyEnd!: () => void
  const bodyEnded = new Promise<void>((resolve) => { bodyEnd = resolve })
  app.addHook('onRequest', async (request, reply) => {
    request.raw.once('end', bodyEnd)
    return reply.code(413).header('connection', 'close').send({ message: 'too large' })
  })
  app.post('/upload', async () => 'stored')
  let socketClose!: () => void
  const serverSocketClosed = new Promise<void>((resolve) => { socketClose = resolve })
  app.server.on('connection', (socket: net.Socket) => socket.once('close', socketClose))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  return { port: (app.server.address() as AddressInfo).port, bodyEnded, serverSocketClosed }
}

/** Sends the request head and the first KiB of its body; resolves with the client socket once the server's FIN came. */
async function startUpload (port: number): Promise<{ socket: net.Socket, response: string, errors: Error[] }> {
  // half-open: the client may go on writing after the server's FIN, as an uploading HTTP client does
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true })
  const errors: Error[] = []
  socket.on('error', (err) => errors.push(err))
  let response = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => { response += chunk })
  await once(socket, 'connect')
  socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`)
  socket.write(Buffer.alloc(1024, 'a'))
  await once(socket, 'end')
  return { socket, response, errors }
}

async function writeInChunks (socket: net.Socket, bytes: number): Promise<void> {
  for (let sent = 0; sent < bytes; sent += 16 * 1024) {
    const chunk = Buffer.alloc(Math.min(16 * 1024, bytes - sent), 'b')
    await new Promise<void>((resolve) => socket.write(chunk, () => resolve()))
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

test('a response that closes the connection early lets the client send the rest of its body, then the socket goes', { timeout: 20000 }, async (t) => {
  const { port, bodyEnded, serverSocketClosed } = await refusingApp(t)
  const { socket, response, errors } = await startUpload(port)
  assert.match(response, /^HTTP\/1\.1 413 Payload Too Large\r\n/)
  assert.match(response, /\r\nconnection: close\r\n/i)
  assert.ok(response.endsWith('{"message":"too large"}'), response)

  // the server has sent its FIN; the rest of the body still arrives and is read to its end
  const first = Promise.race([bodyEnded.then(() => 'the body ended'), serverSocketClosed.then(() => 'the socket closed')])
  await writeInChunks(socket, BODY_BYTES - 1024)
  assert.equal(await first, 'the body ended')
  await serverSocketClosed
  socket.end()
  await once(socket, 'close')
  assert.deepEqual(errors, [])
})

test('a client that stops sending its body is not waited for long: the socket is closed after the linger', { timeout: 20000 }, async (t) => {
  const { port, serverSocketClosed } = await refusingApp(t)
  const { socket, response } = await startUpload(port)
  assert.match(response, /^HTTP\/1\.1 413 /)
  // nothing more is sent: the connection goes once LINGER_MS (2 s) have passed
  await serverSocketClosed
  socket.destroy()
})

test('in a Node whose sockets have no destroySoon, lingering stays off and a closing response is still answered whole', (t) => {
  const factory = path.resolve(__dirname, '..', '..', 'src', 'index.ts')
  const file = path.join(temporaryDir(t), 'no-destroy-soon.mts')
  writeFileSync(file, `import net from 'node:net'
delete net.Socket.prototype.destroySoon
const { default: enclave } = await import(${JSON.stringify(factory)})
const app = enclave()
app.addHook('onRequest', async (request, reply) => reply.code(413).header('connection', 'close').send({ message: 'too large' }))
app.post('/upload', async () => 'stored')
await app.listen({ port: 0, host: '127.0.0.1' })
const socket = net.connect(app.server.address().port, '127.0.0.1')
let response = ''
socket.setEncoding('latin1')
socket.on('data', (chunk) => { response += chunk })
socket.on('error', () => {})
socket.write('POST /upload HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 100000\\r\\n\\r\\n' + 'a'.repeat(1000))
await new Promise((resolve) => socket.on('close', resolve))
await app.close()
console.log(JSON.stringify({ status: response.split('\\r\\n')[0], body: response.split('\\r\\n\\r\\n')[1] }))
`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 20000 })
  assert.equal(run.status, 0, run.stderr)
  assert.deepEqual(JSON.parse(run.stdout), { status: 'HTTP/1.1 413 Payload Too Large', body: '{"message":"too large"}' })
})
