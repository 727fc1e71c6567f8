/**
 * The reply object: status, headers and `send`. Headers are kept in a plain object and written once with
 * `writeHead`, so hooks can read and change them until the response starts. The payload path is:
 * send → (preSerialization → serialize, for non-string payloads) → onSend → write.
 */
import { Buffer } from 'node:buffer'
import { validateHeaderName, validateHeaderValue } from 'node:http'
import { performance } from 'node:perf_hooks'
import { finished, Readable } from 'node:stream'
import { codes } from './errors'
import { kRouteContext, kReplySerializer, kReplyErrorHandlerIndex } from './symbols'
import { runPayloadHooks } from './hooks'
import { serializeReply } from './serialization'
import { handleError } from './error-handler'
import { callNotFound } from './not-found'
import type { RouteContext } from './context'
import { kReplyTrailers, announceTrailers, endWithTrailers, trailerReplyMethods } from './trailers'
import { replySchemaMethods } from './route-schema-functions'

export const kReplyHeaders = Symbol('enclave.replyHeaders')
export const kReplyStarted = Symbol('enclave.replyStarted')
export const kReplyHijacked = Symbol('enclave.replyHijacked')
export const kReplyStartTime = Symbol('enclave.replyStartTime')
export const kReplyHasStatusCode = Symbol('enclave.replyHasStatusCode')
export const kReplyInOnError = Symbol('enclave.replyInOnError')
/** Set while the default error payload goes through onSend: a failure there must not start the error path again. */
export const kReplySendingError = Symbol('enclave.replySendingError')

/** The base of every context's reply class: it holds the methods; instances come from `subclassReply`. */
export function Reply (): void {}

/** Creates the reply class of a child context: same fields, prototype chained to the parent's. */
export function subclassReply (Parent: any): any {
  function ContextReply (this: any, res: any, request: any, log: any, context: RouteContext): void {
    this.raw = res
    this.request = request
    this.log = log
    this[kRouteContext] = context
    this[kReplyHeaders] = {}
    this[kReplyStarted] = false
    this[kReplyHijacked] = false
    this[kReplyHasStatusCode] = false
    this[kReplyInOnError] = false
    this[kReplySendingError] = false
    this[kReplySerializer] = null
    this[kReplyErrorHandlerIndex] = null
    this[kReplyStartTime] = performance.now()
  }
  ContextReply.prototype = Object.create(Parent.prototype)
  ContextReply.prototype.constructor = ContextReply
  return ContextReply
}

const proto = Reply.prototype as any
Object.assign(proto, trailerReplyMethods, replySchemaMethods)

proto.code = function code (this: any, statusCode: number) {
  const code = Number(statusCode)
  if (!Number.isInteger(code) || code < 100 || code > 599) throw new codes.FST_ERR_BAD_STATUS_CODE(String(statusCode))
  this.raw.statusCode = code
  this[kReplyHasStatusCode] = true
  return this
}
proto.status = proto.code

proto.header = function header (this: any, key: string, value: unknown = '') {
  const name = key.toLowerCase()
  const headers = this[kReplyHeaders]
  if (name === 'set-cookie' && headers[name] !== undefined) {
    headers[name] = ([] as unknown[]).concat(headers[name], value)
  } else {
    headers[name] = value
  }
  return this
}

proto.headers = function setHeaders (this: any, headers: Record<string, unknown>) {
  for (const key of Object.keys(headers)) this.header(key, headers[key])
  return this
}

proto.getHeader = function getHeader (this: any, key: string) {
  const name = key.toLowerCase()
  const value = this[kReplyHeaders][name]
  return value !== undefined ? value : this.raw.getHeader(name)
}

proto.getHeaders = function getHeaders (this: any) {
  return { ...this.raw.getHeaders(), ...this[kReplyHeaders] }
}

proto.hasHeader = function hasHeader (this: any, key: string) {
  const name = key.toLowerCase()
  return this[kReplyHeaders][name] !== undefined || this.raw.hasHeader(name)
}

proto.removeHeader = function removeHeader (this: any, key: string) {
  const name = key.toLowerCase()
  delete this[kReplyHeaders][name]
  if (!this.raw.headersSent) this.raw.removeHeader(name)
  return this
}

proto.type = function type (this: any, contentType: string) {
  this[kReplyHeaders]['content-type'] = contentType
  return this
}

proto.serializer = function serializer (this: any, fn: (payload: unknown) => string) {
  this[kReplySerializer] = fn
  return this
}

/** Serializes a payload the way `send` would for the current status (route schema, custom or JSON). */
proto.serialize = function serialize (this: any, payload: unknown) {
  return serializeReply(this, this[kRouteContext], payload, this.raw.statusCode)
}

proto.hijack = function hijack (this: any) {
  this[kReplyHijacked] = true
  return this
}

proto.getResponseTime = function getResponseTime (this: any) {
  return performance.now() - this[kReplyStartTime]
}

