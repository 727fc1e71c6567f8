/**
 * The factory: `enclave(options)` builds the root instance. Public methods live on one shared prototype; each
 * encapsulation context is an `Object.create` of its parent's instance with its own `PluginContext`.
 */
import { normalizeOptions, type NormalizedOptions } from './options'
import { createLogger } from './logger'
import { kContext, kApp } from './symbols'
import { PluginContext, type AnyFn } from './context'
import { attachPluginLoader, translateLoaderError, emptyHooks, FASTIFY_API_VERSION } from './plugin'
import { Request, subclassRequest, compileTrustProxy, kTrust } from './request'
import { Reply, subclassReply } from './reply'
import { decoratorInstanceMethods } from './decorate'
import { addHook, runApplicationHooks } from './hooks'
import { createRouter, compileRoute, routeInstanceMethods } from './route'
import { notFoundInstanceMethods, installDefaultNotFound } from './not-found'
import { createRequestHandler } from './lifecycle'
import { errorHandlerInstanceMethods, defaultErrorHandlerLink } from './error-handler'
import { createServer, serverInstanceMethods, closeServer, formatAddress } from './server'
import { ContentTypeParserRegistry, contentTypeInstanceMethods } from './content-type-parser'
import { SchemaContext, schemaInstanceMethods } from './schemas'
import { serializationInstanceMethods, contextSerializerCompiler } from './serialization'
import { requestIdentityDefaults, requestIdentityInstanceMethods, type RequestIdentityDefaults } from './request-identity'
import { codes } from './errors'
import { version as enclaveVersion } from '../package.json'

/** Application-wide state, shared by every context through `instance[kApp]`. */
export interface AppState {
  root: any
  options: NormalizedOptions
  logger: any
  loggingEnabled: boolean
  requestLogging: boolean
  started: boolean
  listening: boolean
  closing: boolean
  router: any
  notFoundRouter: any
  hasConstraints: boolean
  routes: any[]
  notFoundByPrefix: Map<string, any>
  notFoundRecords: any[]
  /** `setDefaultRoute` (deprecated): takes every unmatched request as raw `(req, res)` instead of the 404 handlers. */
  defaultRoute: ((req: any, res: any) => void) | null
  applicationHooks: Record<'onReady' | 'preClose' | 'onListen', Array<{ fn: AnyFn, instance: any }>>
  readyPromise: Promise<any> | null
  server: any
  handler: (req: any, res: any) => void
  /** Factory-level request id and child logger settings; each route resolves its own from them at ready. */
  requestIdentity: RequestIdentityDefaults
  initialConfig: Readonly<Record<string, unknown>>
}

const instanceProto: Record<string | symbol, any> = {
  addHook,
  hasPlugin (this: any, name: string): boolean {
    const context: PluginContext = this[kContext]
    return context.ownPlugin === name || context.registeredPlugins.includes(name) || context.sharedPlugins.includes(name)
  },
  printPlugins (this: any): string {
    return this[kApp].loader.prettyPrint()
  },
  routing (this: any, req: any, res: any): void {
    this[kApp].handler(req, res)
  },
  /** Type-level only (TypeScript type providers): at run time the instance itself. */
  withTypeProvider (this: any): any {
    return this
  }
}
// Copied as descriptors, not spread: a spread would evaluate module getters (e.g. `validatorCompiler`) once, here.
for (const methods of [decoratorInstanceMethods, routeInstanceMethods, notFoundInstanceMethods, errorHandlerInstanceMethods,
  serverInstanceMethods, contentTypeInstanceMethods, schemaInstanceMethods, serializationInstanceMethods,
  requestIdentityInstanceMethods]) {
  Object.defineProperties(instanceProto, Object.getOwnPropertyDescriptors(methods))
}
Object.defineProperties(instanceProto, Object.getOwnPropertyDescriptors({
  get server () { return (this as any)[kApp].server },
  get log () { return (this as any)[kApp].logger },
  get prefix () { return (this as any)[kContext].prefix },
  get pluginName () { return (this as any)[kContext].pluginName },
  get version () { return FASTIFY_API_VERSION },
  get enclaveVersion () { return enclaveVersion },
  get initialConfig () { return (this as any)[kApp].initialConfig },
  get errorHandler () { return (this as any)[kContext].errorHandler.fn },
  get listeningOrigin () {
    const app = (this as any)[kApp]
    return app.listening ? formatAddress(app.server, Boolean(app.options.https)) : undefined
  },
  /** Like `validatorCompiler`: null until the app started unless set; then the compiler this context's routes use. */
  get serializerCompiler () {
    const self = this as any
    const set = self[kContext].schema.serializerCompiler
    if (set !== null) return set
    return self[kApp].started ? contextSerializerCompiler(self[kContext]) : null
  }
}))
// `await using app = enclave()` closes the app at the end of the scope (the symbol is missing before Node 20.4)
if (typeof Symbol.asyncDispose === 'symbol') {
  instanceProto[Symbol.asyncDispose] = function asyncDispose (this: any): Promise<undefined> {
    return this.close()
  }
}

