/**
 * Not-found handling. Handlers are encapsulated by prefix: `setNotFoundHandler` in a context with prefix `/v1`
 * answers unmatched URLs under `/v1`, with that context's hooks; everything else falls back to the nearest
 * shorter prefix, down to the root's default handler. They live in a second router keyed by prefix.
 */
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { kContext, kApp, kRouteContext } from './symbols'
import { supportedMethods, type RouteRecord } from './route'
import { runPreHandler, startNotFound } from './lifecycle'
import type { AnyFn, PluginContext } from './context'

/** Logs the miss at info (as Fastify 4 does, unless request logging is off) and answers 404. */
function defaultNotFoundHandler (this: any, request: any, reply: any): void {
  const message = `Route ${request.method}:${request.url} not found`
  if (this[kApp].requestLogging) request.log.info(message)
  reply.code(404).send({ message, error: 'Not Found', statusCode: 404 })
}

/** The not-found router ignores trailing slashes, so `/v1` also covers `/v1/` (registering both would collide). */
function notFoundPaths (prefix: string): string[] {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
  return base === '' ? ['/', '/*'] : [base, base + '/*']
}

function install (app: any, instance: any, plugin: PluginContext, handler: AnyFn, hooks: Record<string, unknown>): void {
  const prefix = plugin.prefix
  const existing: RouteRecord | undefined = app.notFoundByPrefix.get(prefix)
  if (existing !== undefined) {
    if (!existing.options.config?.isDefault) throw new codes.FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET(prefix || '/')
    for (const path of notFoundPaths(prefix)) app.notFoundRouter.off(supportedMethods, path)
    app.notFoundRecords.splice(app.notFoundRecords.indexOf(existing), 1)
  }
  const record: RouteRecord = {
    options: { method: supportedMethods, url: prefix + '/*', handler, config: { isDefault: hooks.isDefault === true }, preValidation: hooks.preValidation, preHandler: hooks.preHandler },
    method: '*',
    url: prefix + '/*',
    plugin,
    instance,
    context: null,
    isNotFound: true,
    autoHead: false
  }
  for (const path of notFoundPaths(prefix)) app.notFoundRouter.on(supportedMethods, path, noop, record)
  app.notFoundByPrefix.set(prefix, record)
  app.notFoundRecords.push(record)
}

function noop (): void {}

/** Installs the root's default 404 handler (replaceable once per prefix). */
export function installDefaultNotFound (root: any): void {
  install(root[kApp], root, root[kContext], defaultNotFoundHandler, { isDefault: true })
}

export const notFoundInstanceMethods = {
  setNotFoundHandler (this: any, opts?: any, handler?: AnyFn) {
    const app = this[kApp]
    if (app.started) throw new codes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot call "setNotFoundHandler"!')
    if (typeof opts === 'function') {
      handler = opts
      opts = {}
    }
    if (handler === undefined) handler = defaultNotFoundHandler
    if (typeof handler !== 'function') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('handler', 'setNotFoundHandler', this[kContext].prefix || '/', 'must be a function')
    install(app, this, this[kContext], handler, opts ?? {})
    return this
  },

  /** Deprecated (FSTDEP014): the raw `(req, res)` function unmatched requests go to; by default, the 404 handlers. */
  getDefaultRoute (this: any): (req: any, res: any) => void {
    warnDeprecated('defaultRoute')
    const app = this[kApp]
    return app.defaultRoute ?? ((req: any, res: any) => startNotFound(app, req, res))
  },

  /** Deprecated (FSTDEP014): application-wide, bypasses every not-found handler and hook. */
  setDefaultRoute (this: any, defaultRoute: unknown): void {
    if (typeof defaultRoute !== 'function') throw new codes.FST_ERR_DEFAULT_ROUTE_INVALID_TYPE()
    warnDeprecated('defaultRoute')
    this[kApp].defaultRoute = defaultRoute
  }
}

/** The not-found route record for a method and URL (never null: the root default matches everything), its params and query. */
export function findNotFound (app: any, method: string, url: string): { record: RouteRecord, params: any, query: any } {
  const found = app.notFoundRouter.find(supportedMethods.includes(method) ? method : 'GET', url)
  if (found === null || found.store === null || found.store === undefined) {
    const record = app.notFoundByPrefix.get('')
    return { record, params: {}, query: {} }
  }
  // `params['*']` is the rest of the URL after the handler's prefix, as in Fastify
  return { record: found.store, params: found.params, query: found.searchParams }
}

/** `reply.callNotFound()`: answers with the not-found handler of the request's URL (its preHandler hooks only). */
export function callNotFound (request: any, reply: any): void {
  const app = request[kRouteContext].instance[kApp]
  const { record } = findNotFound(app, request.method, request.url)
  const context = record.context!
  request[kRouteContext] = context
  reply[kRouteContext] = context
  runPreHandler(request, reply)
}
