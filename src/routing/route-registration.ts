/**
 * Route registration. `route()` checks its options at once (a bad option or a duplicate throws right there),
 * applies the context prefix and the `onRoute` hooks, and adds the route to the router (find-my-way). The
 * per-request pipeline of every route is compiled when the application becomes ready (`compile-route.ts`).
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kPluginContext, kApp } from '../core/symbols'
import { asRouterMethod } from '../core/http-methods'
import { assertNotStarted } from '../core/start-guard'
import type { AnyFn, LooseObject } from '../core/types'
import type { AppState, Instance } from '../encapsulation/app-state'
import type { PluginContext } from '../encapsulation/plugin-context'
import type { RouteOptions, RouteRecord } from './route-model'
import { checkHookOptions, normalizeMethods, prefixedPaths, validateRouteOptions } from './route-checks'
import { derivesConstraints, routeConstraints, storedPath } from './router'
import { prettyPrintOptions } from './route-printing'
import { isUnknownLogLevel } from '../request/request-identity'

/** `instance.route(options)` */
export function route (this: Instance, options: unknown): Instance {
  assertNotStarted(this, 'Cannot add route!')
  const app = this[kApp]
  // as in Fastify, what is not an object has no method
  const given: LooseObject = options !== null && typeof options === 'object' && !Array.isArray(options) ? options : {}
  if (given.version !== undefined) {
    warnDeprecated('routeVersionOption')
  }
  const methods = normalizeMethods(given.method, app.httpMethods)
  // a missing url is an empty path, refused by the router once the other options were checked (as in Fastify)
  const url = given.url || given.path || ''
  if (typeof url !== 'string') throw new codes.FST_ERR_INVALID_URL(typeof url)
  validateRouteOptions(given, methods, url, app.httpMethods)

  const plugin = this[kPluginContext]
  const headOnly = methods.length === 1 && methods[0] === 'HEAD'
  const { ignoreTrailingSlash, ignoreDuplicateSlashes } = app.options.routerOptions
  const paths = prefixedPaths(plugin.prefix, url, { trailing: given.prefixTrailingSlash, ignoreTrailingSlash, ignoreDuplicateSlashes, headOnly })
  const [fullPath, slashVariant] = paths
  // Fastify's `routePath` of the bare-prefix variant of a prefixed '/' route is ''
  const bare = url === '/' && plugin.prefix !== '' && !headOnly && given.prefixTrailingSlash !== 'slash'
  const routeOptions: RouteOptions = {
    ...given,
    method: Array.isArray(given.method) ? methods : methods[0],
    url: fullPath,
    path: fullPath,
    routePath: bare ? '' : url,
    prefix: plugin.prefix,
    handler: given.handler,
    attachValidation: given.attachValidation ?? false,
    // the plugin's `logLevel` register option, set before onRoute hooks so they see it; '' means none (as Fastify)
    logLevel: given.logLevel ?? plugin.logLevel ?? ''
  }
  if (app.level.logLevelCheckedAtRegistration && isUnknownLogLevel(app.logger, routeOptions.logLevel)) {
    throw new codes.FST_ERR_ROUTE_LOG_LEVEL_INVALID(String(routeOptions.method), fullPath, routeOptions.logLevel)
  }
  // the automatic HEAD route starts from the options as given, before onRoute hooks changed them (as Fastify)
  const headTemplate = copyOptions(routeOptions)
  const slashHeadTemplate = slashVariant === undefined ? undefined : atSlashVariant(copyOptions(routeOptions), slashVariant)
  for (const hook of plugin.hooks.onRoute) hook.call(this, routeOptions)
  register(app, this, plugin, routeOptions, headTemplate)
  if (slashHeadTemplate !== undefined) {
    // The '/prefix/' variant of a prefixed '/' route (prefixTrailingSlash 'both'): as in Fastify 4, registered with
    // the options onRoute hooks left on the first variant and not shown to them again (plugins such as swagger see
    // the route once); its automatic HEAD route does go through onRoute.
    // Fastify 5 reports it as the route it stands for (`request.routeOptions.url` is the prefix), Fastify 4 as its path
    const reportedUrl = app.level.slashVariantReportsPrefix ? fullPath : undefined
    register(app, this, plugin, atSlashVariant(routeOptions, slashHeadTemplate.url), slashHeadTemplate, reportedUrl)
  }
  return this
}

