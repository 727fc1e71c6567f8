/**
 * Dispatch: the server's request listener. It answers 503 while closing, applies `rewriteUrl`, finds the route
 * (deriving constraints first when any strategy is in use) or the not-found handler of the URL's context, and starts
 * the request pipeline. Errors found before any route was chosen are answered here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { codes, type EnclaveError } from '../core/errors'
import { failureOf, toError } from '../core/to-error'
import { earlyErrorBody, defaultErrorBody, statusText } from '../core/error-body'
import { asRouterMethod, isNodeMethod } from '../core/http-methods'
import { kApp, kRoute, kReplySendError } from '../core/symbols'
import type { AnyFn } from '../core/types'
import type { AppState, RawHandler } from '../encapsulation/app-state'
import type { RouteRecord } from '../routing/route-model'
import { createLoggedReply, runPreHandler, startRequest } from './pipeline'
import type { RequestState } from './request'
import type { ReplyState } from '../reply/reply'

type RawRequest = IncomingMessage & { originalUrl?: string }

/** The one method the not-found router files its handlers under: a not-found handler answers every method. */
export const NOT_FOUND_KEY = 'GET'

const closingBody = earlyErrorBody(503, statusText(503))
const unsupportedVersionBody = earlyErrorBody(505, statusText(505))

/**
 * The HTTP versions the server answers, as `req.httpVersion` spells them: 1.0 and 1.1 on an HTTP/1 server; 2.0 on an
 * HTTP/2 one, and 1.x too with `allowHTTP1`. Null (answer every version) with a `serverFactory`, whose server may
 * speak anything, as Fastify does. The string is what is checked, as in Fastify: requests emitted by plugins (such as
 * @fastify/websocket's injectWS upgrade) carry only `httpVersion`. Compared rather than looked up in a set: the
 * parser makes a new string per request, which a set would hash each time.
 */
function acceptedVersions (app: AppState): ((version: string) => boolean) | null {
  if (app.options.serverFactory !== undefined) return null
  if (!app.options.http2) return isHttp1
  const https = app.options.https as { allowHTTP1?: unknown } | null | undefined
  return https?.allowHTTP1 === true ? (version) => version === '2.0' || isHttp1(version) : (version) => version === '2.0'
}

function isHttp1 (version: string): boolean {
  return version === '1.1' || version === '1.0'
}

/** Builds the `(req, res)` listener of the HTTP server for one application. */
export function createRequestHandler (app: AppState): RawHandler {
  const router = app.router
  const rewriteUrl = app.options.rewriteUrl
  const versions = acceptedVersions(app)

  return function handleRequest (req: RawRequest, res: ServerResponse): void {
    if (versions !== null && !versions(req.httpVersion)) {
      // HTTP/0.9 request lines, HTTP/2.0 sent to an HTTP/1 server: answered as Fastify does, then the socket closes
      unsupportedVersion(app, res)
      return
    }
    if (app.closing) {
      // HTTP/2 has no Connection header (setting one throws): its session is closed by the server's close()
      const http1 = req.httpVersion !== '2.0'
      if (app.options.return503OnClosing) {
        res.writeHead(503, http1
          ? { 'content-type': 'application/json', 'content-length': String(closingBody.length), connection: 'close' }
          : { 'content-type': 'application/json', 'content-length': String(closingBody.length) })
        res.end(closingBody)
        app.logger.info({ res }, 'request aborted - refusing to accept new requests as server is closing')
        return
      }
      if (http1) res.setHeader('connection', 'close')
    }
    if (rewriteUrl !== undefined && !rewrite(app, rewriteUrl, req, res)) return
    if (!app.hasConstraints) {
      dispatch(app, req, res, router.find(asRouterMethod(req.method as string), req.url as string))
      return
    }
    const constrainer = router.constrainer
    if (constrainer.asyncStrategiesInUse.size === 0) {
      dispatch(app, req, res, router.find(asRouterMethod(req.method as string), req.url as string, constrainer.deriveConstraints(req)))
      return
    }
    // an asynchronous strategy (deriveConstraint(req, ctx, done)): route once every value is known
    constrainer.deriveConstraints(req, undefined, (err, constraints) => {
      if (err !== null && err !== undefined) {
        const asyncError = new codes.FST_ERR_ASYNC_CONSTRAINT()
        asyncError.cause = err
        frameworkError(app, req, res, asyncError)
        return
      }
      dispatch(app, req, res, router.find(asRouterMethod(req.method as string), req.url as string, constraints))
    })
  }
}

