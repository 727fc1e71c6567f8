/**
 * Write gathering on HTTP/1 connections: the responses to pipelined requests reach the kernel together, in one
 * `writev`, instead of one system call each.
 *
 * Node's server answers pipelined requests in order, one at a time: a response gets the socket only once the previous
 * one's write has completed, so ten pipelined requests cost ten `writev` calls, each about as expensive as the
 * request's own processing. Here each connection counts the requests it received and the responses that began
 * writing. While later responses are still to come, a write is kept (and reported as written, so the next response
 * proceeds); the first write made with none left goes out with everything kept, in one call. A
 * connection with one request in flight, the usual case, writes at once as before.
 *
 * Bounds: at most `GATHER_LIMIT` bytes are kept per connection (a larger write flushes); nothing is kept while the
 * kernel has not taken the previous write (the socket's own back-pressure applies as usual); whatever is still kept
 * at the end of the event loop's turn (a response that never finishes, say) goes out then; kept bytes are flushed
 * before the socket ends or is destroyed, so nothing written is lost or reordered.
 *
 * None of the socket fields used here is promised by Node: gathering stays off until the start-up check
 * (write-gathering-check.ts) has seen each of them do what this module expects on a real connection.
 */
import type { ServerResponse } from 'node:http'
import { Socket } from 'node:net'

/** The most bytes one connection keeps before they are flushed at once. */
const GATHER_LIMIT = 64 * 1024

/** A chunk as Node's Writable hands it to `_writev`. */
interface WriteEntry { chunk: Buffer | string, encoding: BufferEncoding | 'buffer' }
type WriteCallback = (err?: Error | null) => void

/** Node's internal socket methods this module wraps (present on every `net.Socket`). */
interface InternalSocket {
  _handle: { writeQueueSize: number } | null
  connecting: boolean
  _write: (chunk: Buffer | string, encoding: BufferEncoding, cb: WriteCallback) => void
  _writev: (chunks: WriteEntry[], cb: WriteCallback) => void
  _final: (cb: WriteCallback) => void
  _destroy: (err: Error | null, cb: WriteCallback) => void
}

const socketProto = Socket.prototype as unknown as InternalSocket
const writeNow = socketProto._write
const writevNow = socketProto._writev
const finalNow = socketProto._final
const destroyNow = socketProto._destroy

const kKept = Symbol('enclave.keptWrites')
const kKeptBytes = Symbol('enclave.keptBytes')
const kRequests = Symbol('enclave.requests')
const kResponses = Symbol('enclave.respondingResponses')
const kCounted = Symbol('enclave.counted')

type GatheringSocket = Socket & InternalSocket & {
  [kKept]: WriteEntry[] | null
  [kKeptBytes]: number
  [kRequests]: number
  [kResponses]: number
  _httpMessage: (ServerResponse & { [kCounted]?: true }) | null
}

/** The internal socket methods that are missing (not functions) in this Node: gathering cannot work without them. */
export function missingSocketMethods (): string[] {
  const methods = { _write: writeNow, _writev: writevNow, _final: finalNow, _destroy: destroyNow }
  return Object.entries(methods).filter(([, method]) => typeof method !== 'function').map(([name]) => name)
}

/** Set by the start-up check once it has seen gathering work in this process. */
let checked = false

export function enableWriteGathering (): void {
  checked = true
}

/** Set by the start-up check once it has seen a socket name the response writing on it (`_httpMessage`). */
let responsesNamed = false

export function trustResponseNaming (): void {
  responsesNamed = true
}

/** The response writing on `socket` now, where the start-up check saw Node name it; else null (unknown). */
export function responseWritingOn (socket: Socket): ServerResponse | null {
  return responsesNamed ? (socket as GatheringSocket)._httpMessage ?? null : null
}

/** Whether the end of this turn of the event loop is scheduled to flush what is still kept. */
let flushScheduled = false
const socketsWithKeptWrites: GatheringSocket[] = []

/** Makes one accepted HTTP/1 connection gather its writes, once checked (the server's `connection` listener). */
export function gatherWrites (socket: Socket): void {
  if (checked) startGathering(socket)
}

/** Makes the connection gather its writes (the start-up check calls it directly, to see it work). */
export function startGathering (socket: Socket): void {
  const gathering = socket as GatheringSocket
  gathering[kKept] = null
  gathering[kKeptBytes] = 0
  gathering[kRequests] = 0
  gathering[kResponses] = 0
  gathering._write = gatheringWrite
  gathering._writev = gatheringWritev
  gathering._final = finalAfterFlush
  gathering._destroy = destroyAfterFlush
}