/** A copy that onRoute hooks may change without changing the original, `config` included. */
function copyOptions (options: RouteOptions): RouteOptions {
  return options.config === undefined ? { ...options } : { ...options, config: { ...options.config } }
}

function atSlashVariant (options: RouteOptions, url: string): RouteOptions {
  return { ...options, url, path: url, routePath: '/' }
}

/** Adds the route, as onRoute hooks left it, for each of its methods, and its automatic HEAD route. */
function register (app: AppState, instance: Instance, plugin: PluginContext, options: RouteOptions, headTemplate: RouteOptions, reportedUrl?: string): void {
  // onRoute hooks may rewrite anything; what they leave is what gets registered
  const methods = normalizeMethods(options.method, app.httpMethods)
  validateRouteOptions(options, methods, options.url, app.httpMethods)
  checkHookOptions(options)
  for (const method of methods) addToRouter(app, instance, plugin, options, method, false, reportedUrl)
  if (methods.includes('GET')) addHeadRoute(app, instance, plugin, headTemplate, options, reportedUrl)
}

/** The HEAD route exposed for a GET route: a route of its own, so `onRoute` hooks (swagger, helmet…) see it. */
function addHeadRoute (app: AppState, instance: Instance, plugin: PluginContext, template: RouteOptions, getOptions: RouteOptions, reportedUrl?: string): void {
  const exposeHead = getOptions.exposeHeadRoute ?? app.options.exposeHeadRoutes
  if (!exposeHead || app.router.hasRoute('HEAD', storedPath(app.router, getOptions.url), routeConstraints(getOptions))) return
  const headOptions: RouteOptions = { ...template, method: 'HEAD', url: getOptions.url, path: getOptions.url }
  for (const hook of plugin.hooks.onRoute) hook.call(instance, headOptions)
  validateRouteOptions(headOptions, ['HEAD'], headOptions.url, app.httpMethods)
  checkHookOptions(headOptions, true)
  addToRouter(app, instance, plugin, headOptions, 'HEAD', true, reportedUrl)
}

function noopHandler (): void {}

function addToRouter (app: AppState, instance: Instance, plugin: PluginContext, options: RouteOptions, method: string, autoHead: boolean, reportedUrl?: string): void {
  const url = options.url
  const record: RouteRecord = { options, method, url, reportedUrl, plugin, instance, compiled: null, isNotFound: false, autoHead }
  const constraints = routeConstraints(options)
  // the router's (or a strategy's) own error for a bad value, as Fastify lets it through
  app.router.constrainer.validateConstraints(constraints)
  if (method === 'HEAD' && !autoHead) {
    // an explicit HEAD replaces the automatic one of the GET with the same url and constraints
    const existing = app.router.findRoute('HEAD', storedPath(app.router, url), constraints)
    if (existing !== null && (existing.store as RouteRecord).autoHead) {
      app.router.off('HEAD', url, constraints)
      app.routes.splice(app.routes.indexOf(existing.store), 1)
    }
  }
  try {
    app.router.on(asRouterMethod(method), url, { constraints }, noopHandler, record)
  } catch (err) {
    const message = (err as Error).message
    if (/already declared/.test(message)) throw new codes.FST_ERR_DUPLICATED_ROUTE(method, url)
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('url', method, url, message)
  }
  // derive per request once any strategy is in use: a route's, or a mustMatchWhenDerived one from the start
  if (!app.hasConstraints && derivesConstraints(app.router)) app.hasConstraints = true
  app.routes.push(record)
}

/**
 * Shortcut methods: `(path, handler)`, `(path, options, handler)` or `(path, optionsWithHandler)`. With a handler
 * as third argument, the options must be a plain object (`undefined` and `null` included, as in Fastify).
 */
