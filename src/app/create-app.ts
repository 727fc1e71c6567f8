/**
 * The factory: `enclave(options)` builds the root instance and the application state. Each encapsulation context
 * is an `Object.create` of its parent's instance with its own `PluginContext` (`plugin-loader.ts`).
 */
import { DEFAULT_LEVEL, type ApiLevel } from '../core/api-level'
import { codes, codesChangedInFastify5 } from '../core/errors'
import type { AnyFn } from '../core/types'
import { kPluginContext, kApp, kTrustProxy } from '../core/symbols'
import type { AppState, Instance } from '../encapsulation/app-state'
import { PluginContext } from '../encapsulation/plugin-context'
import { replyDecoratorMethods, requestDecoratorMethods } from '../encapsulation/decorators'
import { emptyHooks } from '../hooks/hook-names'
import { runApplicationHooks } from '../hooks/application-hooks'
import { SchemaScope } from '../schema/schema-scope'
import { ContentTypeParserRegistry } from '../request/content-type-parser'
import { createRequestHandler, lookupFailures } from '../request/dispatch'
import { Request, requestClassOf, subclassRequest, compileTrustProxy } from '../request/request'
import { requestIdentityDefaults } from '../request/request-identity'
import { Reply, subclassReply } from '../reply/reply'
import { defaultErrorHandlerLinkOf } from '../reply/error-handler'
import { createRouter } from '../routing/router'
import { RouteTable } from '../routing/route-table'
import { compileRoutes } from '../routing/compile-route'
import { installDefaultNotFound } from '../routing/not-found-handlers'
import { normalizeOptions, unknownOptions, type NormalizedOptions } from './options'
import { createLogger } from './logger'
import { installLevelShorthands } from '../routing/http-method-api'
import { HttpMethods } from '../core/http-methods'
import { attachPluginLoader, translateLoaderError } from './plugin-loader'
import { createServer, closeServer, checkForceClose } from './server'
import { instancePrototype } from './instance-prototype'

// `getDecorator` / `setDecorator` (Fastify 5, both levels): methods of the framework's own request and reply
for (const [prototype, methods] of [[Request.prototype, requestDecoratorMethods], [Reply.prototype, replyDecoratorMethods]] as const) {
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(prototype, name, { value, writable: true, configurable: true })
}