/** Counts a request received on the connection, if it gathers (called by the server's request listener). */
export function countRequest (socket: Socket): void {
  if ((socket as GatheringSocket)[kRequests] !== undefined) (socket as GatheringSocket)[kRequests]++
}

/**
 * Whether requests received on the connection still wait for their response after the one writing now. Node hands
 * the socket to one response at a time, in order (`_httpMessage`): the first write of each is counted.
 */
function laterResponsesPending (socket: GatheringSocket): boolean {
  const writer = socket._httpMessage
  if (writer !== null && writer !== undefined && writer[kCounted] !== true) {
    writer[kCounted] = true
    socket[kResponses]++
  }
  return socket[kRequests] > socket[kResponses]
}

function gatheringWrite (this: GatheringSocket, chunk: Buffer | string, encoding: BufferEncoding, cb: WriteCallback): void {
  const later = laterResponsesPending(this)
  if (!later && this[kKept] === null) {
    writeNow.call(this, chunk, encoding, cb)
    return
  }
  gatheringWritev.call(this, [{ chunk, encoding: typeof chunk === 'string' ? encoding : 'buffer' }], cb, later)
}

function gatheringWritev (this: GatheringSocket, chunks: WriteEntry[], cb: WriteCallback, later = laterResponsesPending(this)): void {
  if (later && keepIfRoom(this, chunks, entriesSize(chunks))) {
    cb()
  } else if (this[kKept] !== null) {
    flushKept(this, chunks, cb)
  } else {
    writevNow.call(this, chunks, cb)
  }
}

function entriesSize (chunks: WriteEntry[]): number {
  let bytes = 0
  for (let i = 0; i < chunks.length && bytes <= GATHER_LIMIT; i++) bytes += chunkSize(chunks[i].chunk, chunks[i].encoding)
  return bytes
}

/** The size of a chunk in bytes, or more than the limit without counting when its length alone exceeds it. */
function chunkSize (chunk: Buffer | string, encoding: BufferEncoding | 'buffer'): number {
  if (typeof chunk !== 'string') return chunk.length
  return chunk.length > GATHER_LIMIT ? chunk.length : Buffer.byteLength(chunk, encoding as BufferEncoding)
}

/**
 * Keeps the chunks when the kernel took everything written so far (no queue in libuv) and the kept bytes stay within
 * the limit; false otherwise.
 */
function keepIfRoom (socket: GatheringSocket, chunks: WriteEntry[], bytes: number): boolean {
  if (socket._handle === null || socket.connecting || socket._handle.writeQueueSize !== 0 ||
    socket[kKeptBytes] + bytes > GATHER_LIMIT) return false
  let kept = socket[kKept]
  if (kept === null) {
    kept = socket[kKept] = []
    socketsWithKeptWrites.push(socket)
    if (!flushScheduled) {
      flushScheduled = true
      setImmediate(endTurn)
    }
  }
  for (let i = 0; i < chunks.length; i++) kept.push({ chunk: chunks[i].chunk, encoding: chunks[i].encoding })
  socket[kKeptBytes] += bytes
  return true
}

/** The check phase: anything still kept goes out, one `writev` per connection. */
function endTurn (): void {
  flushScheduled = false
  for (let i = 0; i < socketsWithKeptWrites.length; i++) flushKept(socketsWithKeptWrites[i])
  socketsWithKeptWrites.length = 0
}

/** Hands the kept writes to the kernel in one `writev`, with `last` (and its callback) when given. */
function flushKept (socket: GatheringSocket, last?: WriteEntry[], cb: WriteCallback = destroyOnError.bind(socket)): void {
  const kept = socket[kKept]
  if (kept === null) return
  socket[kKept] = null
  socket[kKeptBytes] = 0
  if (last !== undefined) for (const entry of last) kept.push(entry)
  writevNow.call(socket, kept, cb)
}

function destroyOnError (this: GatheringSocket, err?: Error | null): void {
  if (err) this.destroy(err)
}

function finalAfterFlush (this: GatheringSocket, cb: WriteCallback): void {
  flushKept(this)
  finalNow.call(this, cb)
}

function destroyAfterFlush (this: GatheringSocket, err: Error | null, cb: WriteCallback): void {
  flushKept(this)
  destroyNow.call(this, err, cb)
}
