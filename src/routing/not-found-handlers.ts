/**
 * Not-found handlers. They are encapsulated by prefix: `setNotFoundHandler` in a context with prefix `/v1`
 * answers unmatched URLs under `/v1`, with that context's hooks; everything else falls back to the nearest
 * shorter prefix, down to the root's default handler. They live in a second router keyed by prefix, which the
 * request dispatch searches (`request/dispatch.ts`).
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kPluginContext, kApp } from '../core/symbols'
import { assertNotStarted } from '../core/start-guard'
import { inLoadingOrder } from '../encapsulation/loading-order'
import type { AnyFn } from '../core/types'
import type { AppState, Instance, RawHandler } from '../encapsulation/app-state'
import { NOT_FOUND_KEY, startNotFound } from '../request/dispatch'
import type { RequestState } from '../request/request'
import { logsRequest } from '../request/request-logging'
import type { ReplyState } from '../reply/reply'
import type { RouteRecord } from './route-model'

/** Logs the miss at info (as Fastify 4 does, unless request logging is off) and answers 404. */
function defaultNotFoundHandler (this: Instance, request: RequestState, reply: ReplyState): void {
  const message = `Route ${request.method}:${request.url} not found`
  if (logsRequest(this[kApp], request)) request.log.info(message)
  reply.code(404).send({ message, error: 'Not Found', statusCode: 404 })
}

/** The not-found router ignores trailing slashes, so `/v1` also covers `/v1/` (registering both would collide). */
function notFoundPaths (prefix: string): string[] {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
  return base === '' ? ['/', '/*'] : [base, base + '/*']
}

/** What `setNotFoundHandler(opts, handler)` takes, and the internal marker of the replaceable default. */
interface NotFoundOptions {
  preValidation?: unknown
  preHandler?: unknown
  errorHandler?: AnyFn
  isDefault?: boolean
}

/** The prefixes whose handler the user set (the default one may be replaced once, by a user's). */
const claimedPrefixes = new WeakMap<AppState, Set<string>>()

/** Refuses a second handler for one prefix at once, as Fastify does, though the handler is filed in loading order. */
function claim (app: AppState, prefix: string): void {
  let claimed = claimedPrefixes.get(app)
  if (claimed === undefined) claimedPrefixes.set(app, claimed = new Set())
  if (claimed.has(prefix)) throw new codes.FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET(prefix || '/')
  claimed.add(prefix)
}

function install (instance: Instance, handler: AnyFn, opts: NotFoundOptions): void {
  const app = instance[kApp]
  const plugin = instance[kPluginContext]
  const prefix = plugin.prefix
  const existing = app.notFoundByPrefix.get(prefix)
  if (existing !== undefined) {
    for (const path of notFoundPaths(prefix)) app.notFoundRouter.off(NOT_FOUND_KEY, path)
    app.notFoundRecords.splice(app.notFoundRecords.indexOf(existing), 1)
  }
  const record: RouteRecord = {
    options: {
      method: app.httpMethods.list().slice(),
      url: prefix + '/*',
      handler,
      config: { isDefault: opts.isDefault === true },
      preValidation: opts.preValidation,
      preHandler: opts.preHandler,
      errorHandler: opts.errorHandler
    },
    method: '*',
    url: prefix + '/*',
    reportedUrl: undefined,
    plugin,
    instance,
    compiled: null,
    isNotFound: true,
    autoHead: false
  }
  // filed under one method: a handler answers every method, those `addHttpMethod` adds later included
  for (const path of notFoundPaths(prefix)) app.notFoundRouter.on(NOT_FOUND_KEY, path, noop, record)
  app.notFoundByPrefix.set(prefix, record)
  app.notFoundRecords.push(record)
}

function noop (): void {}

/** Files the root's default 404 handler, first in loading order (a user's handler for a prefix replaces it). */
export function installDefaultNotFound (root: Instance): void {
  inLoadingOrder(root, () => install(root, defaultNotFoundHandler, { isDefault: true }))
}

export const notFoundInstanceMethods = {
  setNotFoundHandler (this: Instance, given?: NotFoundOptions | AnyFn | null, handler?: AnyFn): Instance {
    assertNotStarted(this, 'Cannot call "setNotFoundHandler"!')
    let opts: NotFoundOptions = {}
    if (typeof given === 'function') handler = given
    else if (given !== undefined && given !== null) opts = given
    // without a handler, the default one (which a later call may still replace, as in Fastify)
    const replaceable = handler === undefined
    if (handler === undefined) handler = defaultNotFoundHandler
    const where = this[kPluginContext].prefix || '/'
    if (typeof handler !== 'function') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('handler', 'setNotFoundHandler', where, 'must be a function')
    if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new codes.FST_ERR_ROUTE_HANDLER_NOT_FN('setNotFoundHandler', where)
    if (!replaceable) claim(this[kApp], this[kPluginContext].prefix)
    const notFound = handler
    inLoadingOrder(this, () => install(this, notFound, { ...opts, isDefault: replaceable }))
    return this
  },

  /** Deprecated (FSTDEP014): the raw `(req, res)` function unmatched requests go to; by default, the 404 handlers. */
  getDefaultRoute (this: Instance): RawHandler {
    warnDeprecated('defaultRoute')
    const app: AppState = this[kApp]
    return app.defaultRoute ?? ((req, res) => startNotFound(app, req, res))
  },

  /** Deprecated (FSTDEP014): application-wide, bypasses every not-found handler and hook. */
  setDefaultRoute (this: Instance, defaultRoute: unknown): void {
    if (typeof defaultRoute !== 'function') throw new codes.FST_ERR_DEFAULT_ROUTE_INVALID_TYPE()
    warnDeprecated('defaultRoute')
    this[kApp].defaultRoute = defaultRoute as RawHandler
  }
}