/** Builds an application at `level` (the entry points pass theirs; docs/compatibility.md lists what differs). */
export function createInstance (userOptions?: unknown, level: ApiLevel = DEFAULT_LEVEL): Instance {
  const options = normalizeOptions(userOptions, level)
  const { logger, enabled } = createLogger(options.logger, options.loggerInstance, level)
  // ignored, as Fastify ignores them; an old or misspelt option name should not go unnoticed
  for (const name of unknownOptions(userOptions)) logger.warn(`the option "${name}" is not one Enclave (or Fastify 4) has: it is ignored`)
  const root: Instance = Object.create(instancePrototype)
  const app = {
    root,
    level,
    options,
    logger,
    loggingEnabled: enabled,
    requestLogging: enabled && options.disableRequestLogging !== true,
    requestLogFilter: typeof options.disableRequestLogging === 'function' ? options.disableRequestLogging : null,
    started: false,
    listening: false,
    closing: false,
    closeRequested: false,
    pendingListen: null,
    hasConstraints: false,
    routes: [],
    notFoundByPrefix: new Map(),
    notFoundRecords: [],
    defaultRoute: null,
    applicationHooks: { onReady: [], preClose: [], onListen: [] },
    readyPromise: null,
    extraServers: [],
    httpMethods: new HttpMethods(level.httpMethods),
    requestIdentity: requestIdentityDefaults(options, logger, enabled),
    initialConfig: initialConfig(options)
  } as unknown as AppState
  root[kApp] = app
  // a plain property, as in Fastify: plugins wrap or replace it (`app.log = app.log.child(...)`), and an assignment
  // in a context stays in that context and its children; request loggers still come from the factory's logger
  root.log = logger
  root[kPluginContext] = rootContext(root, options, level)

  const failures = lookupFailures(app)
  app.router = new RouteTable(() => createRouter(options, failures))
  // the not-found router files each handler under its prefix, and `/v1` also covers `/v1/`
  app.notFoundRouter = createRouter(options, level.badUrlBeforeNotFound ? failures : {}, { ignoreTrailingSlash: true })
  // `routerOptions.defaultRoute`: every unmatched request, as raw (req, res), instead of the not-found handlers
  app.defaultRoute = options.routerOptions.defaultRoute ?? null
  app.handler = createRequestHandler(app)
  app.server = createServer(options, app.handler, root)
  checkForceClose((userOptions as { forceCloseConnections?: unknown } | null | undefined)?.forceCloseConnections, app.server)
  // plain properties of the root, as in Fastify (a plugin may shadow them in its own context with `decorate`)
  root.server = app.server
  installLevelShorthands(root, level)
  root.initialConfig = app.initialConfig

  const loader = attachPluginLoader(root, options.pluginTimeout)
  app.loader = loader
  installDefaultNotFound(root)
  const avvioClose = root.close
  // Closing starts in the first onClose handler (registered last; avvio runs them in reverse), as in Fastify: new
  // requests are refused from then on, preClose hooks run (the first failure stops them and is close()'s error,
  // the rest of the closing still happens), then the listening server closes.
  ;(loader as unknown as NodeJS.EventEmitter).once('preReady', () => root.onClose((_instance: Instance, done: (err?: Error) => void) => {
    app.closing = true
    root[kPluginContext].schema.app.deferredCompilations.stop()
    // without preClose hooks the server closes in this very tick, as in Fastify: a handler that called close() has
    // not written its response yet, so Node's idle-connection sweep spares its connection (and pipelined requests)
    if (app.applicationHooks.preClose.length === 0) {
      closeServer(app, done)
      return
    }
    runApplicationHooks(app, 'preClose').then(
      () => closeServer(app, done),
      (err: Error) => closeServer(app, () => done(err))
    )
  }))
  root.ready = ready(app, loader.ready.bind(loader))
  const compileCache = root[kPluginContext].schema.app.compileCache
  root.close = function close (this: Instance, cb?: (err?: Error) => void) {
    app.closeRequested = true
    let closing = avvioClose.call(root) as unknown as Promise<void>
    // a compile-cache write still under way finishes before close() does
    if (compileCache !== null) closing = closing.then(() => compileCache.settled())
    if (cb === undefined) return closing
    closing.then(() => cb(), (err) => cb(err))
    return root
  }
  return root
}

/** The root context: the root's request/reply classes, the factory's schema, parser and error-handler settings. */
function rootContext (root: Instance, options: NormalizedOptions, level: ApiLevel): PluginContext {
  const RootRequest = subclassRequest(requestClassOf(level))
  const RootReply = subclassReply(Reply)
  RootRequest.prototype.server = root
  RootReply.prototype.server = root
  Request.prototype[kTrustProxy] = null
  RootRequest.prototype[kTrustProxy] = compileTrustProxy(options.trustProxy, level)
  return new PluginContext(null, {
    instance: root,
    prefix: '',
    // Fastify's names for the root, which plugins check (`hasPlugin('fastify')`)
    pluginName: 'fastify',
    hooks: emptyHooks(),
    schema: SchemaScope.root(options, level),
    contentTypeParsers: ContentTypeParserRegistry.root(options, level),
    errorHandler: defaultErrorHandlerLinkOf(level),
    replySerializer: null,
    Request: RootRequest,
    Reply: RootReply,
    registeredPlugins: [],
    sharedPlugins: [],
    ownPlugin: 'fastify'
  })
}

/**
 * `ready([cb])`: loads every plugin (avvio), compiles every route, then runs the onReady hooks, once; later calls
 * get the same outcome. Called by an encapsulated plugin while the plugins load, it settles as soon as they have
 * loaded, before the onReady hooks, as in Fastify.
 */
type AvvioReadyCallback = ((err: Error | null, context: unknown, done: () => void) => void) | ((err: Error | null) => void)

