/**
 * Write gathering on HTTP/1 connections: when several responses are ready on one connection in the same turn of the
 * event loop (pipelined requests), they reach the kernel in one `writev` instead of one system call each.
 *
 * Node's server answers pipelined requests one after the other: a response gets the socket only once the previous
 * one's write has completed, so ten pipelined requests cost ten `writev` calls, each about as expensive as the
 * request's own processing. Here the first write of a turn goes out at once, as before (a connection that sends one
 * request at a time sees no change and no delay); further writes in the same turn are kept (reported as written, so
 * the next response can proceed) and handed to the kernel together in the check phase of the same loop iteration.
 *
 * Bounds: a write larger than `GATHER_LIMIT`, or one that would take the kept bytes past it, flushes at once; nothing
 * is kept while the kernel has not taken the previous write (the socket's own back-pressure applies as usual); kept
 * bytes are flushed before the socket ends or is destroyed, so nothing written is lost or reordered.
 */
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

const kTurn = Symbol('enclave.writeTurn')
const kKept = Symbol('enclave.keptWrites')
const kKeptBytes = Symbol('enclave.keptBytes')

type GatheringSocket = Socket & InternalSocket & {
  [kTurn]: number
  [kKept]: WriteEntry[] | null
  [kKeptBytes]: number
}

/** The current turn of the event loop, as far as writes are concerned; it ends when the kept writes are flushed. */
let turn = 0
let flushScheduled = false
const socketsWithKeptWrites: GatheringSocket[] = []

/** Makes one accepted HTTP/1 connection gather its writes (the server's `connection` listener). */
export function gatherWrites (socket: Socket): void {
  const gathering = socket as GatheringSocket
  gathering[kTurn] = -1
  gathering[kKept] = null
  gathering[kKeptBytes] = 0
  gathering._write = gatheringWrite
  gathering._writev = gatheringWritev
  gathering._final = finalAfterFlush
  gathering._destroy = destroyAfterFlush
}

function gatheringWrite (this: GatheringSocket, chunk: Buffer | string, encoding: BufferEncoding, cb: WriteCallback): void {
  if (this[kTurn] === turn) {
    const bytes = chunkSize(chunk, encoding)
    if (hasRoom(this, bytes)) {
      keep(this, { chunk, encoding: typeof chunk === 'string' ? encoding : 'buffer' }, bytes)
      cb()
      return
    }
  }
  flushKept(this)
  startTurn(this)
  writeNow.call(this, chunk, encoding, cb)
}

function gatheringWritev (this: GatheringSocket, chunks: WriteEntry[], cb: WriteCallback): void {
  if (this[kTurn] === turn) {
    let bytes = 0
    for (let i = 0; i < chunks.length && bytes <= GATHER_LIMIT; i++) bytes += chunkSize(chunks[i].chunk, chunks[i].encoding)
    if (hasRoom(this, bytes)) {
      for (const { chunk, encoding } of chunks) keep(this, { chunk, encoding }, 0)
      this[kKeptBytes] += bytes
      cb()
      return
    }
  }
  flushKept(this)
  startTurn(this)
  writevNow.call(this, chunks, cb)
}

/** The size of a chunk in bytes, or more than the limit without counting when its length alone exceeds it. */
function chunkSize (chunk: Buffer | string, encoding: BufferEncoding | 'buffer'): number {
  if (typeof chunk !== 'string') return chunk.length
  return chunk.length > GATHER_LIMIT ? chunk.length : Buffer.byteLength(chunk, encoding as BufferEncoding)
}

/**
 * A write is kept when this connection already wrote in this turn, the kernel took everything written so far
 * (no queue in libuv) and the kept bytes stay within the limit.
 */
function hasRoom (socket: GatheringSocket, bytes: number): boolean {
  return socket._handle !== null && !socket.connecting && socket._handle.writeQueueSize === 0 &&
    socket[kKeptBytes] + bytes <= GATHER_LIMIT
}

function keep (socket: GatheringSocket, entry: WriteEntry, bytes: number): void {
  const kept = socket[kKept]
  if (kept === null) {
    socket[kKept] = [entry]
    socketsWithKeptWrites.push(socket)
  } else {
    kept.push(entry)
  }
  socket[kKeptBytes] += bytes
}

function startTurn (socket: GatheringSocket): void {
  socket[kTurn] = turn
  if (!flushScheduled) {
    flushScheduled = true
    setImmediate(endTurn)
  }
}

/** The check phase: every kept write goes out, one `writev` per connection, and a new turn begins. */
function endTurn (): void {
  flushScheduled = false
  turn++
  for (let i = 0; i < socketsWithKeptWrites.length; i++) flushKept(socketsWithKeptWrites[i])
  socketsWithKeptWrites.length = 0
}

function flushKept (socket: GatheringSocket): void {
  const kept = socket[kKept]
  if (kept === null) return
  socket[kKept] = null
  socket[kKeptBytes] = 0
  if (socket._handle === null) return
  writevNow.call(socket, kept, (err) => { if (err) socket.destroy(err) })
}

function finalAfterFlush (this: GatheringSocket, cb: WriteCallback): void {
  flushKept(this)
  finalNow.call(this, cb)
}

function destroyAfterFlush (this: GatheringSocket, err: Error | null, cb: WriteCallback): void {
  flushKept(this)
  destroyNow.call(this, err, cb)
}
