/**
 * The payload path of a reply: send → (preSerialization → serialize, for payloads that are not already a string,
 * Buffer or stream) → onSend → write. `writeResponse` is the only place that ends a response. A failure before
 * anything was written goes to `handleError`, which marks the reply as not started and answers with the error.
 *
 * `send.ts` and `error-handler.ts` import each other: the one mutual recursion of the code base, and a genuine one
 * (an error is answered by sending its body, and sending can fail with an error).
 */
import { Buffer } from 'node:buffer'
import { validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import { finished, type Readable } from 'node:stream'
import { codes } from '../core/errors'
import { kRoute, kReplySerializer, kReplyHeaders, kReplyTrailers } from '../core/symbols'
import { runPayloadHooks } from '../hooks/runners'
import { serializeReply } from './payload-serializer'
import { handleError } from './error-handler'
import { announceTrailers, endWithTrailers } from './trailers'
import {
  HEAD_CANCEL_REASON, HEAD_WRITTEN_WARNING, HTTP2_SLICE, drain, endInSlices, ignoreStreamEnd, logPrematureClose, logStreamFailure, pumpWebStream, releaseStream
} from './streams'
import type { ReplyState } from './reply'

const jsonContentType = 'application/json; charset=utf-8'

/** A JSON content type without a charset gets `charset=utf-8`, as Fastify does (`type('application/json')`). */
function withJsonCharset (contentType: string): string {
  if (contentType.includes('charset')) return contentType
  const trimmed = contentType.trim()
  return trimmed.endsWith(';') ? trimmed + ' charset=utf-8' : trimmed + '; charset=utf-8'
}

/**
 * Streams (node or web, told by their methods) and fetch `Response`s are pre-serialized: they go straight to onSend.
 * A plain object or an array, what handlers return most, is no `Response`: told by its prototype, without the tag
 * lookup of `toString`.
 */
function isStreamLike (payload: object): boolean {
  const candidate = payload as { pipe?: unknown, getReader?: unknown }
  if (typeof candidate.pipe === 'function' || typeof candidate.getReader === 'function') return true
  const prototype = Object.getPrototypeOf(payload)
  return prototype !== Object.prototype && prototype !== Array.prototype && Object.prototype.toString.call(payload) === '[object Response]'
}

/**
 * A content type set on the response itself (`reply.raw.setHeader`, or left there by a stream that failed before its
 * first byte) counts as the reply's, as `reply.getHeader` reads it: Fastify decides on it too.
 */
function contentTypeOnRaw (reply: ReplyState): string | undefined {
  const value = reply.raw.getHeader('content-type')
  return value === undefined ? undefined : String(value)
}

/** Chooses the content type and the serializer for a payload, then runs the onSend hooks. */
export function sendPayload (reply: ReplyState, payload: unknown): void {
  if (payload === undefined) {
    onSendHook(reply, payload)
    return
  }
  const headers = reply[kReplyHeaders]
  const contentType = (headers['content-type'] ?? contentTypeOnRaw(reply)) as string | undefined
  if (typeof payload === 'string') {
    if (contentType === undefined) {
      headers['content-type'] = 'text/plain; charset=utf-8'
    } else if (reply[kReplySerializer] !== null) {
      serializeAndSend(reply, payload, true)
      return
    } else if (contentType.includes('json')) {
      headers['content-type'] = withJsonCharset(contentType)
    }
    onSendHook(reply, payload)
    return
  }
  if (payload !== null) {
    if (Buffer.isBuffer(payload) || isStreamLike(payload)) {
      if (contentType === undefined && Buffer.isBuffer(payload)) headers['content-type'] = 'application/octet-stream'
      onSendHook(reply, payload)
      return
    }
    if (ArrayBuffer.isView(payload)) {
      if (contentType === undefined) headers['content-type'] = 'application/octet-stream'
      onSendHook(reply, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength))
      return
    }
  }
  // objects and `null` (valid JSON) are serialized; a `reply.serializer()` of the handler's own may write anything,
  // so its content type is the handler's to set (as in Fastify)
  if (contentType === undefined) {
    if (reply[kReplySerializer] === null) headers['content-type'] = jsonContentType
  } else if (reply[kReplySerializer] === null && !contentType.includes('json') && reply[kRoute].replySerializer === null) {
    // `null` under a non-JSON type is an empty body; an object has no way to become one: the caller of send()
    // learns it at once, as in Fastify (its handler's throw or rejection then answers 500)
    if (payload !== null) throw new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload)
    onSendHook(reply, null)
    return
  } else if (reply[kReplySerializer] === null && contentType.includes('json')) {
    // with a serializer of the reply's own, the content type stays exactly as set (as in Fastify)
    headers['content-type'] = withJsonCharset(contentType)
  }
  const hooks = reply[kRoute].preSerialization
  if (hooks === null) {
    serializeAndSend(reply, payload, true)
  } else {
    runPayloadHooks(hooks, reply.request, reply, payload, false, preSerializationDone)
  }
}

