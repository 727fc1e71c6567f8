/**
 * The per-request pipeline: onRequest → preParsing → body parsing → preValidation → validation → preHandler →
 * handler. Each step reads only the route's `CompiledRoute`; nothing is looked up by name. What happens once the
 * handler answers is the reply's (`reply/send.ts`).
 */
import { AsyncResource } from 'node:async_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { kApp, kRoute, kReplyHijacked, kReplySendError } from '../core/symbols'
import { codes } from '../core/errors'
import { isThenable } from '../core/objects'
import { toError } from '../core/to-error'
import { earlyErrorBody } from '../core/error-body'
import { runHooks, runPayloadHooks, isAnswered } from '../hooks/runners'
import { validateRequest } from '../schema/validation/route-validation'
import type { AppState } from '../encapsulation/app-state'
import type { Logger } from '../types/logger'
import type { CompiledRoute } from '../routing/route-model'
import type { ReplyState } from '../reply/reply'
import type { RequestState } from './request'
import type { BodyStream } from './content-type-parser'
import { declaredLength } from './body-reader'
import { watchAbort, watchResponse, watchTimeout } from './response-watchers'
import { logsRequest } from './request-logging'
import { startHandlerTimer, setRequestResponse } from './request-signal'
import { handlerTraced, traceHandler, type HandlerOutcomes } from './handler-tracing'

type Params = Record<string, string | undefined>

/**
 * Builds the request and its reply (the reply holds the request, so nothing else is allocated to return both).
 * Null when the request's identity could not be made (see `identityFailed`): it was answered already.
 */
export function createReply (app: AppState, route: CompiledRoute, req: IncomingMessage, res: ServerResponse, params: Params, query: unknown): ReplyState | null {
  let id: string
  let log: Logger
  try {
    // called unbound: a user generator must not see the internal compiled route as `this`
    const genReqId = route.genReqId
    id = genReqId(req)
    log = route.requestLogger === null ? app.logger : route.requestLogger(id, req)
  } catch (err) {
    identityFailed(app, res, err)
    return null
  }
  const request = new route.Request(id, params, req, query, log, route)
  const reply = new route.Reply(res, request, log, route)
  setRequestResponse(request, res)
  if (route.requestProps.length !== 0) for (const [key, value] of route.requestProps) request[key] = value
  if (route.replyProps.length !== 0) for (const [key, value] of route.replyProps) reply[key] = value
  return reply
}

/**
 * A `genReqId` or `childLoggerFactory` that throws (or returns no logger) is the application's bug, and no request
 * object exists to take it through the error handler: answered 500 with the error's message and code, and logged.
 * (Fastify throws it out of the server's request listener, which ends the process.)
 */
