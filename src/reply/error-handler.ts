/**
 * Error handling. Every error sent on a reply runs the route's `onError` hooks once, then the error-handler chain:
 * the route's or context's custom handler first; if that handler throws or sends an error, its parent's handler
 * gets it, down to the default handler, which answers `{ statusCode, code, error, message }`.
 */
import { codes } from '../core/errors'
import { toError } from '../core/to-error'
import { answerStatusFor, defaultErrorBody, statusText, type ErrorPayload } from '../core/error-body'
import {
  kApp, kPluginContext, kRoute, kReplyErrorHandler, kReplyHeaders, kReplyStarted, kReplyHasStatusCode, kReplyInOnError, kReplySendingError
} from '../core/symbols'
import { isThenable } from '../core/objects'
import { assertNotStarted } from '../core/start-guard'
import { warnDeprecated } from '../core/deprecations'
import type { ApiLevel } from '../core/api-level'
import type { AnyFn } from '../core/types'
import type { Instance } from '../encapsulation/app-state'
import type { ErrorHandlerLink } from '../encapsulation/plugin-context'
import { runPayloadHooks } from '../hooks/runners'
import { serializeErrorPayload } from './payload-serializer'
import type { RequestState } from '../request/request'
import { logsRequest } from '../request/request-logging'
import type { ReplyState } from './reply'
import { onSendHook, writeErrorResponse } from './send'

/** What an error handler may find on an error: Fastify's fields and http-errors' ones. */
type HandledError = Error & { statusCode?: unknown, status?: unknown, code?: unknown, headers?: unknown }

/**
 * The root handler. It applies the error's `headers` and sets the status: the error's `statusCode` or `status` (a
 * 4xx/5xx), else a 4xx/5xx the reply already has, else 500. It logs 5xx as errors and 4xx as info (unless `disableRequestLogging`). An Error is sent as the error
 * body (`{ statusCode, code, error, message }`, or the route's schema for the status); anything else that was
 * thrown (a string, a plain object) is sent as the payload itself, as Fastify does. `undefined` and `null` depend on
 * the level (`nullishThrownAsPayload`): `FST_ERR_SEND_UNDEFINED_ERR`'s body, or sent as they are (Fastify 5).
 */
function logHandledError (error: Error, request: RequestState, reply: ReplyState): void {
  if (reply.statusCode < 500) reply.log.info({ res: reply, err: error }, error.message)
  else reply.log.error({ req: request, res: reply, err: error }, error.message)
}

/** The root handler of one level: one function per level, chosen when the application is built. */
function makeDefaultErrorHandler (nullishAsPayload: boolean): AnyFn {
  // named as Fastify names it: printRoutes shows `defaultErrorHandler()`
  return function defaultErrorHandler (this: Instance, thrown: unknown, request: RequestState, reply: ReplyState): void {
    const error: HandledError = toError(thrown)
    const status = answerStatusFor(thrown, reply.statusCode, reply[kReplyHasStatusCode])
    if (status !== reply.statusCode) reply.code(status)
    if (error.headers !== null && typeof error.headers === 'object') reply.headers(error.headers as Record<string, unknown>)
    // request lines, as in Fastify 4: `disableRequestLogging` silences them too (an onError hook still sees them)
    if (logsRequest(this[kApp], request)) logHandledError(error, request, reply)
    if (thrown instanceof Error || (!nullishAsPayload && (thrown === undefined || thrown === null))) reply.send(error)
    else sendAnswer(reply, thrown)
  }
}

const defaultLinks = {
  undefinedError: { fn: makeDefaultErrorHandler(false), instance: null, parent: null },
  asPayload: { fn: makeDefaultErrorHandler(true), instance: null, parent: null }
} satisfies Record<string, ErrorHandlerLink>

/** The root of a level's error-handler chain (`nullishThrownAsPayload`). */
export function defaultErrorHandlerLinkOf (level: ApiLevel): ErrorHandlerLink {
  return level.nullishThrownAsPayload ? defaultLinks.asPayload : defaultLinks.undefinedError
}

/**
 * Entry point for any error on a reply (from `send(err)`, a hook, a parser, the handler, a serializer). The value
 * reaches the onError hooks and the custom error handlers as it was thrown, whatever it is, and the reply keeps the
 * status it had (Fastify's contract: a custom handler sets its own); the default handler answers for all.
 */
export function handleError (reply: ReplyState, value: unknown): void {
  const res = reply.raw
  if (res.headersSent || res.writableEnded) {
    const error = toError(value)
    reply.log.error({ err: error }, 'error after the response was sent')
    if (!res.writableEnded) res.destroy(error)
    return
  }
  reply[kReplyStarted] = false
  const route = reply[kRoute]
  const current = reply[kReplyErrorHandler]
  if (current === null) {
    reply[kReplyErrorHandler] = route.errorHandler
    if (route.onError === null) {
      callErrorHandler(reply, route.errorHandler, value)
    } else {
      reply[kReplyInOnError] = true
      runPayloadHooks(route.onError, reply.request, reply, value, false, (hookErr) => {
        reply[kReplyInOnError] = false
        if (hookErr !== null) reply.log.error({ err: hookErr }, 'onError hook failed')
        callErrorHandler(reply, route.errorHandler, value)
      })
    }
    return
  }
  if (current.parent === null) {
    // the default handler's own send(error): write the error body. When that answer failed to be sent (an onSend
    // hook, an invalid header), the onError hooks hear of it once more, as in Fastify, before the last resort.
    if (reply[kReplySendingError] && route.onError !== null) rerunOnError(reply, value)
    else sendErrorPayload(reply, toError(value))
    return
  }
  reply[kReplyErrorHandler] = current.parent
  callErrorHandler(reply, current.parent, value)
}