function preSerializationDone (err: unknown, reply: ReplyState, payload: unknown): void {
  if (err !== null) {
    handleError(reply, err)
    return
  }
  // whatever the hooks leave (a string included) is serialized: the content type already says JSON
  serializeAndSend(reply, payload, false)
}

/**
 * Serializes, then runs onSend. A serializer that returns neither a string nor a Buffer is a mistake of the
 * handler's own `reply.serializer()`: called from send() itself (`inSend`), send() throws it to its caller, as in
 * Fastify; after preSerialization hooks it is the request's error.
 */
function serializeAndSend (reply: ReplyState, payload: unknown, inSend: boolean): void {
  let body: unknown
  try {
    body = serializeReply(reply, reply[kRoute], payload, reply.raw.statusCode)
  } catch (err) {
    handleError(reply, err as Error)
    return
  }
  // nothing to write (a symbol or a function given to JSON.stringify): an empty body, as in Fastify
  if (body === undefined) {
    onSendHook(reply, undefined)
    return
  }
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    const invalid = new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof body)
    if (inSend) throw invalid
    handleError(reply, invalid)
    return
  }
  onSendHook(reply, body)
}

export function onSendHook (reply: ReplyState, payload: unknown): void {
  const hooks = reply[kRoute].onSend
  if (hooks === null) {
    writeResponse(reply, payload)
  } else {
    runPayloadHooks(hooks, reply.request, reply, payload, false, onSendDone)
  }
}

function onSendDone (err: unknown, reply: ReplyState, payload: unknown): void {
  if (err !== null) {
    handleError(reply, err)
    return
  }
  writeResponse(reply, payload)
}

/** Writes status, headers and body to the socket. The only place that ends a response. */
function writeResponse (reply: ReplyState, payload: unknown): void {
  const res = reply.raw
  if (res.writableEnded || res.destroyed) return
  if (payload !== null && typeof payload === 'object' && Object.prototype.toString.call(payload) === '[object Response]') {
    // a body read already, or held by a reader, can no longer be read: answering would hang
    if ((payload as Response).bodyUsed) {
      handleError(reply, new codes.FST_ERR_REP_RESPONSE_BODY_CONSUMED())
      return
    }
    if ((payload as Response).body?.locked === true) {
      handleError(reply, new codes.FST_ERR_REP_READABLE_STREAM_LOCKED())
      return
    }
    payload = unwrapResponse(reply, payload as Response)
  }
  const headers = reply[kReplyHeaders]
  const statusCode: number = res.statusCode
  if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode < 200)) {
    writeBodiless(reply, statusCode, payload)
    return
  }
  if (payload === undefined || payload === null) {
    const trailed = reply[kReplyTrailers] !== null && announceTrailers(reply, headers)
    if (!trailed && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = '0'
    if (!writeHead(reply, statusCode, headers)) return
    if (trailed) endWithTrailers(reply, null)
    else res.end()
    return
  }
  if (typeof (payload as Partial<NodeJS.ReadableStream>).pipe === 'function') {
    sendStream(reply, payload as Readable)
    return
  }
  if (typeof (payload as Partial<ReadableStream>).getReader === 'function') {
    sendWebStream(reply, payload as ReadableStream)
    return
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    handleError(reply, new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload))
    return
  }
  if (reply[kReplyTrailers] !== null && announceTrailers(reply, headers)) {
    if (!writeHead(reply, statusCode, headers)) return
    res.write(payload)
    endWithTrailers(reply, payload)
    return
  }
  const isHead = reply.request.raw.method === 'HEAD'
  // a Content-Length that is not the body's would corrupt the framing of the connection: the body's wins. A HEAD
  // route of its own may announce another length (its GET body's); an automatic one, running the GET handler,
  // announces the length of the body that handler gave, as in Fastify.
  const given = headers['content-length']
  const length = Buffer.byteLength(payload)
  if (given === undefined || (Number(given) !== length && (!isHead || reply[kRoute].autoHead))) headers['content-length'] = String(length)
  if (!writeHead(reply, statusCode, headers)) return
  // An automatic HEAD answer carries the GET route's headers (content-length included) and no body. A HEAD route of
  // its own ends with what it sent, as in Fastify: Node writes no body for HEAD on the wire, and inject() shows it.
  if (isHead && reply[kRoute].autoHead) res.end()
  else if (length > HTTP2_SLICE && reply.request.raw.httpVersionMajor === 2) endInSlices(res as unknown as Http2ServerResponse, payload)
  else res.end(payload)
}