export function shortcut (methods: string | readonly string[]) {
  return function (this: Instance, url: string, options?: unknown, handler?: AnyFn): Instance {
    if (typeof url !== 'string') throw new codes.FST_ERR_INVALID_URL(typeof url)
    let given: Record<string, unknown>
    if (handler === undefined && typeof options === 'function') {
      handler = options as AnyFn
      given = {}
    } else if (options === undefined || options === null) {
      if (typeof handler === 'function') throw new codes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(String(methods), url)
      given = {}
    } else if (Object.prototype.toString.call(options) !== '[object Object]') {
      // any object but an array, a function or a boxed primitive, as Fastify tells them apart
      throw new codes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(String(methods), url)
    } else {
      given = options as Record<string, unknown>
    }
    if (typeof handler === 'function' && given.handler !== undefined) {
      if (typeof given.handler === 'function') throw new codes.FST_ERR_ROUTE_DUPLICATED_HANDLER(String(methods), url)
      throw new codes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(methods), url)
    }
    // the route function itself, not `this.route`: a plugin may shadow `route` with `decorate`, as in Fastify
    return route.call(this, { ...given, method: methods, url, handler: handler ?? given.handler })
  }
}

interface RouteQuery { method?: unknown, url?: string, constraints?: Record<string, unknown> }

function lookUp (app: AppState, opts: RouteQuery) {
  const method = typeof opts.method === 'string' ? opts.method.toUpperCase() : ''
  const found = app.router.find(method as never, opts.url ?? '', opts.constraints)
  // a url the router cannot look up (no path, a bad encoding, a parameter too long) comes back as the handler that
  // answers the failure, with no route behind it
  return found === null || found.store === null ? null : found
}

export const routeInstanceMethods = {
  route,
  get: shortcut('GET'),
  head: shortcut('HEAD'),
  post: shortcut('POST'),
  put: shortcut('PUT'),
  delete: shortcut('DELETE'),
  options: shortcut('OPTIONS'),
  patch: shortcut('PATCH'),
  /** Every method the application supports when it is called (`addHttpMethod` ones included), as in Fastify 5. */
  all (this: Instance, url: string, options?: unknown, handler?: AnyFn): Instance {
    return shortcut(this[kApp].httpMethods.list()).call(this, url, options, handler)
  },
  /**
   * Whether a route answers this method and url: a lookup as a request makes at the Fastify 4 level, whether that
   * route pattern was registered at the Fastify 5 level (`hasRouteByPattern`).
   */
  hasRoute (this: Instance, opts: RouteQuery): boolean {
    const app = this[kApp]
    if (!app.level.hasRouteByPattern) return lookUp(app, opts) !== null
    const method = typeof opts.method === 'string' ? opts.method.toUpperCase() : ''
    return app.httpMethods.has(method) && app.router.hasRoute(method as never, opts.url ?? '', opts.constraints ?? {})
  },
  /** The route a request with this method and url would reach: its handler, params and searchParams, or null. */
  findRoute (this: Instance, opts: RouteQuery) {
    const found = lookUp(this[kApp], opts)
    if (found === null) return null
    // a fresh object each time: nothing the caller does to it reaches the router
    return { handler: (found.store as RouteRecord).options.handler, params: { ...found.params }, searchParams: { ...found.searchParams } }
  },
  addConstraintStrategy (this: Instance, strategy: { name: string }): Instance {
    assertNotStarted(this, 'Cannot add constraint strategy!')
    const app = this[kApp]
    app.router.addConstraintStrategy(strategy as never)
    // a strategy may have to match even for routes that declare no constraint (mustMatchWhenDerived)
    app.hasConstraints = true
    return this
  },
  hasConstraintStrategy (this: Instance, name: string): boolean {
    return this[kApp].router.hasConstraintStrategy(name)
  },
  printRoutes (this: Instance, opts: Record<string, unknown> = {}): string {
    return this[kApp].router.prettyPrint(prettyPrintOptions(opts))
  }
}