function unsupportedVersion (app: AppState, res: ServerResponse): void {
  res.writeHead(505, { 'content-type': 'application/json', 'content-length': unsupportedVersionBody.length, connection: 'close' })
  res.end(unsupportedVersionBody)
  app.logger.info({ res }, 'request aborted - invalid HTTP version')
}

/**
 * Applies the `rewriteUrl` option. A non-string result is FST_ERR_ROUTE_REWRITE_NOT_STR: logged, and the connection
 * is reset, as in Fastify (failing closed: a rewrite that guards a URL must not let it through when it breaks); the
 * request is not routed. A throw is answered as a framework error (500). False when the request ends here.
 */
function rewrite (app: AppState, rewriteUrl: (req: RawRequest) => unknown, req: RawRequest, res: ServerResponse): boolean {
  req.originalUrl = req.url
  let url: unknown
  try {
    url = rewriteUrl.call(app.root, req)
  } catch (err) {
    frameworkError(app, req, res, toError(err))
    return false
  }
  if (typeof url === 'string') {
    req.url = url
    return true
  }
  const err = new codes.FST_ERR_ROUTE_REWRITE_NOT_STR(req.url, typeof url)
  app.logger.error({ err }, err.message)
  req.destroy(err)
  return false
}

interface Found {
  store: RouteRecord | null
  params: Record<string, string | undefined>
  searchParams: Record<string, string>
  /** find-my-way's: the route's (unused) or, without a store, the failure handler to call with (req, res). */
  handler: AnyFn
}

/**
 * The application's answers to a lookup that cannot go on (the router calls them with the path): a bad
 * percent-encoding is FST_ERR_BAD_URL (400); a parameter longer than `maxParamLength` is FST_ERR_MAX_PARAM_LENGTH
 * (414) where the level answers it, else the lookup finds nothing. Both go through `frameworkErrors` when given.
 */
export function lookupFailures (app: AppState): { onBadUrl: PathFailure, onMaxParamLength: PathFailure | undefined } {
  return {
    onBadUrl: (path, req, res) => frameworkError(app, req, res, new codes.FST_ERR_BAD_URL(path)),
    onMaxParamLength: app.level.longParamAnswered
      ? (path, req, res) => frameworkError(app, req, res, new codes.FST_ERR_MAX_PARAM_LENGTH(path))
      : undefined
  }
}

type PathFailure = (path: string, req: IncomingMessage, res: ServerResponse) => void

/** Starts the found route, or the not-found handler of the URL's context. */
function dispatch (app: AppState, req: RawRequest, res: ServerResponse, found: Found | null): void {
  if (found !== null) {
    if (found.store !== null) startRequest(app, found.store.compiled!, req, res, found.params, found.searchParams)
    // the lookup could not go on (a bad URL, a long parameter): the router's handler for that answers
    else found.handler(req, res)
    return
  }
  if (!isNodeMethod(req.method)) unknownMethod(app, req, res)
  else if (app.defaultRoute === null) startNotFound(app, req, res)
  else runDefaultRoute(app, app.defaultRoute, req, res)
}

/**
 * A method no route can have (HTTP/2 lets any token through; Node's HTTP/1 parser refuses them earlier): 404
 * FST_ERR_NOT_FOUND through the root's error handler, without the not-found handlers, which are routes of known
 * methods (as in Fastify).
 */