proto.redirect = function redirect (this: any, codeOrUrl: number | string, urlOrCode?: string | number) {
  let url: string
  let statusCode: number
  if (typeof codeOrUrl === 'string') {
    url = codeOrUrl
    statusCode = typeof urlOrCode === 'number' ? urlOrCode : (this[kReplyHasStatusCode] ? this.raw.statusCode : 302)
  } else {
    statusCode = codeOrUrl
    url = urlOrCode as string
  }
  return this.header('location', url).code(statusCode).send()
}

proto.callNotFound = function (this: any) {
  if (this[kRouteContext].isNotFound) {
    // calling it from the not-found handler itself would loop forever
    this.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
    this.code(404).send('404 Not Found')
    return this
  }
  callNotFound(this.request, this)
  return this
}

/** Sends the payload; a second call logs a warning and sends nothing. Errors go to the error handler chain. */
proto.send = function send (this: any, payload?: unknown) {
  if (this[kReplyInOnError]) throw new codes.FST_ERR_SEND_INSIDE_ONERR()
  if (this[kReplyStarted] || this[kReplyHijacked]) {
    const context: RouteContext = this[kRouteContext]
    this.log.warn({ err: new codes.FST_ERR_REP_ALREADY_SENT(context.url, context.method) }, 'Reply was already sent')
    return this
  }
  if (payload instanceof Error) {
    handleError(this, payload)
    return this
  }
  this[kReplyStarted] = true
  sendPayload(this, payload)
  return this
}

const jsonContentType = 'application/json; charset=utf-8'

/** A JSON content type without a charset gets `charset=utf-8`, as Fastify does (`type('application/json')`). */
function withJsonCharset (contentType: string): string {
  if (contentType.includes('charset')) return contentType
  const trimmed = contentType.trim()
  return trimmed.endsWith(';') ? trimmed + ' charset=utf-8' : trimmed + '; charset=utf-8'
}

/** Streams (node or web) and fetch `Response`s are pre-serialized: they go straight to onSend. */
function isStreamLike (payload: any): boolean {
  return typeof payload.pipe === 'function' || typeof payload.getReader === 'function' ||
    Object.prototype.toString.call(payload) === '[object Response]'
}

/** Chooses the content type and the serializer for a payload, then runs the onSend hooks. */
export function sendPayload (reply: any, payload: unknown): void {
  if (payload === undefined) {
    onSendHook(reply, payload)
    return
  }
  const headers = reply[kReplyHeaders]
  const contentType: string | undefined = headers['content-type']
  if (typeof payload === 'string') {
    if (contentType === undefined) {
      headers['content-type'] = 'text/plain; charset=utf-8'
    } else if (reply[kReplySerializer] !== null) {
      serializeAndSend(reply, payload)
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
  // objects and `null` (valid JSON) are serialized
  if (contentType === undefined) {
    headers['content-type'] = jsonContentType
  } else if (reply[kReplySerializer] === null && !contentType.includes('json') && reply[kRouteContext].replySerializer === null) {
    // `null` under a non-JSON type is an empty body; an object has no way to become one
    if (payload === null) onSendHook(reply, null)
    else handleError(reply, new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload))
    return
  } else if (contentType.includes('json')) {
    headers['content-type'] = withJsonCharset(contentType)
  }
  const hooks = reply[kRouteContext].preSerialization
  if (hooks === null) {
    serializeAndSend(reply, payload)
  } else {
    runPayloadHooks(hooks, reply.request, reply, payload, preSerializationDone)
  }
}

function preSerializationDone (err: Error | null, reply: any, payload: unknown): void {
  if (err !== null) {
    handleError(reply, err)
    return
  }
  // whatever the hooks leave (a string included) is serialized: the content type already says JSON
  serializeAndSend(reply, payload)
}

function serializeAndSend (reply: any, payload: unknown): void {
  let body: string
  try {
    body = serializeReply(reply, reply[kRouteContext], payload, reply.raw.statusCode)
  } catch (err) {
    handleError(reply, err as Error)
    return
  }
  onSendHook(reply, body)
}

export function onSendHook (reply: any, payload: unknown): void {
  const hooks = reply[kRouteContext].onSend
  if (hooks === null) {
    writeResponse(reply, payload)
  } else {
    runPayloadHooks(hooks, reply.request, reply, payload, onSendDone)
  }
}

function onSendDone (err: Error | null, reply: any, payload: unknown): void {
  if (err !== null) {
    handleError(reply, err)
    return
  }
  writeResponse(reply, payload)
}

/** Writes status, headers and body to the socket. The only place that ends a response. */
function writeResponse (reply: any, payload: unknown): void {
  const res = reply.raw
  if (res.writableEnded || res.destroyed) return
  if (payload !== null && typeof payload === 'object' && Object.prototype.toString.call(payload) === '[object Response]') {
    payload = unwrapResponse(reply, payload as Response)
  }
  const headers = reply[kReplyHeaders]
  const statusCode: number = res.statusCode
  if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode < 200)) {
    // these statuses never carry a body: drop the headers describing one we were given (headers set for an
    // empty answer, such as a CORS preflight's `content-length: 0`, are the user's choice and stay)
    if (payload !== undefined && payload !== null) {
      delete headers['content-length']
      delete headers['transfer-encoding']
      if (statusCode === 204) delete headers['content-type']
    }
    if (writeHead(reply, statusCode, headers)) res.end()
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
  if (typeof (payload as any).pipe === 'function') {
    sendStream(reply, payload as NodeJS.ReadableStream)
    return
  }
  if (typeof (payload as any).getReader === 'function') {
    sendStream(reply, Readable.fromWeb(payload as any))
    return
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    reply[kReplyStarted] = false
    handleError(reply, new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload))
    return
  }
  if (reply[kReplyTrailers] !== null && announceTrailers(reply, headers)) {
    if (!writeHead(reply, statusCode, headers)) return
    res.write(payload)
    endWithTrailers(reply, payload)
    return
  }
  if (headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(payload))
  if (!writeHead(reply, statusCode, headers)) return
  // HEAD answers carry the GET route's headers (content-length included) but never a body
  if (reply.request.raw.method === 'HEAD') res.end()
  else res.end(payload)
}

