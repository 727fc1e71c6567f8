/**
 * The reply object: status, headers and `send`. Headers are kept in a plain object and written once with
 * `writeHead`, so hooks can read and change them until the response starts. What happens to a payload after
 * `send()` (serialization, onSend, writing) is in `send.ts`.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { finished } from 'node:stream'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { mediaTypeOf } from '../core/media-type'
import {
  kRoute, kReplySerializer, kReplyErrorHandler, kReplyHeaders, kReplyStarted, kReplyHijacked, kReplyStartTime,
  kReplyHasStatusCode, kReplyInOnError, kReplySendingError, kReplyTrailers, kReplySendError
} from '../core/symbols'
import type { Instance } from '../encapsulation/app-state'
import type { ErrorHandlerLink } from '../encapsulation/plugin-context'
import type { Logger } from '../types/logger'
import type { SerializerFn } from '../schema/serialization/serializer-types'
import { serializeReply } from './payload-serializer'
import { callNotFound } from '../request/dispatch'
import { replySchemaMethods } from '../request/route-schema-functions'
import type { RequestState } from '../request/request'
import type { CompiledRoute } from '../routing/route-model'
import { handleError } from './error-handler'
import { sendPayload } from './send'
import { trailerReplyMethods, type TrailerFunction } from './trailers'

/** The internal view of a reply object; its public members are typed in `src/types/reply.ts`. */
export interface ReplyState {
  raw: ServerResponse
  request: RequestState
  log: Logger
  server: Instance
  [kRoute]: CompiledRoute
  /** Values as given: Node checks them at `writeHead` (see `send.ts`). */
  [kReplyHeaders]: OutgoingHttpHeaders
  [kReplyStarted]: boolean
  [kReplyHijacked]: boolean
  [kReplyHasStatusCode]: boolean
  [kReplyInOnError]: boolean
  [kReplySendingError]: boolean
  [kReplySerializer]: SerializerFn | null
  [kReplyErrorHandler]: ErrorHandlerLink | null
  [kReplyStartTime]: number
  [kReplyTrailers]: Map<string, TrailerFunction> | null
  statusCode: number
  readonly sent: boolean
  readonly elapsedTime: number
  send (payload?: unknown): ReplyState
  [kReplySendError] (failure: unknown): void
  code (statusCode: number): ReplyState
  header (name: string, value?: unknown): ReplyState
  headers (headers: Record<string, unknown>): ReplyState
  getHeader (name: string): unknown
  /** Decorators, and whatever hooks and handlers add. */
  [member: string | symbol]: unknown
}

/** A context's reply class: decorators go on its prototype. */
export interface ReplyClass {
  new (res: ServerResponse, request: RequestState, log: Logger, route: CompiledRoute): ReplyState
  prototype: ReplyState
}

/** The base of every context's reply class: it holds the methods; instances come from `subclassReply`. */
export const Reply = function Reply (): void {} as unknown as ReplyClass

/** Creates the reply class of a child context: same fields, prototype chained to the parent's. */
export function subclassReply (Parent: ReplyClass): ReplyClass {
  function ContextReply (this: ReplyState, res: ServerResponse, request: RequestState, log: Logger, route: CompiledRoute): void {
    this.raw = res
    this.request = request
    this.log = log
    this[kRoute] = route
    this[kReplyHeaders] = {}
    this[kReplyStarted] = false
    this[kReplyHijacked] = false
    this[kReplyHasStatusCode] = false
    this[kReplyInOnError] = false
    this[kReplySendingError] = false
    this[kReplySerializer] = null
    this[kReplyErrorHandler] = null
    this[kReplyStartTime] = performance.now()
  }
  ContextReply.prototype = Object.create(Parent.prototype)
  ContextReply.prototype.constructor = ContextReply
  return ContextReply as unknown as ReplyClass
}

const proto = Reply.prototype
Object.assign(proto, trailerReplyMethods, replySchemaMethods)

proto.code = function code (this: ReplyState, statusCode: number) {
  const code = Number(statusCode)
  if (!(code >= 100 && code <= 599)) throw new codes.FST_ERR_BAD_STATUS_CODE(String(statusCode))
  // 404.5 is 404, as Node (and so Fastify) writes it
  this.raw.statusCode = Math.trunc(code)
  this[kReplyHasStatusCode] = true
  return this
}
proto.status = proto.code

