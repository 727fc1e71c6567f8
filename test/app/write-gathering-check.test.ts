/**
 * Write gathering's start-up check: in a Node whose sockets lack what gathering relies on, it stays off, the
 * application says so once at debug level, and pipelined requests are answered as Node answers them, one write
 * each. The check runs once per process, so each case is a child process whose Node is altered before Enclave loads.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { temporaryDir } from '../helpers'

const factory = path.resolve(__dirname, '..', '..', 'src', 'index.ts')

/**
 * Alters `net.Socket` as `alteration` says, then starts an application with a debug logger, sends ten pipelined
 * requests on one connection, and prints the bodies received, the writes that reached the kernel and the log lines.
 */
const script = (alteration: string): string => `import net from 'node:net'
${alteration}
const { default: enclave } = await import(${JSON.stringify(factory)})
const lines = []
const app = enclave({ logger: { level: 'debug', stream: { write: (line) => lines.push(JSON.parse(line)) } } })
app.get('/n/:n', async (request) => ({ n: Number(request.params.n) }))
let writes = 0
app.server.on('connection', (socket) => {
  for (const name of ['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']) {
    const write = socket._handle[name]
    socket._handle[name] = function (...args) { writes++; return write.apply(this, args) }
  }
})
await app.listen({ port: 0, host: '127.0.0.1' })
const socket = net.connect(app.server.address().port, '127.0.0.1')
let received = ''
socket.setEncoding('latin1')
socket.on('data', (chunk) => { received += chunk })
socket.write(Array.from({ length: 10 }, (_, i) => 'GET /n/' + i + ' HTTP/1.1\\r\\nHost: x\\r\\n' + (i === 9 ? 'Connection: close\\r\\n' : '') + '\\r\\n').join(''))
await new Promise((resolve) => socket.on('close', resolve))
await app.close()
const bodies = received.split('\\r\\n\\r\\n').slice(1).map((part) => part.split('HTTP/1.1')[0])
console.log(JSON.stringify({ bodies, writes, debug: lines.filter((line) => line.level === 20).map((line) => line.msg) }))
`

type TestContext = { after: (fn: () => void) => void }

/** Runs `text` as a module in a fresh Node process (the check runs once per process); returns the JSON it prints. */
function runChild<T> (t: TestContext, text: string): T {
  const file = path.join(temporaryDir(t), 'child.mts')
  writeFileSync(file, text)
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 20000 })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.stdout) as T
}

function runAltered (t: TestContext, alteration: string): { bodies: string[], writes: number, debug: string[] } {
  return runChild(t, script(alteration))
}

const expectedBodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ n: i }))

test('on sockets as Node ships them, the check passes: ten pipelined responses reach the kernel in one write', (t) => {
  const { bodies, writes, debug } = runAltered(t, '')
  assert.deepEqual(bodies, expectedBodies)
  assert.equal(writes, 1)
  assert.deepEqual(debug.filter((msg) => msg.startsWith('Write gathering')), [])
})

test('sockets without _writev: gathering stays off, said once, and every response still arrives in order', (t) => {
  const { bodies, writes, debug } = runAltered(t, 'delete net.Socket.prototype._writev')
  assert.deepEqual(bodies, expectedBodies)
  // without _writev, Node writes each response's head and body apart: at least one write each, none gathered
  assert.ok(writes >= 10, String(writes))
  assert.deepEqual(debug.filter((msg) => msg.startsWith('Write gathering')), [
    'Write gathering of pipelined responses is off in this process: net.Socket has no _writev'
  ])
})

test('socket handles without a write queue size: gathering stays off, said once', (t) => {
  const { bodies, writes, debug } = runAltered(t, `const probe = net.createServer().listen(0, '127.0.0.1')
await new Promise((resolve) => probe.once('listening', resolve))
const client = net.connect(probe.address().port, '127.0.0.1')
await new Promise((resolve) => client.once('connect', resolve))
Object.defineProperty(Object.getPrototypeOf(client._handle), 'writeQueueSize', { get () { return undefined }, configurable: true })
client.destroy()
probe.close()`)
  assert.deepEqual(bodies, expectedBodies)
  assert.equal(writes, 10)
  assert.deepEqual(debug.filter((msg) => msg.startsWith('Write gathering')), [
    'Write gathering of pipelined responses is off in this process: a socket handle has no writeQueueSize'
  ])
})

test('the check runs before the plugins load: its requests are answered before the first plugin starts', (t) => {
  // a plugin that samples the event loop from its registration (as @fastify/under-pressure does) must see the server
  // listen right after it, as in Fastify, not after the check's first HTTP exchange
  const events = runChild<string[]>(t, `import diagnostics from 'node:diagnostics_channel'
const { default: enclave } = await import(${JSON.stringify(factory)})
const events = []
diagnostics.subscribe('http.server.request.start', ({ request }) => events.push('request ' + request.url))
const app = enclave()
app.register(async () => { events.push('plugin') })
app.get('/app', async () => 'ok')
await app.listen({ port: 0, host: '127.0.0.1' })
events.push('listening')
await fetch('http://127.0.0.1:' + app.server.address().port + '/app')
await app.close()
console.log(JSON.stringify(events))
`)
  assert.deepEqual(events, ['request /first', 'request /second', 'plugin', 'listening', 'request /app'])
})