/** Last resort for an error body whose onSend hooks failed: written without hooks; failing here ends the socket. */
export function writeErrorResponse (reply: any, body: string): void {
  const res = reply.raw
  if (res.writableEnded || res.destroyed) return
  const headers = reply[kReplyHeaders]
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
function unwrapResponse (reply: any, response: Response): unknown {
  reply.raw.statusCode = response.status
  const headers = reply[kReplyHeaders]
  response.headers.forEach((value, name) => { headers[name] = value })
  return response.body
}

/**
 * `writeHead` throws on an invalid header name or value (or status): the response is then answered by the error
 * handler, without the offending headers, so that one bad header cannot leave the request hanging.
 */
function writeHead (reply: any, statusCode: number, headers: Record<string, unknown>): boolean {
  try {
    reply.raw.writeHead(statusCode, headers)
    return true
  } catch (err) {
    dropInvalidHeaders(reply)
    reply[kReplyStarted] = false
    handleError(reply, err)
    return false
  }
}

function dropInvalidHeaders (reply: any): void {
  const headers = reply[kReplyHeaders]
  let dropped = false
  for (const name of Object.keys(headers)) {
    try {
      validateHeaderName(name)
      validateHeaderValue(name, headers[name])
    } catch {
      delete headers[name]
      dropped = true
    }
  }
  // nothing was wrong with the headers themselves: start the error answer from a clean slate
  if (!dropped) reply[kReplyHeaders] = {}
}

/** Pipes a stream; headers are set (not flushed) first so that an error before the first byte still gets a response. */
function sendStream (reply: any, payload: NodeJS.ReadableStream): void {
  const res = reply.raw
  const headers = reply[kReplyHeaders]
  const trailed = reply[kReplyTrailers] !== null && announceTrailers(reply, headers)
  try {
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name])
  } catch (err) {
    for (const name of Object.keys(headers)) res.removeHeader(name)
    if (typeof (payload as any).destroy === 'function') (payload as any).destroy()
    dropInvalidHeaders(reply)
    reply[kReplyStarted] = false
    handleError(reply, err)
    return
  }
  let sourceDone = false
  finished(payload as any, (err) => {
    sourceDone = true
    if (err && (err as any).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      if (res.headersSent) {
        reply.log.warn({ err }, 'response stream errored after headers were sent')
        res.destroy()
      } else {
        reply[kReplyStarted] = false
        handleError(reply, err)
      }
    }
  })
  finished(res, () => {
    if (!sourceDone && typeof (payload as any).destroy === 'function') (payload as any).destroy()
  })
  if (!trailed) {
    payload.pipe(res)
    return
  }
  // the response ends only once the trailers are known; a stream's trailer functions get `null` as payload
  payload.once('end', () => endWithTrailers(reply, null))
  payload.pipe(res, { end: false })
}

Object.defineProperties(proto, {
  statusCode: {
    get () { return this.raw.statusCode },
    set (value: number) { this.code(value) }
  },
  sent: {
    get () { return this[kReplyHijacked] === true || this[kReplyStarted] === true || this.raw.writableEnded === true },
    set (value: unknown) {
      if (value !== true) throw new codes.FST_ERR_REP_SENT_VALUE()
      this[kReplyHijacked] = true
    }
  },
  elapsedTime: { get () { return performance.now() - this[kReplyStartTime] } },
  context: { get () { return this[kRouteContext] } },
  routeOptions: { get () { return this.request.routeOptions } }
})
