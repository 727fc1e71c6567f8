/**
 * Stream bodies: what `send.ts` needs to write a Node stream or a web `ReadableStream` and to let go of one. The
 * decisions (headers, trailers, HEAD, answering a failure) stay in `send.ts`; this module only moves bytes and logs.
 */
import type { ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import { finished, type Readable } from 'node:stream'
import type { ReadableStreamDefaultReader, ReadableStreamReadResult } from 'node:stream/web'
import { kApp, kRoute } from '../core/symbols'
import { logsRequest } from '../request/request-logging'
import type { ReplyState } from './reply'

/** Fastify's words when a handler wrote the head itself before sending a stream: the stream is still sent. */
export const HEAD_WRITTEN_WARNING = 'response will send, but you shouldn\'t use res.writeHead in stream mode'

/** The reason a web stream gets when a HEAD request does not read it (Fastify's words). */
export const HEAD_CANCEL_REASON = 'Stream cancelled by HEAD route'

/** The slice an HTTP/2 body is written in once it is larger than this: Fastify 5's, 64 KiB. */
export const HTTP2_SLICE = 64 * 1024

/**
 * Ends an HTTP/2 response with a large body one slice at a time, each when the stream takes more. HTTP/2 counts the
 * bytes a stream has queued against its whole session (`maxSessionMemory`, 10 MB by default): one `end()` of a 32 MB
 * buffer would leave the session refusing every new stream (NGHTTP2_ENHANCE_YOUR_CALM) until the client read it all,
 * even after it cancelled the stream. Written as the stream drains, a cancelled stream stops here and the client's
 * next request is served.
 */
export function endInSlices (res: Http2ServerResponse, payload: string | Buffer): void {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload
  let offset = 0
  const writeMore = (): void => {
    while (offset < body.length) {
      // the compatibility response has no `destroyed` of its own: its stream's says whether the client cancelled
      if (res.stream.destroyed) return
      const end = Math.min(offset + HTTP2_SLICE, body.length)
      const more = res.write(body.subarray(offset, end))
      offset = end
      if (!more) {
        res.once('drain', writeMore)
        return
      }
    }
    res.end()
  }
  writeMore()
}

/**
 * Writes a web stream into the response one chunk at a time. The next chunk is read only when the response takes
 * more (`write()` true, or its 'drain'), so a response that closes early leaves the rest unread: the caller's watcher
 * of the response then cancels the reader. `done()` once the stream ends, `done(err)` when it fails or holds a chunk
 * the response cannot write; nothing once the response is gone.
 */
export function pumpWebStream (res: ServerResponse, reader: ReadableStreamDefaultReader<unknown>, done: (err?: unknown) => void): void {
  const next = (): void => { reader.read().then(onChunk, onFailure) }
  const onDrain = (): void => { if (!res.destroyed) next() }
  const onFailure = (err: unknown): void => { if (!res.destroyed) done(err) }
  const onChunk = (result: ReadableStreamReadResult<unknown>): void => {
    if (res.destroyed) return
    if (result.done === true) {
      done()
      return
    }
    let more: boolean
    try {
      more = res.write(result.value as Uint8Array | string)
    } catch (err) {
      reader.cancel(err).catch(ignoreStreamEnd)
      done(err)
      return
    }
    if (more) next()
    else res.once('drain', onDrain)
  }
  next()
}

/** A response stream that failed once its headers were out: logged in Fastify's words; a premature close is no error. */
export function logStreamFailure (reply: ReplyState, err: NodeJS.ErrnoException): void {
  if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') reply.log.warn({ err }, 'response terminated with an error with headers already sent')
  else logPrematureClose(reply)
}

/** The client went away before the end (Fastify's words in the log, a request line). */
export function logPrematureClose (reply: ReplyState): void {
  if (logsRequest(reply[kRoute].instance[kApp], reply.request)) reply.log.info({ res: reply.raw }, 'stream closed prematurely')
}

export function ignoreStreamEnd (): void {}

/** Reads a stream to its end and drops what it gives, so that its producer finishes. */
export function drain (stream: Readable): void {
  finished(stream, ignoreStreamEnd)
  stream.resume()
}

/** Old-style streams may lack `destroy()`: they are closed or aborted instead, else left to end on their own. */
export function releaseStream (stream: Readable): void {
  const { destroy, close, abort } = stream as Partial<Readable> & { close?: () => void, abort?: () => void }
  if (typeof destroy === 'function') stream.destroy()
  else if (typeof close === 'function') close.call(stream)
  else if (typeof abort === 'function') abort.call(stream)
}