function identityFailed (app: AppState, res: ServerResponse, err: unknown): void {
  const error = toError(err) as Error & { code?: unknown }
  app.logger.error({ err: error }, 'the request id or logger could not be made')
  const body = earlyErrorBody(500, error.message, typeof error.code === 'string' ? error.code : undefined)
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** `createReply`, then the request's 'incoming request' log line (unless request logging is off). */
export function createLoggedReply (app: AppState, route: CompiledRoute, req: IncomingMessage, res: ServerResponse, params: Params, query: unknown): ReplyState | null {
  const reply = createReply(app, route, req, res, params, query)
  if (reply !== null && logsRequest(app, reply.request)) reply.request.log.info({ req: reply.request }, 'incoming request')
  return reply
}

/** Starts a request on its route: the request log line, the response watchers it needs, then onRequest. */
export function startRequest (app: AppState, route: CompiledRoute, req: IncomingMessage, res: ServerResponse, params: Params, query: unknown): void {
  const reply = createLoggedReply(app, route, req, res, params, query)
  if (reply === null) return
  const request = reply.request
  if (route.onResponse !== null || app.requestLogging) watchResponse(app, request, reply)
  if (route.onTimeout !== null) watchTimeout(request, reply)
  if (route.onRequestAbort !== null) watchAbort(request, reply)
  if (route.handlerTimeout > 0) startHandlerTimer(route, request, reply)
  if (route.onRequest === null) {
    afterOnRequest(null, request, reply)
  } else {
    runHooks(route.onRequest, request, reply, true, afterOnRequest)
  }
}

function afterOnRequest (err: unknown, request: RequestState, reply: ReplyState): void {
  if (err !== null) {
    reply[kReplySendError](err)
    return
  }
  const route = request[kRoute]
  if (route.preParsing === null) {
    handleBody(request, reply, request.raw)
  } else {
    runPayloadHooks(route.preParsing, request, reply, request.raw, true, afterPreParsing)
  }
}

function afterPreParsing (err: unknown, reply: ReplyState, payload: BodyStream): void {
  if (isAnswered(reply)) return
  if (err !== null) {
    reply[kReplySendError](err)
    return
  }
  handleBody(reply.request, reply, payload)
}

/**
 * Parses the body when the method carries one, by the route's body rule (its level's table, or `addHttpMethod`):
 * never for GET/HEAD; for Fastify 4's OPTIONS/DELETE only with a type; QUERY refuses a request without a type.
 */
function handleBody (request: RequestState, reply: ReplyState, payload: BodyStream): void {
  const route = request[kRoute]
  const raw = request.raw
  const rule = route.bodyRule ?? route.instance[kApp].httpMethods.bodyRule(raw.method as string)
  if (rule === 'none' || rule === undefined) {
    afterBody(request, reply)
    return
  }
  const headers = raw.headers
  const contentType: string | undefined = headers['content-type']
  const length: string | undefined = headers['content-length']
  const chunked = headers['transfer-encoding'] !== undefined
  if (rule === 'when-typed') {
    // a typed body is parsed even when declared empty (`content-length: 0`), so an empty JSON body is a 400 as for POST
    if (contentType === undefined || (!chunked && length === undefined)) {
      afterBody(request, reply)
      return
    }
  } else if (contentType === undefined) {
    if (rule === 'typed') {
      reply.code(400)
      reply[kReplySendError](new codes.FST_ERR_ROUTE_MISSING_CONTENT_TYPE(raw.method))
      return
    }
    if (!chunked && (length === undefined || length === '0')) {
      afterBody(request, reply)
      return
    }
  }
  // the body arrives in the socket's async context: what ran before (an AsyncLocalStorage store set in onRequest)
  // carries on after it, as in Fastify. One resource per parsed body, named as Fastify names it (async_hooks users
  // and APMs track it by that type), entered when the body is in and destroyed once the request has moved on (not
  // `AsyncResource.bind`, which builds a deprecation getter per call: a third of the body path's time).
  const scope = new AsyncResource('content-type-parser:run')
  // the route's own bodyLimit, if it has one: a parser's limit never loosens it (as in Fastify)
  route.contentTypeParsers.parse(route.instance, request, payload, contentType, route.options.bodyLimit, route.isNotFound,
    (err: unknown, body?: unknown): void => {
      scope.runInAsyncScope(bodyParsed, null, err, body, request, reply)
      scope.emitDestroy()
    })
}

function bodyParsed (err: unknown, body: unknown, request: RequestState, reply: ReplyState): void {
  if (err !== null) {
    if (mustCloseAfterRefusal(request)) reply.header('connection', 'close')
    reply[kReplySendError](err)
    return
  }
  request.body = body
  afterBody(request, reply)
}

/**
 * A body refused before all of it came (413, an unsupported type): Node reads and discards the rest after the answer
 * so that the connection can take the next request. That is bounded when the request declared a length within the
 * route's body limit — the connection stays open, as in Fastify (a 415 for a small JSON-less body, say). Otherwise
 * (a larger declared length, or a chunked body of any size) the connection closes after the answer, so a client
 * sending gigabytes is not read on.
 */
function mustCloseAfterRefusal (request: RequestState): boolean {
  const raw = request.raw
  if (raw.complete || raw.httpVersionMajor !== 1) return false
  const length = declaredLength(raw.headers)
  return length < 0 || length > request[kRoute].bodyLimit
}

function afterBody (request: RequestState, reply: ReplyState): void {
  if (isAnswered(reply)) return
  const route = request[kRoute]
  if (route.preValidation === null) {
    afterPreValidation(null, request, reply)
  } else {
    runHooks(route.preValidation, request, reply, true, afterPreValidation)
  }
}

function afterPreValidation (err: unknown, request: RequestState, reply: ReplyState): void {
  if (err !== null) {
    reply[kReplySendError](err)
    return
  }
  const route = request[kRoute]
  if (route.validation === null) {
    runPreHandler(request, reply)
    return
  }
  let outcome: ReturnType<typeof validateRequest>
  try {
    outcome = validateRequest(route.validation, request, route.instance)
  } catch (err) {
    // a throwing schema error formatter, a validator compiler that gave no function: a 500, not a 400
    reply[kReplySendError](err)
    return
  }
  if (!isThenable(outcome)) {
    afterValidation(outcome, request, reply)
    return
  }
  outcome.then(
    (validationError) => { if (!isAnswered(reply)) afterValidation(validationError, request, reply) },
    (err: unknown) => { if (!isAnswered(reply)) reply[kReplySendError](err) }
  )
}

function afterValidation (validationError: Error | undefined, request: RequestState, reply: ReplyState): void {
  if (validationError !== undefined) {
    if (!request[kRoute].attachValidation) {
      reply.send(validationError)
      return
    }
    request.validationError = validationError
  }
  runPreHandler(request, reply)
}

/** preHandler hooks, then the handler: the last steps of a request (also of `reply.callNotFound()`). */
export function runPreHandler (request: RequestState, reply: ReplyState): void {
  const route = request[kRoute]
  if (route.preHandler === null) {
    invokeHandler(request, reply)
  } else {
    runHooks(route.preHandler, request, reply, true, afterPreHandler)
  }
}

function afterPreHandler (err: unknown, request: RequestState, reply: ReplyState): void {
  if (err !== null) {
    reply[kReplySendError](err)
    return
  }
  invokeHandler(request, reply)
}

/** Calls the handler with `this` = its instance; a returned value or promise is sent. */
function invokeHandler (request: RequestState, reply: ReplyState): void {
  if (isAnswered(reply)) return
  if (handlerTraced()) {
    traceHandler(request, reply, handlerOutcomes)
    return
  }
  const route = request[kRoute]
  let result: unknown
  try {
    result = route.handler.call(route.instance, request, reply)
  } catch (err) {
    // as thrown, even undefined: a custom error handler sees exactly what the handler threw (as in Fastify)
    reply[kReplySendError](err)
    return
  }
  if (result === undefined || result === reply) return
  if (isThenable(result)) {
    result.then((payload: unknown) => sendResult(reply, payload), (err: unknown) => onHandlerRejected(reply, err))
    return
  }
  sendResult(reply, result)
}

/**
 * What a handler returned or resolved is sent, as in Fastify 4 (a second answer only logs "Reply was already sent"); `undefined` when nothing
 * was sent answers an empty body rather than hang. A value send() refuses is the request's error.
 */
function sendResult (reply: ReplyState, payload: unknown): void {
  // a hijacked reply is the handler's own: what it returns besides is dropped without a word, as in Fastify
  if (payload === reply || (payload === undefined && reply.sent) || reply[kReplyHijacked]) return
  try {
    reply.send(payload)
  } catch (err) {
    reply[kReplySendError](err)
  }
}

function onHandlerThrew (reply: ReplyState, err: unknown): void {
  reply[kReplySendError](err)
}

const handlerOutcomes: HandlerOutcomes = { returned: sendResult, rejected: onHandlerRejected, thrown: onHandlerThrew }

function onHandlerRejected (reply: ReplyState, err: unknown): void {
  if (reply.sent && reply.raw.headersSent) {
    // Fastify 4's words, which log alerts may match
    reply.log.error({ err }, 'Promise errored, but reply.sent = true was set')
    return
  }
  reply[kReplySendError](err)
}
