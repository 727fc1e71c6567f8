/**
 * Lingering close on HTTP/1 connections: a response that closes its connection (`Connection: close`) while the
 * client is still sending the request's body lets the client finish sending before the socket goes.
 *
 * Node ends such a connection with `socket.destroySoon()`: it sends its FIN after the response, then destroys the
 * socket as soon as that is flushed. Bytes of the body still on their way then meet a closed socket: the kernel
 * answers them with a reset, and the client, still writing, fails with EPIPE or ECONNRESET, often before it has read
 * the response it was sent (a 413, or a proxy's answer that did not need the body). Here the FIN goes out as before,
 * and the rest of the body is read and discarded (Node dumps it) until the request ends, for at most `LINGER_MS`;
 * then the socket is destroyed. Web servers do the same (nginx's and Apache's lingering close).
 *
 * `destroySoon` is not in Node's documentation: lingering stays off until the start-up check
 * (write-gathering-check.ts) has seen Node call it for a response that closes its connection. Off, Node's own
 * `destroySoon` runs unchanged.
 */
import type { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'

/** The longest a connection lingers for the rest of a request body once its response has been sent. */
const LINGER_MS = 2000

const kRequest = Symbol('enclave.lingeringRequest')

type LingeringSocket = Socket & { destroySoon: () => void, [kRequest]?: IncomingMessage }

const destroySoonNow = (Socket.prototype as LingeringSocket).destroySoon

/** Set by the start-up check once it has seen Node end a closing connection through `destroySoon`. */
let enabled = false
/** Set when a lingering socket's `destroySoon` ran (what the start-up check looks for). */
let destroySoonSeen = false

/** Whether net.Socket has the `destroySoon` that lingering falls back to (known once, at load). */
const hasDestroySoon = typeof destroySoonNow === 'function'

/** Turns lingering on for the process if the start-up check's exchange saw a lingering socket's `destroySoon` run. */
export function enableLingeringCloseIfSeen (): void {
  if (destroySoonSeen) enabled = true
}

/** Makes one accepted HTTP/1 connection linger when it closes, once checked (the server's `connection` listener). */
export function lingerOnClose (socket: Socket): void {
  if (enabled) startLingering(socket)
}

/**
 * Makes the connection linger when it closes (the start-up check calls it directly, to see it work). Not where sockets
 * have no `destroySoon`: Node then ends a closing connection with `end()`, and lingering has nothing to fall back on.
 */
export function startLingering (socket: Socket): void {
  if (hasDestroySoon) (socket as LingeringSocket).destroySoon = lingeringDestroySoon
}

/** Remembers the request the connection is reading, if it lingers (called by the server's request listener). */
export function noteRequest (socket: Socket, req: IncomingMessage): void {
  if ((socket as LingeringSocket).destroySoon === lingeringDestroySoon) (socket as LingeringSocket)[kRequest] = req
}

function lingeringDestroySoon (this: LingeringSocket): void {
  destroySoonSeen = true
  const req = this[kRequest]
  this[kRequest] = undefined
  if (req === undefined || req.complete || this.destroyed) {
    destroySoonNow.call(this)
    return
  }
  // our FIN after the response; Node has resumed the request, so the rest of its body is read and dropped
  this.end()
  const timer = setTimeout(() => this.destroy(), LINGER_MS)
  timer.unref()
  const destroyOnceFlushed = (): void => {
    clearTimeout(timer)
    if (this.writableFinished) this.destroy()
    else this.once('finish', () => this.destroy())
  }
  req.once('end', destroyOnceFlushed)
  this.once('close', () => clearTimeout(timer))
}
