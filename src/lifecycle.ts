/**
 * The per-request pipeline: route lookup → onRequest → preParsing → body parsing → preValidation → validation →
 * preHandler → handler. Each step reads only the route's compiled `RouteContext`; nothing is looked up by name.
 */
import { STATUS_CODES } from 'node:http'
import { codes } from './errors'
import { kRouteContext } from './symbols'
import { runHooks, runPayloadHooks, isAnswered, toError } from './hooks'
import { validateRequest } from './validation'
import { findNotFound } from './not-found'
import type { RouteContext } from './context'

const closingBody = '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}'

/** Builds the `(req, res)` listener of the HTTP server for one application. */
export function createRequestHandler (app: any): (req: any, res: any) => void {
  const router = app.router
  const rewriteUrl = app.options.rewriteUrl

  return function handleRequest (req: any, res: any): void {
    if (app.closing) {
      if (app.options.return503OnClosing) {
        res.writeHead(503, { 'content-type': 'application/json', 'content-length': String(closingBody.length), connection: 'close' })
        res.end(closingBody)
        return
      }
      res.setHeader('connection', 'close')
    }
    if (rewriteUrl !== undefined && !rewrite(app, rewriteUrl, req, res)) return
    if (!app.hasConstraints) {
      dispatch(app, req, res, router.find(req.method, req.url))
      return
    }
    const constrainer = router.constrainer
    if (constrainer.asyncStrategiesInUse.size === 0) {
      dispatch(app, req, res, router.find(req.method, req.url, constrainer.deriveConstraints(req)))
      return
    }
    // an asynchronous strategy (deriveConstraint(req, ctx, done)): route once every value is known
    constrainer.deriveConstraints(req, undefined, (err: unknown, constraints: unknown) => {
      if (err !== null && err !== undefined) {
        const asyncError = new codes.FST_ERR_ASYNC_CONSTRAINT()
        ;(asyncError as any).cause = err
        frameworkError(app, req, res, asyncError)
        return
      }
      dispatch(app, req, res, router.find(req.method, req.url, constraints))
    })
  }
}

/**
 * Applies the `rewriteUrl` option. A non-string result keeps the original URL (as Fastify does) and is logged; a
 * throw is answered as a framework error (500) instead of escaping the request handler. False when answered here.
 */
function rewrite (app: any, rewriteUrl: (this: any, req: any) => unknown, req: any, res: any): boolean {
  req.originalUrl = req.url
  let url: unknown
  try {
    url = rewriteUrl.call(app.root, req)
  } catch (err) {
    frameworkError(app, req, res, toError(err))
    return false
  }
  if (typeof url === 'string') req.url = url
  else app.logger.error({ err: new codes.FST_ERR_ROUTE_REWRITE_NOT_STR(req.url, typeof url) }, 'rewriteUrl did not return a string: the URL is kept')
  return true
}

/** Starts the found route, or the not-found handler of the URL's context. */
function dispatch (app: any, req: any, res: any, found: any): void {
  if (found !== null && found.store !== null) {
    startRequest(app, found.store.context, req, res, found.params, found.searchParams)
    return
  }
  if (found !== null) {
    // find-my-way's onBadUrl answered: the URL has an invalid percent-encoding
    frameworkError(app, req, res, new codes.FST_ERR_BAD_URL(req.url))
    return
  }
  if (app.defaultRoute === null) startNotFound(app, req, res)
  else runDefaultRoute(app, req, res)
}

/** Starts the not-found handler of the URL's context: what an unmatched request gets (`getDefaultRoute()`). */
export function startNotFound (app: any, req: any, res: any): void {
  const { record, params, query } = findNotFound(app, req.method, req.url)
  startRequest(app, record.context!, req, res, params, query)
}

/** The user's `setDefaultRoute` function; a throw is answered 500 rather than left to crash the process. */
function runDefaultRoute (app: any, req: any, res: any): void {
  try {
    app.defaultRoute(req, res)
  } catch (err) {
    app.logger.error({ err }, 'the default route threw')
    if (res.headersSent) {
      res.destroy()
      return
    }
    const body = JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }
}

