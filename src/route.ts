/**
 * Route registration. `route()` validates its options at once (a bad option or a duplicate throws right there),
 * applies the context prefix and the `onRoute` hooks, and adds the route to the router (find-my-way). The
 * per-request pipeline of every route is compiled into a `RouteContext` when the application becomes ready.
 */
import FindMyWay from 'find-my-way'
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { kContext, kApp } from './symbols'
import { lifecycleHooks, routeHooks, type AnyFn, type PluginContext, type RouteContext, type RouteOptions } from './context'
import { collectProps } from './decorate'
import { compileRouteValidation } from './validation'
import { compileRouteSerializers } from './serialization'
import type { NormalizedOptions } from './options'
import { resolveGenReqId, resolveRequestLogger, type RequestIdentityDefaults } from './request-identity'
import { buildPrettyMeta, prettyPrintOptions } from './route-printing'

export const supportedMethods = [
  'DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE',
  'LOCK', 'UNLOCK', 'TRACE', 'SEARCH'
]
const supported = new Set(supportedMethods)
const bodylessMethods = new Set(['GET', 'HEAD'])

/** One registered route: what the router stores. `context` is filled in at ready. */
export interface RouteRecord {
  options: RouteOptions
  method: string
  url: string
  plugin: PluginContext
  instance: any
  context: RouteContext | null
  isNotFound: boolean
  autoHead: boolean
}

export function createRouter (options: NormalizedOptions, onBadUrl: (path: string, req: any, res: any) => void): any {
  return FindMyWay({
    caseSensitive: options.caseSensitive,
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
    maxParamLength: options.maxParamLength,
    allowUnsafeRegex: options.allowUnsafeRegex,
    useSemicolonDelimiter: options.useSemicolonDelimiter,
    querystringParser: options.querystringParser,
    constraints: constraintStrategies(options),
    onBadUrl,
    buildPrettyMeta
  } as any)
}

/**
 * The custom strategies of the router: the `constraints` option, plus the deprecated `versioning` option turned into
 * the `version` strategy. A derived version must match (`mustMatchWhenDerived`), as with the built-in one.
 */
function constraintStrategies (options: NormalizedOptions): Record<string, unknown> | undefined {
  const versioning = options.versioning
  if (versioning === undefined) return options.constraints
  const version = {
    name: 'version',
    mustMatchWhenDerived: true,
    storage: versioning.storage,
    // two parameters: find-my-way treats a three-parameter deriveConstraint as asynchronous
    deriveConstraint: (req: any, ctx: unknown) => versioning.deriveVersion(req, ctx),
    validate (value: unknown) {
      if (typeof value !== 'string') throw new TypeError('Version constraint should be a string')
    }
  }
  return { ...options.constraints, version }
}

function noopHandler (): void {}

function checkHookOption (name: string, value: unknown, method: string, url: string): void {
  const list = Array.isArray(value) ? value : [value]
  for (const fn of list) {
    if (typeof fn !== 'function') throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, `${Object.prototype.toString.call(fn)} in route ${method}:${url}`)
  }
}

