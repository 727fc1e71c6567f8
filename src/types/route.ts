/**
 * Route types: options, handlers and the route methods (`route()`, `get()`, …). A route method infers the schema
 * from the `schema` option (`const` type parameter: inline schemas need no `as const`), takes the route generic
 * and `config` type as explicit (or inferred) type arguments, and types the handler, route hooks and error handler
 * from them through the instance's type provider (type-provider.ts).
 */
import type { ConstraintStrategy } from 'find-my-way'
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyRequest, RouteGenericOfRequest } from './request'
import type { ReplyOf } from './reply'
import type { FastifyBaseLogger, FastifyChildLoggerFactory, LogLevel } from './logger'
import type { FastifyContextConfig } from './context'
import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler, SchemaErrorFormatter } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type { FastifyTypeProvider, FastifyTypeProviderDefault, ResolveFastifyReplyReturnType } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault, HTTPMethods } from './utils'
import type {
  onErrorMetaHookHandler, onRequestAbortMetaHookHandler, onRequestMetaHookHandler, onResponseMetaHookHandler, onSendMetaHookHandler,
  onTimeoutMetaHookHandler, preHandlerMetaHookHandler, preParsingMetaHookHandler, preSerializationMetaHookHandler,
  preValidationMetaHookHandler
} from './route-hooks'

export type { RouteGenericInterface } from './route-generic'
export type { FastifyRouteConfig } from './context'

/** A custom route constraint (`addConstraintStrategy`, the `constraints` factory option). */
export type RouteConstraintType = Omit<ConstraintStrategy<any>, 'deriveConstraint'> & {
  deriveConstraint<Context>(req: RawRequestDefaultExpression<RawServerDefault>, ctx?: Context, done?: (err: Error, ...args: any) => any): any
}

/** A route's constraints: the built-in `version` and `host`, and custom strategies. */
export interface RouteConstraint {
  version?: string
  host?: RegExp | string
  [name: string]: unknown
}

/** One hook, or a list of them. */
type OneOrMore<Hook> = Hook | Hook[]

/**
 * The options of a route, apart from method, url and handler. Its hooks and error handler see the route's types;
 * the schema is inferred from `schema` only (`NoInfer` elsewhere).
 */
export interface RouteShorthandOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> {
  /** JSON schemas of the request parts and responses; they also type the handler. */
  schema?: SchemaCompiler
  /** Attach validation errors to `request.validationError` instead of answering 400. */
  attachValidation?: boolean
  /** Register a `HEAD` route next to a `GET` route (default: the `exposeHeadRoutes` option). */
  exposeHeadRoute?: boolean
  validatorCompiler?: FastifySchemaCompiler<NoInfer<SchemaCompiler>>
  serializerCompiler?: FastifySerializerCompiler<NoInfer<SchemaCompiler>>
  /** Largest body accepted, in bytes. */
  bodyLimit?: number
  /** Milliseconds this route has to answer (a positive integer); overrides the factory's `handlerTimeout`. */
  handlerTimeout?: number
  logLevel?: LogLevel
  logSerializers?: Record<string, (value: any) => unknown>
  /** Free-form route configuration, available as `request.routeOptions.config`. */
  config?: FastifyContextConfig & ContextConfig
  /** @deprecated Use `constraints: { version }`. */
  version?: string
  constraints?: RouteConstraint
  /** With a prefix, whether `/` registers `/prefix`, `/prefix/` or both (default). */
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  errorHandler?: (
    this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    error: FastifyError,
    request: FastifyRequest<RouteGeneric, RawServer, RawRequest, NoInfer<SchemaCompiler>, TypeProvider, ContextConfig, Logger>,
    reply: ReplyOf<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider>
  ) => void
  childLoggerFactory?: FastifyChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  schemaErrorFormatter?: SchemaErrorFormatter

  onRequest?: OneOrMore<onRequestMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  preParsing?: OneOrMore<preParsingMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  preValidation?: OneOrMore<preValidationMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  preHandler?: OneOrMore<preHandlerMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  preSerialization?: OneOrMore<preSerializationMetaHookHandler<unknown, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  onSend?: OneOrMore<onSendMetaHookHandler<unknown, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  onResponse?: OneOrMore<onResponseMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  onTimeout?: OneOrMore<onTimeoutMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  onError?: OneOrMore<onErrorMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
  onRequestAbort?: OneOrMore<onRequestAbortMetaHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>>
}

/**
 * A route handler: `this` is the instance, and the returned value (or resolved value) is sent. With a reply type
 * (the generic's `Reply`, or response schemas) it must return one of its payloads, the reply, or nothing.
 */
export type RouteHandlerMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (
  this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
  request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger>,
  reply: ReplyOf<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
) => ResolveFastifyReplyReturnType<TypeProvider, SchemaCompiler, RouteGeneric>

/** Route options that include the handler (the two-argument form of the shorthand methods). */
export interface RouteShorthandOptionsWithHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {
  handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, NoInfer<SchemaCompiler>, TypeProvider, Logger>
}

/** Route options whose handler the route's type parameters are not inferred from (see RouteShorthandMethod). */
export type OptionsWithFixedHandler<
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger
> = RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> & {
  handler: NoInfer<RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>>
}