/** Compiles every route (and not-found handler) into its `RouteContext`. Runs once, when the app becomes ready. */
function compileRoutes (app: AppState): void {
  for (const record of app.routes) record.context = compileRoute(record, app.options.bodyLimit, app.requestIdentity)
  for (const record of app.notFoundRecords) record.context = compileRoute(record, app.options.bodyLimit, app.requestIdentity)
}

export function createInstance (userOptions?: unknown): any {
  const options = normalizeOptions(userOptions)
  const { logger, enabled } = createLogger(options.logger)
  const root = Object.create(instanceProto)
  const app: AppState = {
    root,
    options,
    logger,
    loggingEnabled: enabled,
    requestLogging: enabled && !options.disableRequestLogging,
    started: false,
    listening: false,
    closing: false,
    router: null,
    notFoundRouter: null,
    hasConstraints: false,
    routes: [],
    notFoundByPrefix: new Map(),
    notFoundRecords: [],
    defaultRoute: null,
    applicationHooks: { onReady: [], preClose: [], onListen: [] },
    readyPromise: null,
    server: null,
    handler: null as any,
    requestIdentity: requestIdentityDefaults(options, logger),
    initialConfig: Object.freeze({
      connectionTimeout: options.connectionTimeout,
      keepAliveTimeout: options.keepAliveTimeout,
      requestTimeout: options.requestTimeout,
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
      useSemicolonDelimiter: options.useSemicolonDelimiter
    }) as Readonly<Record<string, unknown>>
  }
  root[kApp] = app

  const RootRequest = subclassRequest(Request)
  const RootReply = subclassReply(Reply)
  RootRequest.prototype.server = root
  RootReply.prototype.server = root
  ;(Request.prototype as any)[kTrust] = null
  RootRequest.prototype[kTrust] = compileTrustProxy(options.trustProxy)
  root[kContext] = new PluginContext(null, {
    instance: root,
    prefix: '',
    pluginName: 'enclave',
    hooks: emptyHooks(),
    schema: SchemaContext.root({ ajv: options.ajv, validator: options.validator, schemaController: options.schemaController, schemaErrorFormatter: options.schemaErrorFormatter, serializerOpts: options.serializerOpts, jsonShorthand: options.jsonShorthand } as any),
    contentTypeParsers: ContentTypeParserRegistry.root({ bodyLimit: options.bodyLimit, onProtoPoisoning: options.onProtoPoisoning, onConstructorPoisoning: options.onConstructorPoisoning }),
    errorHandler: defaultErrorHandlerLink,
    replySerializer: null,
    Request: RootRequest,
    Reply: RootReply,
    requestProps: [],
    replyProps: [],
    registeredPlugins: [],
    sharedPlugins: [],
    ownPlugin: null
  })

  app.router = createRouter(options, () => {})
  app.notFoundRouter = createRouter({ ...options, ignoreTrailingSlash: true }, () => {})
  app.handler = createRequestHandler(app)
  app.server = createServer(options, app.handler)
  installDefaultNotFound(root)

  const loader = attachPluginLoader(root, options.pluginTimeout)
  ;(app as any).loader = loader
  const avvioReady = loader.ready.bind(loader)
  const avvioClose = root.close
  // The listening server closes first when the app closes: this onClose is registered last, and avvio runs them in reverse.
  loader.once('preReady', () => root.onClose((_instance: any, done: (err?: Error) => void) => closeServer(app, done)))

  root.ready = function ready (this: any, cb?: (err: Error | null) => void): any {
    if (app.readyPromise === null) {
      app.readyPromise = new Promise((resolve, reject) => {
        avvioReady((loadError: Error | null, _context: unknown, done: () => void) => {
          if (loadError) {
            reject(translateLoaderError(loadError))
            done()
            return
          }
          try {
            compileRoutes(app)
          } catch (err) {
            reject(err)
            done()
            return
          }
          runApplicationHooks(app, 'onReady').then(() => {
            resolve(root)
            done()
          }, (err) => {
            reject(err)
            done()
          })
        })
      })
    }
    if (cb === undefined || cb === null) return app.readyPromise.then(() => this)
    if (typeof cb !== 'function') throw new codes.FST_ERR_OPTIONS_NOT_OBJ()
    app.readyPromise.then(() => cb(null), (err) => cb(err))
    return undefined
  }

  root.close = function close (this: any, cb?: (err?: Error) => void): any {
    const closing = (async () => {
      if (!app.closing) {
        app.closing = true
        await runApplicationHooks(app, 'preClose')
      }
      await avvioClose.call(root)
    })()
    if (cb === undefined) return closing
    closing.then(() => cb(), (err) => cb(err))
    return root
  }

  return root
}
