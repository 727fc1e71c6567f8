/**
 * Error handling. Every error sent on a reply runs the route's `onError` hooks once, then the error-handler chain:
 * the route's or context's custom handler first; if that handler throws or sends an error, its parent's handler
 * gets it, down to the default handler, which answers `{ statusCode, code, error, message }`.
 */
import { codes } from '../core/errors'
import { toError } from '../core/to-error'
import { defaultErrorBody, statusText, type ErrorPayload } from '../core/error-body'
import {
  kPluginContext, kRoute, kReplyErrorHandler, kReplyHeaders, kReplyStarted, kReplyHasStatusCode, kReplyInOnError, kReplySendingError
} from '../core/symbols'
import { isThenable } from '../core/objects'
import { assertNotStarted } from '../core/start-guard'
import type { AnyFn } from '../core/types'
import type { Instance } from '../encapsulation/app-state'
import type { ErrorHandlerLink } from '../encapsulation/plugin-context'
import { runPayloadHooks } from '../hooks/runners'
import { serializeErrorPayload } from './payload-serializer'
import type { RequestState } from '../request/request'
import type { ReplyState } from './reply'
import { onSendHook, writeErrorResponse } from './send'

/** What an error handler may find on an error: Fastify's fields and http-errors' ones. */
type HandledError = Error & { statusCode?: unknown, status?: unknown, code?: unknown, headers?: unknown }

/** The root handler: logs (5xx as errors, 4xx as info) and sends the error, which is then serialized. */
export function defaultErrorHandler (this: Instance, error: HandledError, request: RequestState, reply: ReplyState): void {
  if (reply.statusCode < 500) {
    reply.log.info({ res: reply, err: error }, error?.message)
  } else {
    reply.log.error({ req: request, res: reply, err: error }, error?.message)
  }
  reply.send(error)
}

export const defaultErrorHandlerLink: ErrorHandlerLink = { fn: defaultErrorHandler, instance: null, parent: null }

function statusFor (reply: ReplyState, error: HandledError): number {
  const given = error.statusCode ?? error.status
  // http-error style objects sometimes carry the status as a numeric string
  const fromError = typeof given === 'string' ? Number(given) : given
  if (typeof fromError === 'number' && Number.isInteger(fromError) && fromError >= 400 && fromError <= 599) return fromError
  const current = reply.raw.statusCode
  if (reply[kReplyHasStatusCode] && current >= 400) return current
  return 500
}

/** Entry point for any error on a reply (from `send(err)`, a hook, a parser, the handler, a serializer). */
export function handleError (reply: ReplyState, value: unknown): void {
  const error: HandledError = toError(value)
  const res = reply.raw
  if (res.headersSent || res.writableEnded) {
    reply.log.error({ err: error }, 'error after the response was sent')
    if (!res.writableEnded) res.destroy(error)
    return
  }
  reply[kReplyStarted] = false
  const route = reply[kRoute]
  const current = reply[kReplyErrorHandler]
  if (current === null) {
    reply.code(statusFor(reply, error))
    if (error.headers !== null && typeof error.headers === 'object') reply.headers(error.headers as Record<string, unknown>)
    reply[kReplyErrorHandler] = route.errorHandler
    if (route.onError === null) {
      callErrorHandler(reply, route.errorHandler, error)
    } else {
      reply[kReplyInOnError] = true
      runPayloadHooks(route.onError, reply.request, reply, error, (hookErr) => {
        reply[kReplyInOnError] = false
        if (hookErr !== null) reply.log.error({ err: hookErr }, 'onError hook failed')
        callErrorHandler(reply, route.errorHandler, error)
      })
    }
    return
  }
  if (current.fn === defaultErrorHandler) {
    sendErrorPayload(reply, error)
    return
  }
  const next = current.parent ?? defaultErrorHandlerLink
  reply[kReplyErrorHandler] = next
  reply.code(statusFor(reply, error))
  callErrorHandler(reply, next, error)
}

function callErrorHandler (reply: ReplyState, link: ErrorHandlerLink, error: Error): void {
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
      (payload: unknown) => { if (payload !== reply && !reply.sent) reply.send(payload) },
      (err: unknown) => handleError(reply, err)
    )
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
  let body: string
  try {
    body = serializeErrorPayload(reply[kRoute], payload, error !== null && typeof error === 'object' ? error : payload)
  } catch (serializationError) {
    reply.log.error({ err: serializationError }, 'the error payload could not be serialized')
    reply.raw.statusCode = 500
    const failure = new codes.FST_ERR_FAILED_ERROR_SERIALIZATION((serializationError as Error).message, payload.message)
    body = defaultErrorBody({ statusCode: 500, code: failure.code, error: statusText(500), message: failure.message })
  }
  reply[kReplyStarted] = true
  if (reply[kReplySendingError]) {
    // onSend (or the write) failed on the error body itself: answer with this error, skipping the hooks
    writeErrorResponse(reply, body)
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
    const inherited = plugin.errorHandler.instance === this ? plugin.errorHandler.parent : plugin.errorHandler
    plugin.errorHandler = { fn, instance: this, parent: inherited ?? defaultErrorHandlerLink }
    return this
  }
}
