/**
 * The start-up check of write gathering (write-gathering.ts), which leans on socket fields Node does not promise and
 * has changed between lines: the `_write`, `_writev`, `_final` and `_destroy` methods, the libuv queue size
 * (`_handle.writeQueueSize`) and the response a connection is writing (`_httpMessage`, which the answer to
 * malformed HTTP also reads, server.ts: without it, that answer goes out at once instead of after the response).
 *
 * Once per process, when the first application starts listening (before it loads its plugins), two pipelined
 * requests cross a real loopback connection to a bare `node:http` server that gathers its writes: each of those fields
 * must be there and mean what the module expects, and both responses must arrive whole and in order. Anything else
 * leaves gathering off for the process (every write then goes straight to the socket, as Node does it), said once
 * per application at debug level.
 *
 * The same exchange checks lingering close (lingering-close.ts): the second response closes the connection, which
 * Node must end through the socket's `destroySoon`; if it does not, lingering stays off.
 */
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { once } from 'node:events'
import type { Logger } from '../types/logger'
import { countRequest, enableWriteGathering, missingSocketMethods, startGathering, trustResponseNaming } from './write-gathering'
import { enableLingeringCloseIfSeen, noteRequest, startLingering } from './lingering-close'

/** How long the check's exchange may take before gathering is left off (it takes a few milliseconds). */
const CHECK_TIMEOUT_MS = 2000

const UNNAMED_RESPONSE = 'a socket does not name the response writing on it (_httpMessage)'

/** Null when gathering works in this process, else why it is off. */
let verdict: Promise<string | null> | null = null
const told = new WeakSet<object>()

/** Runs the check once per process (later calls wait for the same one); tells `log` at debug level when it is off. */
export async function checkWriteGathering (log: Logger): Promise<void> {
  verdict ??= runCheck().then((reason) => {
    if (reason === null) enableWriteGathering()
    return reason
  })
  const reason = await verdict
  if (reason !== null && !told.has(log)) {
    told.add(log)
    log.debug(`Write gathering of pipelined responses is off in this process: ${reason}`)
  }
}

async function runCheck (): Promise<string | null> {
  const missing = missingSocketMethods()
  if (missing.length > 0) return `net.Socket has no ${missing.join(', ')}`
  const findings: string[] = []
  const server = http.createServer((req, res) => {
    countRequest(req.socket)
    noteRequest(req.socket, req)
    // the first request's response owns the connection at once; the second's waits for it (no socket yet)
    if (req.url === '/first') {
      const found = socketFindings(res)
      if (!found.includes(UNNAMED_RESPONSE)) trustResponseNaming()
      findings.push(...found)
    }
    res.setHeader('content-length', Buffer.byteLength(req.url!))
    res.end(req.url)
  })
  server.on('connection', (socket: net.Socket) => {
    startGathering(socket)
    startLingering(socket)
  })
  try {
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const received = await exchange((server.address() as AddressInfo).port)
    if (!/^HTTP\/1\.1 200 [^]*?\r\n\r\n\/firstHTTP\/1\.1 200 [^]*?\r\n\r\n\/second$/.test(received)) {
      findings.push('two pipelined responses did not arrive whole and in order')
    } else {
      enableLingeringCloseIfSeen()
    }
  } catch (err) {
    findings.push(`the check's exchange failed (${err instanceof Error ? err.message : String(err)})`)
  } finally {
    // closed before the verdict, so that nothing of the check is left when the application goes on
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closed
  }
  return findings.length === 0 ? null : [...new Set(findings)].join('; ')
}

/** What is not as expected on the socket of a response being written. */
function socketFindings (res: http.ServerResponse): string[] {
  const socket = res.socket as (net.Socket & { _httpMessage?: unknown, _handle?: { writeQueueSize?: unknown } | null }) | null
  const findings: string[] = []
  if (socket?._httpMessage !== res) findings.push(UNNAMED_RESPONSE)
  if (typeof socket?._handle?.writeQueueSize !== 'number') findings.push('a socket handle has no writeQueueSize')
  return findings
}

/** Sends two pipelined requests on one connection; resolves everything received once the server closes it. */
async function exchange (port: number): Promise<string> {
  const socket = net.connect(port, '127.0.0.1')
  const timer = setTimeout(() => socket.destroy(new Error('timed out')), CHECK_TIMEOUT_MS)
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => { received += chunk })
  socket.write('GET /first HTTP/1.1\r\nHost: check\r\n\r\nGET /second HTTP/1.1\r\nHost: check\r\nConnection: close\r\n\r\n')
  try {
    await once(socket, 'close')
  } finally {
    clearTimeout(timer)
  }
  return received
}
