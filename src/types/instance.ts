/**
 * The instance type: what the factory returns and what plugins, hooks and handlers get as `this`.
 *
 * Its type parameters are the raw server, request and reply types (HTTP/1.1, HTTPS or HTTP/2, from the factory
 * options), the logger type (from the `logger` option) and the type provider (Enclave's inference, unless
 * `withTypeProvider()` gave another one; `addSchema()` records shared schemas in Enclave's provider).
 *
 * Decorators are declared once for every instance by declaration merging:
 * `declare module 'fastify' { interface FastifyInstance { db: Db } }` (or `'enclave-http'`, `interface EnclaveInstance`).
 */
import type { AddressInfo } from 'node:net'
import type { ConstraintStrategy, FindResult } from 'find-my-way'
import type { Chain as LightMyRequestChain, InjectOptions, Response as LightMyRequestResponse, CallbackFunc as LightMyRequestCallback } from 'light-my-request'
import type { FastifyError } from './errors'
import type { FastifyRequest } from './request'
import type { FastifyReply, ReplyOf } from './reply'
import type { FastifyBaseLogger, FastifyChildLoggerFactory } from './logger'
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaControllerOptions, FastifySerializerCompiler, SchemaErrorFormatter } from './compilers'
import type {
  AddContentTypeParser, ConstructorAction, FastifyBodyParser, getDefaultJsonParser, hasContentTypeParser, ProtoAction,
  removeAllContentTypeParsers, removeContentTypeParser
} from './content-type-parser'
import type { DecorationMethod } from './decorate'
import type { FastifyInstanceHooks } from './instance-hooks'
import type { FastifyListenOptions, FastifyRouterOptions, FindMyWayVersion } from './options'
import type { FastifyRegister } from './register'
import type { RouteGenericInterface } from './route-generic'
import type {
  AssignableOnly, DeclaredHandler, DefaultRoute, HandlerRouteGeneric, IfDeclaredHandler, OptionsWithFixedHandler, RouteHandlerMethod,
  RouteMethodAndUrl, RouteOptions, RouteOptionsExtensions, RouteShorthandMethod
} from './route'
import type { preHandlerAsyncHookHandler, preHandlerHookHandler, preValidationAsyncHookHandler, preValidationHookHandler } from './hooks'
import type { FastifyTypeProvider, FastifyTypeProviderDefault, SharedSchemasOf, WithSharedSchema } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault, HTTPMethods, InstancePromiseLike } from './utils'
import type { AtLevel } from './level'

/** Phantom key marking Enclave's instance type (to tell it from another framework's); no runtime value. */
declare const kEnclaveInstance: unique symbol

/** Whether `X` is Enclave's instance type (as opposed to the real `fastify` package's, say). */
export type IsEnclaveInstance<X> = typeof kEnclaveInstance extends keyof X ? true : false

/** Options of `printRoutes()`. */
export interface PrintRoutesOptions {
  method?: HTTPMethods
  includeMeta?: boolean | (string | symbol)[]
  commonPrefix?: boolean
  includeHooks?: boolean
}

/** A route found by `findRoute()`. */
export type FindMyWayFindResult<RawServer extends RawServerBase> = FindResult<FindMyWayVersion<RawServer>>

/** One hook of the not-found handler's options, or a list of them. */
type NotFoundHook<Sync, Async> = Sync | Async | Sync[] | Async[]

/**
 * An Enclave instance: the root one from the factory, or a plugin's encapsulated one.
 */