function ready (app: AppState, avvioReady: (cb: AvvioReadyCallback) => void) {
  let loaded: Promise<void> | null = null
  // the onReady hook running, which a timeout names
  let runningHook: AnyFn | null = null
  const boot = (): void => {
    let settleLoaded: (err: Error | null) => void = () => {}
    loaded = new Promise((resolve, reject) => { settleLoaded = (err) => err === null ? resolve() : reject(err) })
    loaded.catch(() => {}) // a load error is reported by readyPromise; plugins' callbacks get it too
    app.readyPromise = new Promise((resolve, reject) => {
      // avvio gives this callback pluginTimeout to finish (the onReady hooks run in it)…
      const startApplication = (loadError: Error | null, _context: unknown, done: () => void): void => {
        const failure = loadError ? translateLoaderError(loadError) : null
        settleLoaded(failure)
        // after the plugins' own ready callbacks, which were attached to `loaded` first
        loaded!.then(() => {
          compileRoutes(app)
          // in the background once ready: what the routes newly generated goes to the compile cache, and the
          // validators Ajv compiles on first use are compiled ahead of their first request
          const schemas = app.root[kPluginContext].schema.app
          schemas.compileCache?.scheduleFlush()
          schemas.deferredCompilations.start()
          return runApplicationHooks(app, 'onReady', (fn) => { runningHook = fn })
        }).then(() => {
          // started from here on, whatever avvio still has queued: nothing may reshape the application any more
          app.started = true
          resolve(app.root)
        }, reject).finally(done)
      }
      avvioReady(startApplication)
      // …and hands its timeout to the next one: Fastify's FST_ERR_HOOK_TIMEOUT, avvio's error as its cause
      avvioReady((err: Error | null) => {
        if ((err as { fn?: unknown } | null)?.fn !== startApplication) return
        const timeout = hookTimeout(app, runningHook)
        timeout.cause = err
        reject(timeout)
      })
    })
  }
  return function ready (this: Instance, cb?: (err: Error | null, instance?: Instance) => void) {
    if (app.readyPromise === null) boot()
    const fromLoadingPlugin = this !== app.root && !app.started && loaded !== null
    const outcome = fromLoadingPlugin ? loaded!.then(() => this) : app.readyPromise!.then(() => this)
    if (cb === undefined || cb === null) return outcome
    if (typeof cb !== 'function') throw new codes.FST_ERR_OPTIONS_NOT_OBJ()
    outcome.then((instance) => cb(null, instance), (err) => cb(err))
    return undefined
  }
}

/**
 * The onReady timeout, in the level's words (src/core/api-level.ts): Fastify 5 names the hook that did not finish
 * (`hook "warmCaches" timed out`), Fastify 4 does not.
 */
function hookTimeout (app: AppState, hook: AnyFn | null): Error {
  if (!app.level.hookTimeoutNamesHook) return new codes.FST_ERR_HOOK_TIMEOUT('onReady')
  return new codesChangedInFastify5.FST_ERR_HOOK_TIMEOUT('onReady', hook !== null && hook.name !== '' ? ` "${hook.name}"` : '')
}

/** `instance.initialConfig`: the factory options Fastify exposes, frozen. */
function initialConfig (options: NormalizedOptions): Readonly<Record<string, unknown>> {
  return Object.freeze({
    connectionTimeout: options.connectionTimeout,
    keepAliveTimeout: options.keepAliveTimeout,
    requestTimeout: options.requestTimeout,
    handlerTimeout: options.handlerTimeout,
    maxRequestsPerSocket: options.maxRequestsPerSocket,
    bodyLimit: options.bodyLimit,
    caseSensitive: options.caseSensitive,
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
    maxParamLength: options.maxParamLength,
    onProtoPoisoning: options.onProtoPoisoning,
    onConstructorPoisoning: options.onConstructorPoisoning,
    pluginTimeout: options.pluginTimeout,
    requestIdHeader: options.requestIdHeader,
    requestIdLogLabel: options.requestIdLogLabel,
    http2: options.http2 || undefined,
    https: options.https ? true : undefined,
    http2SessionTimeout: options.http2SessionTimeout,
    exposeHeadRoutes: options.exposeHeadRoutes,
    return503OnClosing: options.return503OnClosing,
    disableRequestLogging: options.disableRequestLogging,
    trustProxy: options.trustProxy,
    allowUnsafeRegex: options.allowUnsafeRegex,
    jsonShorthand: options.jsonShorthand ?? true,
    useSemicolonDelimiter: options.useSemicolonDelimiter,
    ...initialRouterOptions(options.routerOptionsGiven)
  })
}

/** `initialConfig.routerOptions`, only when given (as in Fastify 5): what was given, over the checked settings' defaults. */
function initialRouterOptions (given: Readonly<Record<string, unknown>> | undefined): { routerOptions?: Readonly<Record<string, unknown>> } {
  if (given === undefined) return {}
  const checked = { compile: false, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 100, allowUnsafeRegex: false, useSemicolonDelimiter: false }
  return { routerOptions: Object.freeze({ ...checked, ...given }) }
}