function rerunOnError (reply: ReplyState, value: unknown): void {
  const route = reply[kRoute]
  reply[kReplyInOnError] = true
  runPayloadHooks(route.onError as NonNullable<typeof route.onError>, reply.request, reply, value, false, (hookErr) => {
    reply[kReplyInOnError] = false
    if (hookErr !== null) reply.log.error({ err: hookErr }, 'onError hook failed')
    sendErrorPayload(reply, toError(value))
  })
}

/**
 * Calls one handler of the chain. What it returns is the answer (a promise's value once resolved, as with route
 * handlers); a throw or a rejection goes to the next handler. A handler that returns nothing must send itself.
 */
function callErrorHandler (reply: ReplyState, link: ErrorHandlerLink, error: unknown): void {
  const headers = reply[kReplyHeaders]
  delete headers['content-type']
  delete headers['content-length']
  let result: unknown
  try {
    result = link.fn.call(link.instance ?? reply.server, error, reply.request, reply)
  } catch (err) {
    handleError(reply, err)
    return
  }
  if (isThenable(result)) {
    result.then(
      // resolving without sending answers with what was returned, or an empty body: never leave the request hanging
      (payload: unknown) => { if (payload !== reply && !reply.sent) sendAnswer(reply, payload) },
      (err: unknown) => handleError(reply, err)
    )
  } else if (result !== undefined && result !== reply && !reply.sent) {
    sendAnswer(reply, result)
  }
}

/** A handler's answer; one send() refuses (an object under a non-JSON type) goes to the next handler. */
function sendAnswer (reply: ReplyState, payload: unknown): void {
  try {
    reply.send(payload)
  } catch (err) {
    handleError(reply, err)
  }
}

/**
 * Serializes the error for the status set on the reply: through the route's response schema for that status when
 * one exists, else the default format. Custom reply serializers are not used: error bodies are always JSON.
 */
function sendErrorPayload (reply: ReplyState, error: HandledError): void {
  const statusCode = reply.raw.statusCode
  const payload: ErrorPayload = {
    statusCode,
    code: typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : undefined,
    error: statusText(statusCode),
    message: typeof error.message === 'string' ? error.message : ''
  }
  const headers = reply[kReplyHeaders]
  headers['content-type'] = 'application/json; charset=utf-8'
  let body: unknown
  try {
    body = serializeErrorPayload(reply[kRoute], payload, error !== null && typeof error === 'object' ? error : payload)
  } catch (serializationError) {
    // Fastify's words, and its body for this case (no `error` key)
    reply.log.error({ err: serializationError, statusCode }, 'The serializer for the given status code failed')
    reply.raw.statusCode = 500
    const failure = new codes.FST_ERR_FAILED_ERROR_SERIALIZATION((serializationError as Error).message, payload.message)
    body = defaultErrorBody({ statusCode: 500, code: failure.code, message: failure.message })
  }
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    // a custom serializer of the status gave no text: answering with it would fail while writing
    reply.raw.statusCode = 500
    const invalid = new codes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof body)
    body = defaultErrorBody({ statusCode: 500, code: invalid.code, message: invalid.message })
  }
  reply[kReplyStarted] = true
  if (reply[kReplySendingError]) {
    // onSend (or the write) failed on the error body itself: answer with this error, skipping the hooks
    writeErrorResponse(reply, body as string | Buffer)
    return
  }
  reply[kReplySendingError] = true
  onSendHook(reply, body)
}

/** `instance.setErrorHandler(fn)`: the parent of the new handler is the one this context inherited. */
export const errorHandlerInstanceMethods = {
  setErrorHandler (this: Instance, fn: AnyFn): Instance {
    assertNotStarted(this, 'Cannot call "setErrorHandler"!')
    if (typeof fn !== 'function') throw new codes.FST_ERR_ERROR_HANDLER_NOT_FN()
    const plugin = this[kPluginContext]
    if (plugin.errorHandler.instance === this) {
      // a second handler in one scope replaces the first, which never runs again (Fastify 5: refused, or warned)
      if (!this[kApp].options.allowErrorHandlerOverride) throw new codes.FST_ERR_ERROR_HANDLER_ALREADY_SET()
      if (this[kApp].level.errorHandlerOverrideWarns) warnDeprecated('errorHandlerOverride')
    }
    const inherited = plugin.errorHandler.instance === this ? plugin.errorHandler.parent : plugin.errorHandler
    plugin.errorHandler = { fn, instance: this, parent: inherited ?? defaultErrorHandlerLinkOf(this[kApp].level) }
    return this
  }
}