export interface FastifyInstance<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends FastifyInstanceHooks<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
  readonly [kEnclaveInstance]?: true
  /** Node's server. */
  server: RawServer
  /** The name of the current plugin (`'fastify'` for the root, as in Fastify). */
  pluginName: string
  /** The route prefix of this encapsulation context. */
  prefix: string
  /** The Fastify API version implemented (for plugins' version checks). */
  version: string
  /** Enclave's own version. */
  readonly enclaveVersion: string
  log: Logger
  /** The origin the server listens on (`http://127.0.0.1:3000`), once listening. */
  listeningOrigin: string
  /** The addresses the server listens on (empty before `listen()`). */
  addresses(): AtLevel<AddressInfo[], Array<AddressInfo | string>>
  /** The same instance, with `Provider` typing routes from their schemas instead of Enclave's inference. */
  withTypeProvider<Provider extends FastifyTypeProvider>(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, Provider>

  // ---- schemas ----
  /**
   * Adds a shared schema, usable with `$ref: '<$id>#'` in routes of this context and its children. The returned
   * type knows it: routes declared on the result infer the referenced type (write the schema inline or `as const`).
   */
  addSchema<const Schema>(schema: Schema): FastifyInstance<RawServer, RawRequest, RawReply, Logger, WithSharedSchema<TypeProvider, Schema>>
  /** A shared schema by `$id` (typed when the instance type knows it). */
  getSchema<Id extends string>(schemaId: Id): SharedSchemasOf<TypeProvider> extends { readonly [K in Id]: infer Schema } ? Schema : unknown
  /** The shared schemas of this context, by `$id`. */
  getSchemas(): Record<string, unknown>

  // ---- lifecycle ----
  /** Waits until every plugin registered so far is loaded. */
  after(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & InstancePromiseLike<undefined>
  after(afterListener: (err: Error | null) => void): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** Stops listening, runs `preClose` and `onClose` hooks. */
  close(): Promise<undefined>
  close(closeListener: (err?: Error) => void): undefined
  [Symbol.asyncDispose](): Promise<undefined>
  /** Loads every plugin and runs `onReady` hooks. */
  ready(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & InstancePromiseLike<undefined>
  ready(readyListener: (err: Error | null) => void): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** Starts listening; resolves to the address. */
  listen(opts: FastifyListenOptions, callback: (err: Error | null, address: string) => void): void
  listen(opts?: FastifyListenOptions): Promise<string>
  listen(callback: (err: Error | null, address: string) => void): void
  /** @deprecated Use `listen(options, callback)`. */
  listen(port: number | string, address: string, backlog: number, callback: (err: Error | null, address: string) => void): void
  /** @deprecated Use `listen(options, callback)`. */
  listen(port: number | string, address: string, callback: (err: Error | null, address: string) => void): void
  /** @deprecated Use `listen(options, callback)`. */
  listen(port: number | string, callback: (err: Error | null, address: string) => void): void
  /** @deprecated Use `listen(options)`. */
  listen(port: number | string, address?: string, backlog?: number): Promise<string>

  // ---- testing ----
  /** Sends a fake request through the whole lifecycle (light-my-request); no socket needed. */
  inject(opts: InjectOptions | string, cb: LightMyRequestCallback): void
  inject(opts: InjectOptions | string): Promise<LightMyRequestResponse>
  inject(): LightMyRequestChain

  // ---- plugins and decorators ----
  /**
   * Adds a plugin in a new encapsulation context. An inline plugin's instance has Fastify's default server and logger
   * types; at the Fastify 4 level it has this instance's type provider (so its inference, and its shared schemas), at
   * the Fastify 5 level the default one, as in Fastify 5.
   */
  register: FastifyRegister<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & InstancePromiseLike<undefined>, RawServerDefault, AtLevel<TypeProvider, FastifyTypeProviderDefault>, FastifyBaseLogger>
  /** Whether a plugin with this name (fastify-plugin `name` metadata) is registered. */
  hasPlugin(name: string): boolean
  /**
   * Adds a property to the instance (and the instances of child contexts). The returned type has it:
   * `const app2 = app.decorate('answer', 42); app2.answer // number`.
   */
  decorate: DecorationMethod<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, this, true>
  /** Adds a property to the requests of this context; type it by declaration merging on `FastifyRequest`. */
  decorateRequest: DecorationMethod<FastifyRequest, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  /** Adds a property to the replies of this context; type it by declaration merging on `FastifyReply`. */
  decorateReply: DecorationMethod<FastifyReply, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  hasDecorator(decorator: string | symbol): boolean
  /** The value of a decorator this context sees (FST_ERR_DEC_UNDECLARED when there is none); `T` is its type. */
  getDecorator<T>(name: string | symbol): T
  hasRequestDecorator(decorator: string | symbol): boolean
  hasReplyDecorator(decorator: string | symbol): boolean

  // ---- routes ----
  /** Adds a route (its types as in the shorthand methods, see `RouteShorthandMethod`). */
  route<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends FastifySchema = FastifySchema>(
    this: AssignableOnly,
    opts: OptionsWithFixedHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> & RouteMethodAndUrl &
      RouteOptionsExtensions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** A handler declared apart gives the route generic (see `RouteShorthandMethod`). */
  route<Handler extends DeclaredHandler>(
    ...args: IfDeclaredHandler<Handler, [opts: NoInfer<RouteOptions<RawServer, RawRequest, RawReply, HandlerRouteGeneric<Handler>, ContextConfigDefault, FastifySchema, TypeProvider, Logger>> & { handler: Handler }]>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  get: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  head: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  post: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  put: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  delete: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  options: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  patch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  /** Every method in `supportedMethods` when it is called. */
  all: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  /** TRACE's shorthand: built in at the Fastify 5 level; at the Fastify 4 level once `addHttpMethod('TRACE')` ran. */
  trace: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  /**
   * QUERY's shorthand (RFC 10008; its requests need a `Content-Type`): built in at the Fastify 5 level; at the
   * Fastify 4 level once `addHttpMethod('QUERY', { hasBody: true })` ran.
   */
  query: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  /**
   * The shorthands of the WebDAV and other methods Node's parser knows, typed as Fastify 5 types them: each exists once
   * `addHttpMethod()` added its method (until then the property is undefined at run time, as in Fastify 5).
   */
  propfind: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  proppatch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  mkcalendar: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  mkcol: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  copy: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  move: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  lock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  unlock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  report: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  search: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  /** The methods routes may use, those without a body first: the level's defaults and what `addHttpMethod` added (a copy). */
  readonly supportedMethods: string[]
  /**
   * Adds a method Node's HTTP parser knows (`'MKCOL'`, upper case), with its lower-cased shorthand unless the name is
   * taken; on a method already supported it changes whether requests carry a body (warning FSTDEP025 unless
   * `overrideExisting`). Throws FST_ERR_ROUTE_METHOD_INVALID for any other string.
   */
  addHttpMethod(method: string, opts?: { hasBody?: boolean, overrideExisting?: boolean }): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  hasRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: Pick<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>, 'url' | 'constraints'>
      // Fastify 5 asks about one method at a time (here and in findRoute)
      & AtLevel<Pick<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>, 'method'>, { method: HTTPMethods }>
  ): boolean
  findRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: Pick<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>, 'url' | 'constraints'>
      & AtLevel<Pick<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>, 'method'>, { method: HTTPMethods }>
  ): Omit<FindMyWayFindResult<RawServer>, 'store'>
  /** Routes a raw request (the server's request listener). */
  routing(req: RawRequest, res: RawReply): void
  /** @deprecated (FSTDEP014) Use `setNotFoundHandler` or a wildcard route. */
  getDefaultRoute(): DefaultRoute<RawRequest, RawReply>
  /** @deprecated (FSTDEP014) Application-wide raw handler of unmatched requests; bypasses the not-found handlers. */
  setDefaultRoute(defaultRoute: DefaultRoute<RawRequest, RawReply>): void
  addConstraintStrategy(strategy: ConstraintStrategy<FindMyWayVersion<RawServer>, unknown>): void
  hasConstraintStrategy(strategyName: string): boolean
  printRoutes(opts?: PrintRoutesOptions): string
  printPlugins(): string

  // ---- errors and not found ----
  /** Answers requests that match no route under this context's prefix. */
  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig extends ContextConfigDefault = ContextConfigDefault, HandlerTypeProvider extends FastifyTypeProvider = TypeProvider, SchemaCompiler extends FastifySchema = FastifySchema>(
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig extends ContextConfigDefault = ContextConfigDefault, HandlerTypeProvider extends FastifyTypeProvider = TypeProvider, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: {
      preValidation?: NotFoundHook<preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider>, preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider>>
      preHandler?: NotFoundHook<preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider>, preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider>>
    },
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, HandlerTypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** The error handler in effect (Enclave's default one unless set). */
  errorHandler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void
  /** Handles errors of this context's routes; `this` is the instance. */
  // Fastify 5 types the error `unknown` unless told (anything can be thrown)
  setErrorHandler<TError extends AtLevel<Error, unknown> = AtLevel<FastifyError, unknown>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, SchemaCompiler extends FastifySchema = FastifySchema, HandlerTypeProvider extends FastifyTypeProvider = TypeProvider>(
    handler: (
      this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
      error: TError,
      request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, HandlerTypeProvider>,
      reply: ReplyOf<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfigDefault, SchemaCompiler, HandlerTypeProvider>
    ) => any | Promise<any>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  // ---- logging and request ids ----
  /** Sets the request id generator of this context. */
  setGenReqId(fn: (req: RawRequestDefaultExpression<RawServer>) => string): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** The request id generator of this context (with the `requestIdHeader` rule applied). */
  readonly genReqId: (req: RawRequestDefaultExpression<RawServer>) => string
  /** Creates each request's child logger. */
  childLoggerFactory: FastifyChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setChildLoggerFactory(factory: FastifyChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  // ---- compilers ----
  /** The validator compiler set by `setValidatorCompiler`, if any. */
  validatorCompiler: FastifySchemaCompiler<any> | undefined
  setValidatorCompiler<T = FastifySchema>(schemaCompiler: FastifySchemaCompiler<T>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** The serializer compiler set by `setSerializerCompiler`, if any. */
  serializerCompiler: FastifySerializerCompiler<any> | undefined
  setSerializerCompiler<T = FastifySchema>(schemaCompiler: FastifySerializerCompiler<T>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setSchemaController(schemaControllerOpts: FastifySchemaControllerOptions): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** Serializes every reply payload of this context that has no route serializer. */
  setReplySerializer(replySerializer: (payload: unknown, statusCode: number) => string): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setSchemaErrorFormatter(errorFormatter: SchemaErrorFormatter): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  schemaErrorFormatter: SchemaErrorFormatter | undefined

  // ---- content-type parsers ----
  addContentTypeParser: AddContentTypeParser<RawServer, RawRequest, RouteGenericInterface, FastifySchema, TypeProvider>
  hasContentTypeParser: hasContentTypeParser
  removeContentTypeParser: removeContentTypeParser
  removeAllContentTypeParsers: removeAllContentTypeParsers
  /** The built-in JSON parser with the given prototype-poisoning handling. */
  getDefaultJsonParser: getDefaultJsonParser
  /** The built-in text parser. */
  defaultTextParser: FastifyBodyParser<string>

  /** The factory options, frozen (those that are plain values). */
  initialConfig: InitialConfig<RawServer>
}

/**
 * `initialConfig`: the factory options that shape the instance, frozen. At the Fastify 5 level, as in Fastify 5, with
 * `routerOptions` and `disableRequestLogging` as a function.
 */
type InitialConfig<RawServer extends RawServerBase> = Readonly<InitialConfigCommon & AtLevel<
  { disableRequestLogging?: boolean },
  { disableRequestLogging?: boolean | ((req: FastifyRequest) => boolean), routerOptions?: FastifyRouterOptions<RawServer> }
>>

interface InitialConfigCommon {
  connectionTimeout?: number
  keepAliveTimeout?: number
  forceCloseConnections?: boolean
  bodyLimit?: number
  caseSensitive?: boolean
  allowUnsafeRegex?: boolean
  http2?: boolean
  https?: boolean | Readonly<{ allowHTTP1: boolean }>
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  maxParamLength?: number
  onProtoPoisoning?: ProtoAction
  onConstructorPoisoning?: ConstructorAction
  pluginTimeout?: number
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  http2SessionTimeout?: number
  useSemicolonDelimiter?: boolean
}

export type { FastifyInstance as EnclaveInstance }