/** Throws at registration for anything that would otherwise fail (or silently misbehave) at request time. */
function validateRouteOptions (opts: Record<string, any>, methods: string[], url: string): void {
  const label = methods.join(',')
  if (typeof opts.handler !== 'function') {
    if (opts.handler === undefined) throw new codes.FST_ERR_ROUTE_MISSING_HANDLER(label, url)
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('handler', label, url, 'must be a function')
  }
  if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new codes.FST_ERR_ROUTE_HANDLER_NOT_FN(label, url)
  if (opts.bodyLimit !== undefined && !(Number.isInteger(opts.bodyLimit) && opts.bodyLimit > 0)) throw new codes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(opts.bodyLimit)
  if (opts.schema !== undefined && (opts.schema === null || typeof opts.schema !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('schema', label, url, 'must be an object')
  if (opts.config !== undefined && (opts.config === null || typeof opts.config !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('config', label, url, 'must be an object')
  if (opts.attachValidation !== undefined && typeof opts.attachValidation !== 'boolean') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('attachValidation', label, url, 'must be a boolean')
  if (opts.logLevel !== undefined && typeof opts.logLevel !== 'string') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logLevel', label, url, 'must be a string')
  for (const name of ['validatorCompiler', 'serializerCompiler', 'schemaErrorFormatter']) {
    if (opts[name] !== undefined && typeof opts[name] !== 'function') throw new codes.FST_ERR_ROUTE_OPTION_INVALID(name, label, url, 'must be a function')
  }
  for (const name of lifecycleHooks) {
    if (opts[name] !== undefined) checkHookOption(name, opts[name], label, url)
  }
  if (opts.schema?.body !== undefined) {
    for (const method of methods) {
      if (bodylessMethods.has(method)) throw new codes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, url)
    }
  }
}

function normalizeMethods (method: unknown): string[] {
  const list = Array.isArray(method) ? method : [method]
  if (list.length === 0) throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
  return list.map((m) => {
    if (typeof m !== 'string') throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
    const upper = m.toUpperCase()
    if (!supported.has(upper)) throw new codes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(m)
    return upper
  })
}

/** The full paths a route answers on once its context prefix is applied (`prefixTrailingSlash`). */
function prefixedPaths (prefix: string, path: string, trailing: unknown, ignoreTrailingSlash: boolean): string[] {
  if (prefix === '') return [path === '' ? '/' : path]
  if (path === '') return [prefix]
  if (path === '/') {
    // a prefix given with its trailing slash ('/p/') must not produce '/p//'
    const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
    if (base === '') return ['/']
    if (trailing === 'slash') return [base + '/']
    if (trailing === 'no-slash' || ignoreTrailingSlash) return [base]
    return [base, base + '/']
  }
  if (prefix.endsWith('/') && path.startsWith('/')) return [prefix + path.slice(1)]
  return [prefix + path]
}

/**
 * A route's router constraints: its `constraints`, plus Fastify 4's deprecated route option `version: '1.2.0'`
 * (the `version` constraint). onRoute hooks see the options as given, as in Fastify.
 */
export function routeConstraints (options: Record<string, any>): Record<string, unknown> {
  if (options.version === undefined) return options.constraints ?? {}
  return { ...options.constraints, version: options.version }
}

/** `instance.route(options)` */
export function route (this: any, options: unknown): any {
  const app = this[kApp]
  if (app.started) throw new codes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add route!')
  const given = options as Record<string, any>
  if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new codes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ('?', '?')
  if (given.version !== undefined) {
    warnDeprecated('routeVersionOption')
  }
  const url = given.url ?? given.path
  if (typeof url !== 'string') throw new codes.FST_ERR_INVALID_URL(typeof url)
  const methods = normalizeMethods(given.method)
  validateRouteOptions(given, methods, url)

  const context: PluginContext = this[kContext]
  const [fullPath, slashVariant] = prefixedPaths(context.prefix, url, given.prefixTrailingSlash, app.options.ignoreTrailingSlash)
  const routeOptions: RouteOptions = {
    ...given,
    method: Array.isArray(given.method) ? methods : methods[0],
    url: fullPath,
    path: fullPath,
    // Fastify's `routePath` of the slash-less variant of a prefixed '/' route is ''
    routePath: url === '/' && !fullPath.endsWith('/') ? '' : url,
    prefix: context.prefix,
    handler: given.handler,
    attachValidation: given.attachValidation ?? false,
    // the plugin's `logLevel` register option, set before onRoute hooks so they see it; '' means none (as Fastify)
    logLevel: given.logLevel ?? context.logLevel ?? ''
  }
  // the automatic HEAD route starts from the options as given, before onRoute hooks changed them (as Fastify)
  const headTemplate = copyOptions(routeOptions)
  const slashHeadTemplate = slashVariant === undefined ? undefined : atSlashVariant(copyOptions(routeOptions), slashVariant)
  for (const hook of context.hooks.onRoute) hook.call(this, routeOptions)
  register(app, this, context, routeOptions, headTemplate)
  if (slashHeadTemplate !== undefined) {
    // The '/prefix/' variant of a prefixed '/' route (prefixTrailingSlash 'both'): as in Fastify 4, registered with
    // the options onRoute hooks left on the first variant and not shown to them again (plugins such as swagger see
    // the route once); its automatic HEAD route does go through onRoute.
    register(app, this, context, atSlashVariant(routeOptions, slashHeadTemplate.url), slashHeadTemplate)
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
function register (app: any, instance: any, context: PluginContext, options: RouteOptions, headTemplate: RouteOptions): void {
  // onRoute hooks may rewrite anything; what they leave is what gets registered
  const methods = normalizeMethods(options.method)
  validateRouteOptions(options, methods, options.url)
  for (const method of methods) addToRouter(app, instance, context, options, method, false)
  if (methods.includes('GET')) addHeadRoute(app, instance, context, headTemplate, options)
}

/** The HEAD route exposed for a GET route: a route of its own, so `onRoute` hooks (swagger, helmet…) see it. */
function addHeadRoute (app: any, instance: any, context: PluginContext, template: RouteOptions, getOptions: RouteOptions): void {
  const exposeHead = getOptions.exposeHeadRoute ?? app.options.exposeHeadRoutes
  if (!exposeHead || app.router.hasRoute('HEAD', getOptions.url, routeConstraints(getOptions))) return
  const headOptions: RouteOptions = { ...template, method: 'HEAD', url: getOptions.url, path: getOptions.url }
  for (const hook of context.hooks.onRoute) hook.call(instance, headOptions)
  validateRouteOptions(headOptions, ['HEAD'], headOptions.url)
  addToRouter(app, instance, context, headOptions, 'HEAD', true)
}

function addToRouter (app: any, instance: any, plugin: PluginContext, options: RouteOptions, method: string, autoHead: boolean): void {
  const url = options.url
  const record: RouteRecord = { options, method, url, plugin, instance, context: null, isNotFound: false, autoHead }
  const constraints = routeConstraints(options)
  try {
    app.router.constrainer.validateConstraints(constraints)
  } catch (err: any) {
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('constraints', method, url, err.message)
  }
  if (method === 'HEAD' && !autoHead) {
    // an explicit HEAD replaces the automatic one of the GET with the same url and constraints
    const existing = app.router.findRoute('HEAD', url, constraints)
    if (existing !== null && existing.store.autoHead === true) {
      app.router.off('HEAD', url, constraints)
      app.routes.splice(app.routes.indexOf(existing.store), 1)
    }
  }
  try {
    app.router.on(method, url, { constraints }, noopHandler, record)
  } catch (err: any) {
    if (/already declared/.test(err.message)) throw new codes.FST_ERR_DUPLICATED_ROUTE(method, url)
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('url', method, url, err.message)
  }
  // derive per request once any strategy is in use: a route's, or a mustMatchWhenDerived one from the start
  if (!app.hasConstraints && derivesConstraints(app.router)) app.hasConstraints = true
  app.routes.push(record)
}

function derivesConstraints (router: any): boolean {
  return router.constrainer.strategiesInUse.size > 0 || router.constrainer.asyncStrategiesInUse.size > 0
}

/** Resolves everything a route needs per request, once. Throws (failing `ready()`) on a bad schema. */
export function compileRoute (record: RouteRecord, bodyLimit: number, identity: RequestIdentityDefaults): RouteContext {
  const { options, plugin, instance } = record
  const hooks: Record<string, AnyFn[] | null> = {}
  for (const name of lifecycleHooks) {
    const list = routeHooks(plugin, options, name).map((fn) => fn.bind(instance))
    hooks[name] = list.length > 0 ? list : null
  }
  const routeOptions = { ...options, method: record.method }
  return {
    method: record.method,
    url: record.url,
    options,
    // a not-found handler's options carry internal markers (isDefault): its config is empty, as in Fastify
    config: record.isNotFound ? {} : { ...options.config, url: record.url, method: record.method },
    schema: options.schema,
    handler: options.handler,
    instance,
    plugin,
    onRequest: hooks.onRequest,
    preParsing: hooks.preParsing,
    preValidation: hooks.preValidation,
    preHandler: hooks.preHandler,
    preSerialization: hooks.preSerialization,
    onSend: hooks.onSend,
    onResponse: hooks.onResponse,
    onError: hooks.onError,
    onTimeout: hooks.onTimeout,
    onRequestAbort: hooks.onRequestAbort,
    errorHandler: options.errorHandler !== undefined
      ? { fn: options.errorHandler, instance, parent: plugin.errorHandler }
      : plugin.errorHandler,
    contentTypeParsers: plugin.contentTypeParsers,
    bodyLimit: options.bodyLimit ?? bodyLimit,
    attachValidation: options.attachValidation === true,
    // '' when neither the route nor a plugin set one, as Fastify reports it in request.routeOptions.logLevel
    logLevel: options.logLevel ?? plugin.logLevel ?? '',
    validation: record.isNotFound ? null : compileRouteValidation(routeOptions, plugin),
    serializers: record.isNotFound ? null : compileRouteSerializers(routeOptions, plugin),
    replySerializer: plugin.replySerializer,
    Request: plugin.Request,
    Reply: plugin.Reply,
    requestProps: collectProps(plugin, 'request'),
    replyProps: collectProps(plugin, 'reply'),
    isNotFound: record.isNotFound,
    autoHead: record.autoHead,
    genReqId: resolveGenReqId(plugin, identity),
    requestLogger: resolveRequestLogger(options, plugin, instance, identity),
    schemaFunctions: null
  }
}

/** Shortcut methods: `(path, handler)`, `(path, options, handler)` or `(path, optionsWithHandler)`. */
function shortcut (methods: string | string[]) {
  return function (this: any, url: string, options?: any, handler?: AnyFn) {
    if (typeof options === 'function') {
      handler = options
      options = {}
    } else if (options === undefined || options === null) {
      options = {}
    } else if (typeof options !== 'object') {
      throw new codes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(String(methods), url)
    }
    if (handler !== undefined && options.handler !== undefined) throw new codes.FST_ERR_ROUTE_DUPLICATED_HANDLER(String(methods), url)
    return this.route({ ...options, method: methods, url, handler: handler ?? options.handler })
  }
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
  all: shortcut(supportedMethods),
  hasRoute (this: any, opts: { method: string, url: string, constraints?: Record<string, unknown> }): boolean {
    return this[kApp].router.hasRoute(String(opts.method).toUpperCase(), opts.url, opts.constraints ?? {})
  },
  findRoute (this: any, opts: { method: string, url: string, constraints?: Record<string, unknown> }) {
    const found = this[kApp].router.findRoute(String(opts.method).toUpperCase(), opts.url, opts.constraints ?? {})
    if (found === null) return null
    const record: RouteRecord = found.store
    // as Fastify 4 documents it: each parameter name mapped to its pattern (`{ id: ':id' }`, `{ '*': '*' }`)
    const params: Record<string, string> = {}
    for (const name of found.params as string[]) params[name] = name === '*' ? '*' : `:${name}`
    return { handler: record.options.handler, params, searchParams: found.searchParams ?? {}, config: record.options.config, schema: record.options.schema }
  },
  addConstraintStrategy (this: any, strategy: { name: string }): any {
    const app = this[kApp]
    if (app.started) throw new codes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add constraint strategy!')
    app.router.addConstraintStrategy(strategy)
    // a strategy may have to match even for routes that declare no constraint (mustMatchWhenDerived)
    app.hasConstraints = true
    return this
  },
  hasConstraintStrategy (this: any, name: string): boolean {
    return this[kApp].router.hasConstraintStrategy(name)
  },
  printRoutes (this: any, opts: Record<string, any> = {}): string {
    return this[kApp].router.prettyPrint(prettyPrintOptions(opts))
  }
}