function unknownMethod (app: AppState, req: IncomingMessage, res: ServerResponse): void {
  const reply = createLoggedReply(app, app.notFoundByPrefix.get('')!.compiled!, req, res, {}, {})
  if (reply === null) return
  reply.code(404).send(new codes.FST_ERR_NOT_FOUND())
}

/** Starts the not-found handler of the URL's context: what an unmatched request gets (`getDefaultRoute()`). */
export function startNotFound (app: AppState, req: IncomingMessage, res: ServerResponse): void {
  const found = app.notFoundRouter.find(NOT_FOUND_KEY, req.url as string) as Found | null
  if (found !== null && found.store === null) {
    // a bad URL no route's method saw: answered as such where the level has the not-found router do it
    found.handler(req, res)
    return
  }
  const { record, params, query } = notFoundOf(app, found)
  startRequest(app, record.compiled!, req, res, params, query)
}

type NotFound = { record: RouteRecord, params: Record<string, string | undefined>, query: Record<string, string> }

/** The not-found route record for a URL (never null: the root default matches everything), its params and query. */
export function findNotFound (app: AppState, url: string): NotFound {
  return notFoundOf(app, app.notFoundRouter.find(NOT_FOUND_KEY, url) as Found | null)
}

function notFoundOf (app: AppState, found: Found | null): NotFound {
  if (found === null || found.store === null || found.store === undefined) {
    return { record: app.notFoundByPrefix.get('')!, params: {}, query: {} }
  }
  // `params['*']` is the rest of the URL after the handler's prefix, as in Fastify
  return { record: found.store, params: found.params, query: found.searchParams }
}

/** The user's `setDefaultRoute` function; a throw is answered 500 rather than left to crash the process. */
function runDefaultRoute (app: AppState, defaultRoute: RawHandler, req: IncomingMessage, res: ServerResponse): void {
  try {
    defaultRoute(req, res)
  } catch (err) {
    app.logger.error({ err }, 'the default route threw')
    if (res.headersSent) {
      res.destroy()
      return
    }
    const body = defaultErrorBody({ statusCode: 500, error: statusText(500), message: statusText(500) })
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }
}

/**
 * Fastify's bodies: the bad-URL and long-parameter ones carry their code (the latter named 'Bad Request', as
 * Fastify 5 names it), the others do not.
 */
function defaultFrameworkErrorBody (statusCode: number, err: Partial<EnclaveError> & Error): string {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return JSON.stringify({ error: statusText(400), code: err.code, message: err.message, statusCode })
  return earlyErrorBody(statusCode, err.message, err.code === 'FST_ERR_BAD_URL' ? err.code : undefined)
}

/**
 * An error found before any route was chosen (a bad URL, a failing asynchronous constraint, a throwing `rewriteUrl`):
 * answered by the `frameworkErrors` option when given (with a request and reply of the URL's not-found context),
 * else with Fastify 4's fixed JSON body, written directly: no route was chosen, so no route's hooks or error
 * handler apply.
 */
function frameworkError (app: AppState, req: IncomingMessage, res: ServerResponse, err: Partial<EnclaveError> & Error): void {
  const handler = app.options.frameworkErrors
  if (handler === undefined) {
    const statusCode = err.statusCode ?? 500
    if (statusCode >= 500) app.logger.error({ err, req }, err.message)
    const body = defaultFrameworkErrorBody(statusCode, err)
    res.writeHead(statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
    return
  }
  const { record, query } = findNotFound(app, req.url as string)
  const reply = createLoggedReply(app, record.compiled!, req, res, {}, query)
  if (reply === null) return
  try {
    handler(err, reply.request, reply)
  } catch (thrown) {
    reply[kReplySendError](failureOf(thrown))
  }
}

/** `reply.callNotFound()`: answers with the not-found handler of the request's URL (its preHandler hooks only). */
export function callNotFound (request: RequestState, reply: ReplyState): void {
  const app = request[kRoute].instance[kApp]
  const route = findNotFound(app, request.url).record.compiled!
  request[kRoute] = route
  reply[kRoute] = route
  runPreHandler(request, reply)
}