proto.header = function header (this: ReplyState, key: string, value: unknown = '') {
  const name = key.toLowerCase()
  const headers = this[kReplyHeaders]
  const given = value as OutgoingHttpHeaders[string]
  if (name === 'set-cookie' && headers[name] !== undefined) {
    headers[name] = ([] as string[]).concat(headers[name] as string | string[], given as string | string[])
  } else {
    headers[name] = given
  }
  return this
}

proto.headers = function setHeaders (this: ReplyState, headers: Record<string, unknown>) {
  for (const key of Object.keys(headers)) this.header(key, headers[key])
  return this
}

proto.getHeader = function getHeader (this: ReplyState, key: string) {
  const name = key.toLowerCase()
  const value = this[kReplyHeaders][name]
  return value !== undefined ? value : this.raw.getHeader(name)
}

proto.getHeaders = function getHeaders (this: ReplyState) {
  return { ...this.raw.getHeaders(), ...this[kReplyHeaders] }
}

proto.hasHeader = function hasHeader (this: ReplyState, key: string) {
  const name = key.toLowerCase()
  return this[kReplyHeaders][name] !== undefined || this.raw.hasHeader(name)
}

proto.removeHeader = function removeHeader (this: ReplyState, key: string) {
  const name = key.toLowerCase()
  delete this[kReplyHeaders][name]
  if (!this.raw.headersSent) this.raw.removeHeader(name)
  return this
}

proto.type = function type (this: ReplyState, contentType: string) {
  this[kReplyHeaders]['content-type'] = contentType
  return this
}

proto.serializer = function serializer (this: ReplyState, fn: (payload: unknown) => string) {
  this[kReplySerializer] = fn
  return this
}

/** Serializes a payload the way `send` would for the current status (route schema, custom or JSON). */
proto.serialize = function serialize (this: ReplyState, payload: unknown) {
  return serializeReply(this, this[kRoute], payload, this.raw.statusCode)
}

proto.hijack = function hijack (this: ReplyState) {
  this[kReplyHijacked] = true
  return this
}

proto.getResponseTime = function getResponseTime (this: ReplyState) {
  warnDeprecated('getResponseTime')
  return performance.now() - this[kReplyStartTime]
}

proto.redirect = function redirect (this: ReplyState, codeOrUrl: number | string, urlOrCode?: string | number) {
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

proto.callNotFound = function (this: ReplyState) {
  if (this[kRoute].isNotFound) {
    // calling it from the not-found handler itself would loop forever
    this.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
    this.code(404).send('404 Not Found')
    return this
  }
  callNotFound(this.request, this)
  return this
}

/** A `103 Early Hints` answer, written at once: the final status and headers are still the reply's to set. */
proto.writeEarlyHints = function writeEarlyHints (this: ReplyState, hints: Record<string, string | string[]>, callback?: () => void) {
  this.raw.writeEarlyHints(hints, callback)
}

/** Sends the payload; a second call logs a warning and sends nothing. Errors go to the error handler chain. */
proto.send = function send (this: ReplyState, payload?: unknown) {
  if (this[kReplyInOnError]) throw new codes.FST_ERR_SEND_INSIDE_ONERR()
  if (this[kReplyStarted] || this[kReplyHijacked]) {
    const context: CompiledRoute = this[kRoute]
    const err = new codes.FST_ERR_REP_ALREADY_SENT(context.url, context.method)
    this.log.warn({ err }, err.message)
    return this
  }
  if (payload instanceof Error) {
    handleError(this, payload)
    return this
  }
  this[kReplyStarted] = true
  try {
    sendPayload(this, payload)
  } catch (err) {
    // a payload send() refuses (an object under a non-JSON type): the reply was not started
    this[kReplyStarted] = false
    throw err
  }
  return this
}

/** See `kReplySendError`. A reply already answered refuses it as `send` does (with its warning). */
proto[kReplySendError] = function sendError (this: ReplyState, failure: unknown) {
  if (this[kReplyStarted] || this[kReplyHijacked] || this[kReplyInOnError]) this.send(failure)
  else handleError(this, failure)
}

/**
 * `await reply` waits until the response is fully written: `fulfilled()` then, `rejected(err)` on a stream error. A
 * client that goes away before the end is not an error of the reply (as in Fastify): `fulfilled()` too.
 */
proto.then = function then (this: ReplyState, fulfilled: () => void, rejected?: (err: Error) => void): void {
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
      return this[kRoute]
    }
  },
  routeOptions: { get () { return this.request.routeOptions } },
  mediaType: { get () { return mediaTypeOf(this.getHeader('content-type')) } }
})
