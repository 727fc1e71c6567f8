/**
 * The reply object: status, headers and `send`. Headers are kept in a plain object and written once with
 * `writeHead`, so hooks can read and change them until the response starts. What happens to a payload after
 * `send()` (serialization, onSend, writing) is in `send.ts`.
 */
import { performance } from 'node:perf_hooks'
import { finished } from 'node:stream'
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { kRouteContext, kReplySerializer, kReplyErrorHandlerIndex } from './symbols'
import { serializeReply } from './serialization'
import { handleError } from './error-handler'
import { callNotFound } from './not-found'
import { sendPayload } from './send'
import type { RouteContext } from './context'
import { trailerReplyMethods } from './trailers'
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
  warnDeprecated('getResponseTime')
  return performance.now() - this[kReplyStartTime]
}

proto.redirect = function redirect (this: any, codeOrUrl: number | string, urlOrCode?: string | number) {
  let url: string
  let statusCode: number
  if (typeof codeOrUrl === 'string') {
    url = codeOrUrl
    statusCode = typeof urlOrCode === 'number' ? urlOrCode : (this[kReplyHasStatusCode] ? this.raw.statusCode : 302)
  } else {
    warnDeprecated('redirectCodeFirst')
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
    const err = new codes.FST_ERR_REP_ALREADY_SENT(context.url, context.method)
    this.log.warn({ err }, err.message)
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

/**
 * `await reply` waits until the response is fully written: `fulfilled()` then, `rejected(err)` on a stream error. A
 * client that goes away before the end is not an error of the reply (as in Fastify): `fulfilled()` too.
 */
proto.then = function then (this: any, fulfilled: () => void, rejected?: (err: Error) => void): void {
  const res = this.raw
  if (res.writableFinished) {
    fulfilled()
    return
  }
  const stopWatching = finished(res, { readable: false }, (err?: NodeJS.ErrnoException | null) => {
    stopWatching()
    if (err === null || err === undefined || err.code === 'ERR_STREAM_PREMATURE_CLOSE') fulfilled()
    else if (rejected !== undefined) rejected(err)
    else this.log.warn({ err }, 'unhandled error on reply.then')
  })
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
      warnDeprecated('replySentAssignment')
      this[kReplyHijacked] = true
    }
  },
  elapsedTime: { get () { return performance.now() - this[kReplyStartTime] } },
  context: {
    get () {
      warnDeprecated('replyContext')
      return this[kRouteContext]
    }
  },
  routeOptions: { get () { return this.request.routeOptions } }
})
