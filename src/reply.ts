/**
 * The reply object: status, headers and `send`. Headers are kept in a plain object and written once with
 * `writeHead`, so hooks can read and change them until the response starts. The payload path is:
 * send → (preSerialization → serialize, for non-string payloads) → onSend → write.
 */
import { Buffer } from 'node:buffer'
import { performance } from 'node:perf_hooks'
import { finished } from 'node:stream'
import { codes } from './errors'
import { kRouteContext, kReplySerializer, kReplyErrorHandlerIndex } from './symbols'
import { runPayloadHooks } from './hooks'
import { serializeReply } from './serialization'
import { handleError } from './error-handler'
import { callNotFound } from './not-found'
import type { RouteContext } from './context'

export const kReplyHeaders = Symbol('enclave.replyHeaders')
export const kReplyStarted = Symbol('enclave.replyStarted')
export const kReplyHijacked = Symbol('enclave.replyHijacked')
export const kReplyStartTime = Symbol('enclave.replyStartTime')
export const kReplyHasStatusCode = Symbol('enclave.replyHasStatusCode')
export const kReplyInOnError = Symbol('enclave.replyInOnError')

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
    this[kReplySerializer] = null
    this[kReplyErrorHandlerIndex] = null
    this[kReplyStartTime] = performance.now()
  }
  ContextReply.prototype = Object.create(Parent.prototype)
  ContextReply.prototype.constructor = ContextReply
  return ContextReply
}

const proto = Reply.prototype as any

proto.code = function code (this: any, statusCode: number) {
  const code = Number(statusCode)
  if (!Number.isInteger(code) || code < 100 || code > 599) throw new codes.FST_ERR_BAD_STATUS_CODE(String(statusCode))
  this.raw.statusCode = code
  this[kReplyHasStatusCode] = true
  return this
}
proto.status = proto.code

proto.header = function header (this: any, key: string, value: unknown) {
  if (value === undefined) return this
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

/** Chooses the content type and the serializer for a payload, then runs the onSend hooks. */
export function sendPayload (reply: any, payload: unknown): void {
  if (payload === undefined || payload === null) {
    if (payload === null && reply[kReplyHeaders]['content-type'] === undefined) {
      // `null` is valid JSON; Fastify 4 sends it as such
      reply[kReplyHeaders]['content-type'] = 'application/json; charset=utf-8'
      onSendHook(reply, 'null')
      return
    }
    onSendHook(reply, payload)
    return
  }
  const contentType: string | undefined = reply[kReplyHeaders]['content-type']
  if (typeof payload === 'string') {
    if (contentType === undefined) reply[kReplyHeaders]['content-type'] = 'text/plain; charset=utf-8'
    onSendHook(reply, payload)
    return
  }
  if (Buffer.isBuffer(payload) || typeof (payload as any).pipe === 'function') {
    if (contentType === undefined && Buffer.isBuffer(payload)) reply[kReplyHeaders]['content-type'] = 'application/octet-stream'
    onSendHook(reply, payload)
    return
  }
  if (ArrayBuffer.isView(payload)) {
    if (contentType === undefined) reply[kReplyHeaders]['content-type'] = 'application/octet-stream'
    onSendHook(reply, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength))
    return
  }
  if (contentType === undefined) {
    reply[kReplyHeaders]['content-type'] = 'application/json; charset=utf-8'
  } else if (reply[kReplySerializer] === null && !contentType.includes('json') && reply[kRouteContext].replySerializer === null) {
    handleError(reply, new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload))
    return
  } else if (contentType.includes('json') && !contentType.includes('charset')) {
    reply[kReplyHeaders]['content-type'] = contentType + '; charset=utf-8'
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
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    onSendHook(reply, payload)
    return
  }
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
  const headers = reply[kReplyHeaders]
  const statusCode: number = res.statusCode
  if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode < 200)) {
    delete headers['content-length']
    delete headers['transfer-encoding']
    res.writeHead(statusCode, headers)
    res.end()
    return
  }
  if (payload === undefined || payload === null) {
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = '0'
    res.writeHead(statusCode, headers)
    res.end()
    return
  }
  if (typeof (payload as any).pipe === 'function') {
    sendStream(reply, payload as NodeJS.ReadableStream)
    return
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    reply[kReplyStarted] = false
    handleError(reply, new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload))
    return
  }
  if (headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(payload))
  res.writeHead(statusCode, headers)
  // HEAD answers carry the GET route's headers (content-length included) but never a body
  if (reply.request.raw.method === 'HEAD') res.end()
  else res.end(payload)
}

/** Pipes a stream; headers are set (not flushed) first so that an error before the first byte still gets a response. */
function sendStream (reply: any, payload: NodeJS.ReadableStream): void {
  const res = reply.raw
  const headers = reply[kReplyHeaders]
  for (const name of Object.keys(headers)) res.setHeader(name, headers[name])
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
  payload.pipe(res)
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