/**
 * 204, 304 and 1xx answers never carry a body. A 304 sent with a string or Buffer (@fastify/etag's empty string)
 * announces that payload's length, as Fastify does: a 304 may carry a Content-Length (RFC 9110 §8.6). Otherwise the
 * headers describing a body we were given are dropped; headers set for an empty answer, such as a CORS preflight's
 * `content-length: 0`, are the user's choice and stay.
 */
function writeBodiless (reply: ReplyState, statusCode: number, payload: unknown): void {
  const headers = reply[kReplyHeaders]
  if (statusCode === 304 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
    const given = headers['content-length']
    const length = Buffer.byteLength(payload)
    if (given === undefined || (Number(given) !== length && reply.request.raw.method !== 'HEAD')) headers['content-length'] = String(length)
  } else if (payload !== undefined && payload !== null) {
    delete headers['content-length']
    delete headers['transfer-encoding']
    if (statusCode === 204) delete headers['content-type']
    // a stream sent with such a status is read to its end and dropped, so that its producer finishes (as Fastify)
    if (typeof (payload as Partial<Readable>).resume === 'function') drain(payload as Readable)
  }
  if (writeHead(reply, statusCode, headers)) reply.raw.end()
}

/** Last resort for an error body whose onSend hooks failed: written without hooks; failing here ends the socket. */
export function writeErrorResponse (reply: ReplyState, body: string | Buffer): void {
  const res = reply.raw
  if (res.writableEnded || res.destroyed) return
  const headers = reply[kReplyHeaders]
  removeInvalidHeaders(headers)
  headers['content-type'] = 'application/json; charset=utf-8'
  headers['content-length'] = String(Buffer.byteLength(body))
  try {
    res.writeHead(res.statusCode, headers)
    if (reply.request.raw.method === 'HEAD') res.end()
    else res.end(body)
  } catch (err) {
    reply.log.error({ err }, 'the error response could not be written')
    res.destroy()
  }
}

/** A fetch `Response` brings its own status and headers; its body (a web stream or null) is what gets written. */
function unwrapResponse (reply: ReplyState, response: Response): unknown {
  reply.raw.statusCode = response.status
  const headers = reply[kReplyHeaders]
  response.headers.forEach((value, name) => { headers[name] = value })
  return response.body
}

/**
 * `writeHead` throws on an invalid header name or value (or status): the response is then answered by the error
 * handlers. As in Fastify they still see the offending header (a handler may remove it); the last-resort answer
 * (`writeErrorResponse`) drops it, so that one bad header cannot leave the request hanging. A failure the headers do
 * not explain starts the error answer from a clean slate.
 */
function writeHead (reply: ReplyState, statusCode: number, headers: OutgoingHttpHeaders): boolean {
  try {
    reply.raw.writeHead(statusCode, headers)
    return true
  } catch (err) {
    if (!hasInvalidHeader(reply[kReplyHeaders])) reply[kReplyHeaders] = {}
    handleError(reply, err)
    return false
  }
}

function isValidHeader (name: string, value: unknown): boolean {
  try {
    validateHeaderName(name)
    validateHeaderValue(name, value as string)
    return true
  } catch {
    return false
  }
}

function hasInvalidHeader (headers: OutgoingHttpHeaders): boolean {
  for (const name of Object.keys(headers)) if (!isValidHeader(name, headers[name])) return true
  return false
}

/** Deletes the headers Node would refuse; whether there was any. */
function removeInvalidHeaders (headers: OutgoingHttpHeaders): boolean {
  let removed = false
  for (const name of Object.keys(headers)) {
    if (!isValidHeader(name, headers[name])) {
      delete headers[name]
      removed = true
    }
  }
  return removed
}