/**
 * A shorthand route method (`get`, `post`, …, `all`): `(path, options, handler)`, `(path, handler)` or
 * `(path, optionsWithHandler)`. Type arguments, all optional: the route generic, the `config` type, the schema.
 *
 * The first three overloads do not infer from the handler: an inline handler takes its types from the route, and
 * inferring from it would make the checker relate every request and reply type of the route, used or not (the cost
 * of a route would grow several times). The last two take the route generic from a handler declared apart with its
 * own types (`const handler: RouteHandler<{ Body: B }> = …`, `function handler (request: FastifyRequest<…>)`), as
 * Fastify infers it; they apply only to such handlers (see `IfDeclaredHandler`).
 */
export interface RouteShorthandMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> {
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends FastifySchema = FastifySchema>(
    this: AssignableOnly,
    path: string,
    opts: RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>,
    handler: NoInfer<RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends FastifySchema = FastifySchema>(
    this: AssignableOnly,
    path: string,
    handler: NoInfer<RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends FastifySchema = FastifySchema>(
    this: AssignableOnly,
    path: string,
    opts: OptionsWithFixedHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <Handler extends DeclaredHandler>(
    path: string,
    ...rest: IfDeclaredHandler<Handler, [
      opts: RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGenericInterface, ContextConfigDefault, FastifySchema, TypeProvider, Logger>,
      handler: Handler & NoInfer<RouteHandlerMethod<RawServer, RawRequest, RawReply, HandlerRouteGeneric<Handler>, ContextConfigDefault, FastifySchema, TypeProvider, Logger>>
    ]>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <Handler extends DeclaredHandler>(
    path: string,
    ...rest: IfDeclaredHandler<Handler, [handler: Handler & NoInfer<RouteHandlerMethod<RawServer, RawRequest, RawReply, HandlerRouteGeneric<Handler>, ContextConfigDefault, FastifySchema, TypeProvider, Logger>>]>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
}

/** Phantom key that no instance has (see `AssignableOnly`); it has no runtime value. */
declare const kAssignablePass: unique symbol

/**
 * The `this` of the route methods' overloads that type an inline handler: every instance is assignable to it, none
 * is a subtype of it (none has its optional phantom member). TypeScript resolves a call to overloads twice, with
 * the subtype relation first, then assignability. A handler returning an object without one of its optional
 * properties fails the first (only an object literal may leave an optional property out there, and a function's
 * return type is never one), so the whole route was checked twice. Failing these overloads at once in that pass
 * leaves one check, by the pass that decides anyway; it has no other effect (errors are those of the second pass).
 */
export interface AssignableOnly {
  readonly [kAssignablePass]?: never
  readonly server: unknown
}

/** Any handler, as the type parameter of a route method that takes its route generic from the handler. */
export type DeclaredHandler = (this: never, request: never, reply: never) => unknown

/** The route generic of a handler declared apart: the one its request parameter's type was declared with. */
export type HandlerRouteGeneric<Handler> = Handler extends (this: never, request: infer Request, ...rest: never[]) => unknown
  ? RouteGenericOfRequest<Request>
  : RouteGenericInterface

/** Whether a handler's request type gives a route generic (`false` for an inline handler's). */
type GivesRouteGeneric<Handler> = [HandlerRouteGeneric<Handler>] extends [never] ? false
  : RouteGenericInterface extends HandlerRouteGeneric<Handler> ? false : true

/**
 * The remaining parameters of an overload that takes the route generic from a handler declared apart: `Params`, or
 * for any other handler a list no call matches in length. An inline handler is typed by the earlier overloads; when
 * they fail (a first pass with the subtype relation, or a type error), this one fails too at its arity check, which
 * costs the checker nothing and reports nothing (errors are those of the earlier overloads).
 */
export type IfDeclaredHandler<Handler, Params extends unknown[]> =
  GivesRouteGeneric<Handler> extends true ? Params : [never, never, never, never, never]

/**
 * What plugins add to `RouteOptions` by declaration merging (@fastify/websocket's `wsHandler`), for `route()` to take:
 * its own members less those of the shorthand options, `method`, `url` and `handler` (none, without such a plugin).
 */
export type RouteOptionsExtensions<
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger
> = Omit<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>,
  keyof RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | keyof RouteMethodAndUrl | 'handler'>

/** What `route()` options have on top of the shorthand methods' options. */
export interface RouteMethodAndUrl {
  method: HTTPMethods | HTTPMethods[]
  /** The path pattern (`/users/:id`), prefixed by the plugin's prefix. */
  url: string
}

/** The options of `route()`: method(s), url and handler included. */
export interface RouteOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {
  method: HTTPMethods | HTTPMethods[]
  /** The path pattern (`/users/:id`), prefixed by the plugin's prefix. */
  url: string
  handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
}

/**
 * A handler typed by its route generic first (a shorter form of {@link RouteHandlerMethod}, returning the same:
 * a reply map's payloads, where Fastify's returns the map type itself).
 */
export type RouteHandler<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (
  this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
  request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger>,
  reply: ReplyOf<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
) => ResolveFastifyReplyReturnType<TypeProvider, SchemaCompiler, RouteGeneric>

/** The deprecated application-wide raw handler of unmatched requests (`setDefaultRoute`). */
export type DefaultRoute<Request, Reply> = (req: Request, res: Reply) => void