/**
 * An error found before any route was chosen (a bad URL, a failing asynchronous constraint, a throwing `rewriteUrl`):
 * answered by the `frameworkErrors` option when given (with a request and reply of the URL's not-found context),
 * else with Fastify 4's fixed JSON body, written directly: no route was chosen, so no route's hooks or error
 * handler apply.
 */
function frameworkError (app: any, req: any, res: any, err: Error & { code?: string, statusCode?: number }): void {
  const handler = app.options.frameworkErrors
  if (handler === undefined) {
    const statusCode = err.statusCode ?? 500
    if (statusCode >= 500) app.logger.error({ err, req }, err.message)
    // Fastify 4's bodies: the bad-URL one carries its code, the others do not
    const body = JSON.stringify(err.code === 'FST_ERR_BAD_URL'
      ? { error: STATUS_CODES[statusCode], code: err.code, message: err.message, statusCode }
      : { error: STATUS_CODES[statusCode], message: err.message, statusCode })
    res.writeHead(statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
    return
  }
  const { record, query } = findNotFound(app, req.method, req.url)
  const reply = createReply(app, record.context!, req, res, {}, query)
  try {
    handler(err, reply.request, reply)
  } catch (thrown) {
    reply.send(toError(thrown))
  }
}

/** Builds the request and its reply (the reply holds the request, so nothing else is allocated to return both). */
function createReply (app: any, context: RouteContext, req: any, res: any, params: any, query: any): any {
  // called unbound: a user generator must not see the internal route context as `this`
  const genReqId = context.genReqId
  const id = genReqId(req)
  const log = app.loggingEnabled ? context.requestLogger(id, req) : app.logger
  const request = new context.Request(id, params, req, query, log, context)
  const reply = new context.Reply(res, request, log, context)
  for (const [key, value] of context.requestProps) request[key] = value
  for (const [key, value] of context.replyProps) reply[key] = value
  return reply
}

function startRequest (app: any, context: RouteContext, req: any, res: any, params: any, query: any): void {
  const reply = createReply(app, context, req, res, params, query)
  const request = reply.request
  if (app.requestLogging) request.log.info({ req: request }, 'incoming request')
  if (context.onResponse !== null || app.requestLogging) watchResponse(app, request, reply)
  if (context.onTimeout !== null) watchTimeout(request, reply)
  if (context.onRequestAbort !== null) watchAbort(request, reply)
  if (context.onRequest === null) {
    afterOnRequest(null, request, reply)
  } else {
    runHooks(context.onRequest, request, reply, true, afterOnRequest)
  }
}

function afterOnRequest (err: Error | null, request: any, reply: any): void {
  if (err !== null) {
    reply.send(err)
    return
  }
  const context: RouteContext = request[kRouteContext]
  if (context.preParsing === null) {
    handleBody(request, reply, request.raw)
  } else {
    runPayloadHooks(context.preParsing, request, reply, request.raw, afterPreParsing)
  }
}

function afterPreParsing (err: Error | null, reply: any, payload: any): void {
  if (isAnswered(reply)) return
  if (err !== null) {
    reply.send(err)
    return
  }
  handleBody(reply.request, reply, payload)
}

/** Parses the body when the method carries one (Fastify's rules): GET/HEAD never; OPTIONS/DELETE only with a type. */
function handleBody (request: any, reply: any, payload: any): void {
  const context: RouteContext = request[kRouteContext]
  const method: string = request.raw.method
  if (method === 'GET' || method === 'HEAD' || context.isNotFound) {
    afterBody(request, reply)
    return
  }
  const headers = request.raw.headers
  const contentType: string | undefined = headers['content-type']
  const length: string | undefined = headers['content-length']
  const chunked = headers['transfer-encoding'] !== undefined
  if (method === 'OPTIONS' || method === 'DELETE') {
    // a typed body is parsed even when declared empty (`content-length: 0`), so an empty JSON body is a 400 as for POST
    if (contentType === undefined || (!chunked && length === undefined)) {
      afterBody(request, reply)
      return
    }
  } else if (contentType === undefined && !chunked && (length === undefined || length === '0')) {
    afterBody(request, reply)
    return
  }
  context.contentTypeParsers.parse(context.instance, request, payload, contentType, context.bodyLimit, (err, body) => {
    if (err !== null) {
      reply.send(err)
      return
    }
    request.body = body
    afterBody(request, reply)
  })
}

function afterBody (request: any, reply: any): void {
  if (isAnswered(reply)) return
  const context: RouteContext = request[kRouteContext]
  if (context.preValidation === null) {
    afterPreValidation(null, request, reply)
  } else {
    runHooks(context.preValidation, request, reply, true, afterPreValidation)
  }
}

function afterPreValidation (err: Error | null, request: any, reply: any): void {
  if (err !== null) {
    reply.send(err)
    return
  }
  const context: RouteContext = request[kRouteContext]
  if (context.validation !== null) {
    const validationError = validateRequest(context, request)
    if (validationError !== undefined) {
      if (!context.attachValidation) {
        reply.send(validationError)
        return
      }
      request.validationError = validationError
    }
  }
  runPreHandler(request, reply)
}

/** preHandler hooks, then the handler: the last steps of a request (also of `reply.callNotFound()`). */
export function runPreHandler (request: any, reply: any): void {
  const context: RouteContext = request[kRouteContext]
  if (context.preHandler === null) {
    invokeHandler(request, reply)
  } else {
    runHooks(context.preHandler, request, reply, true, afterPreHandler)
  }
}

function afterPreHandler (err: Error | null, request: any, reply: any): void {
  if (err !== null) {
    reply.send(err)
    return
  }
  invokeHandler(request, reply)
}

/** Calls the handler with `this` = its instance; a returned value or promise is sent. */
function invokeHandler (request: any, reply: any): void {
  if (isAnswered(reply)) return
  const context: RouteContext = request[kRouteContext]
  let result: any
  try {
    result = context.handler.call(context.instance, request, reply)
  } catch (err) {
    reply.send(toError(err))
    return
  }
  if (result === undefined || result === reply) return
  if (result !== null && typeof result.then === 'function') {
    result.then((payload: unknown) => onHandlerResolved(reply, payload), (err: unknown) => onHandlerRejected(reply, err))
    return
  }
  reply.send(result)
}

function onHandlerResolved (reply: any, payload: unknown): void {
  // Fastify 4: a resolved value is sent; `undefined` without a reply sends an empty body rather than hang
  if (payload === reply || reply.sent) return
  reply.send(payload)
}

function onHandlerRejected (reply: any, err: unknown): void {
  if (reply.sent && reply.raw.headersSent) {
    // Fastify 4's words, which log alerts may match
    reply.log.error({ err }, 'Promise errored, but reply.sent = true was set')
    return
  }
  reply.send(toError(err))
}

function watchResponse (app: any, request: any, reply: any): void {
  let done = false
  const onFinished = (): void => {
    if (done) return
    done = true
    reply.raw.off('finish', onFinished)
    reply.raw.off('close', onFinished)
    if (app.requestLogging) request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
    const hooks = request[kRouteContext].onResponse
    if (hooks !== null) runHooks(hooks, request, reply, false, logHookError)
  }
  reply.raw.on('finish', onFinished)
  reply.raw.on('close', onFinished)
}

function watchAbort (request: any, reply: any): void {
  request.raw.once('close', () => {
    if (request.raw.aborted === true || (!reply.raw.writableEnded && reply.raw.destroyed)) {
      runHooks(request[kRouteContext].onRequestAbort, request, reply, false, logHookError)
    }
  })
}

const kSocketCurrent = Symbol('enclave.socketCurrentRequest')

/**
 * One 'timeout' listener per socket, not per request: a kept-alive socket serves many requests, and the listener
 * reads the one in flight. A socket that times out between requests has nothing to report.
 */
function watchTimeout (request: any, reply: any): void {
  const socket = request.raw.socket
  if (socket === undefined || socket === null) return
  if (socket[kSocketCurrent] === undefined) socket.on('timeout', onSocketTimeout)
  socket[kSocketCurrent] = reply
}

function onSocketTimeout (this: any): void {
  const reply = this[kSocketCurrent]
  if (reply === null || reply.raw.writableEnded) return
  this[kSocketCurrent] = null
  const request = reply.request
  runHooks(request[kRouteContext].onTimeout, request, reply, false, logHookError)
}

function logHookError (err: Error | null, request: any): void {
  if (err !== null) request.log.error({ err }, 'hook failed after the response')
}