function dropInvalidHeaders (reply: ReplyState): void {
  // nothing was wrong with the headers themselves: start the error answer from a clean slate
  if (!removeInvalidHeaders(reply[kReplyHeaders])) reply[kReplyHeaders] = {}
}

/**
 * Puts the reply's headers on the response before a stream body (set, not flushed: an error before the first byte
 * still gets an answer). Returns whether the response then waits for trailers, or null when a header is invalid
 * (the error is being answered; the caller lets go of its stream). A head the handler wrote itself stays as it is.
 */
function prepareStreamHead (reply: ReplyState): boolean | null {
  const res = reply.raw
  if (res.headersSent) {
    reply.log.warn(HEAD_WRITTEN_WARNING)
    return false
  }
  const headers = reply[kReplyHeaders]
  const trailed = reply[kReplyTrailers] !== null && announceTrailers(reply, headers)
  try {
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name] as string)
  } catch (err) {
    for (const name of Object.keys(headers)) res.removeHeader(name)
    dropInvalidHeaders(reply)
    handleError(reply, err)
    return null
  }
  return trailed
}

/** A stream body failed: answered while nothing was written, else logged and the response cut short. */
function streamFailed (reply: ReplyState, err: unknown): void {
  const res = reply.raw
  if (res.headersSent) {
    logStreamFailure(reply, err as NodeJS.ErrnoException)
    res.destroy()
  } else {
    handleError(reply, err)
  }
}

/** Pipes a Node stream (see `prepareStreamHead`). */
function sendStream (reply: ReplyState, payload: Readable): void {
  const res = reply.raw
  const trailed = prepareStreamHead(reply)
  if (trailed === null) {
    releaseStream(payload)
    return
  }
  if (reply.request.raw.method === 'HEAD') {
    // HEAD answers carry the headers but never a body: the stream is not read, and released. It may still fail
    // (a file that cannot be opened): its error is logged (Fastify's words) rather than left to crash Node.
    res.end()
    finished(payload, (err) => {
      if (err && (err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') reply.log.error({ err }, 'Error on Stream found for HEAD route')
    })
    releaseStream(payload)
    return
  }
  let sourceDone = false
  finished(payload, (err) => {
    sourceDone = true
    // the stream's end, seen even when it ended before it was sent (a listener for 'end' would wait forever)
    if (trailed && !err && !res.destroyed) {
      endWithTrailers(reply, null)
      return
    }
    // a source destroyed before its end (e.g. by pump, when a stream it feeds fails) is a failure too, as in Fastify;
    // once the client has gone, the source was released by us and nothing is left to answer
    if (!err || res.destroyed || res.writableFinished) return
    streamFailed(reply, err)
  })
  finished(res, () => {
    if (sourceDone) return
    logPrematureClose(reply)
    releaseStream(payload)
  })
  // the response ends only once the trailers are known (above); a stream's trailer functions get `null` as payload
  payload.pipe(res, { end: !trailed })
}

/**
 * Writes a web `ReadableStream` chunk by chunk (`pumpWebStream`): a response that closes early cancels it, and
 * leaves the rest unread. A locked stream can never be read: answering would hang, so it is an error.
 */
function sendWebStream (reply: ReplyState, stream: ReadableStream): void {
  if (stream.locked) {
    handleError(reply, new codes.FST_ERR_REP_READABLE_STREAM_LOCKED())
    return
  }
  const res = reply.raw
  const trailed = prepareStreamHead(reply)
  if (trailed === null) {
    stream.cancel().catch(ignoreStreamEnd)
    return
  }
  if (reply.request.raw.method === 'HEAD') {
    res.end()
    stream.cancel(HEAD_CANCEL_REASON).catch((err: unknown) => reply.log.error({ err }, 'Error on Stream found for HEAD route'))
    return
  }
  const reader = stream.getReader()
  let sourceDone = false
  finished(res, () => {
    if (sourceDone) return
    sourceDone = true
    logPrematureClose(reply)
    reader.cancel().catch(ignoreStreamEnd)
  })
  pumpWebStream(res, reader, (err) => {
    if (sourceDone) return
    sourceDone = true
    if (err !== undefined) streamFailed(reply, err)
    else if (trailed) endWithTrailers(reply, null)
    else res.end()
  })
}
