/**
 * Route types: options, handlers and the route methods (`route()`, `get()`, …). A route method infers the route
 * generic from the `schema` option (`const` type parameter: inline schemas need no `as const`, though `as const`
 * works too), resolves `$ref`s against the instance's shared schemas, and checks the handler against it.
 */
import type { EnclaveInstance, SchemasOf } from './instance'
import type { EnclaveContextConfig, EnclaveRequest } from './request'
import type { AnyReply, EnclaveReply } from './reply'
import type { EnclaveError } from './errors'
import type { ChildLoggerFactory, LogLevel } from './logger'
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from './compilers'
import type { RouteHooks } from './hooks'
import type { EnclaveSchema, ReplyPayload, RouteGenericInterface, RouteTypes } from './route-generic'

/** The HTTP methods a route can answer. */
export type HTTPMethods =
  | 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT' | 'OPTIONS' | 'SEARCH' | 'TRACE' | 'PROPFIND' | 'PROPPATCH'
  | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK' | 'UNLOCK' | 'REPORT' | 'MKCALENDAR'

/**
 * What a handler may return: with a response schema, a declared payload, the reply, or nothing (or a promise of
 * these); without one, anything.
 */
export type RouteHandlerResult<G> = unknown extends ReplyPayload<G> ? unknown : HandlerReturn<ReplyPayload<G>>

type HandlerReturn<P> = P | void | AnyReply | Promise<P | void | AnyReply>

/**
 * A route handler: `this` is the instance, and the returned value (or resolved value) is sent.
 * (`Result` is a parameter of its own so that a handler declared with the default types fits any route without a
 * response schema.)
 */
export type RouteHandler<
  G extends RouteGenericInterface = RouteGenericInterface,
  I = EnclaveInstance,
  C = EnclaveContextConfig,
  Result = RouteHandlerResult<G>
> = (this: I, request: EnclaveRequest<G, C>, reply: EnclaveReply<G, C>) => Result

/** A route-level or instance-level error handler; `this` is the instance. */
export type ErrorHandler<E = EnclaveError, G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  error: E,
  request: EnclaveRequest<G, C>,
  reply: EnclaveReply<G, C>
) => unknown

/** Route constraints: the built-in `version` and `host`, and custom strategies added with `addConstraintStrategy`. */
export interface RouteConstraints {
  version?: string
  host?: string | RegExp
  [strategy: string]: unknown
}

/**
 * The options of a route, apart from method, url and handler.
 *
 * @typeParam G - the route generic the hooks and error handler see.
 * @typeParam I - the instance type (`this` in hooks and handlers).
 * @typeParam S - the schema type (inferred by the route methods).
 */
export interface RouteShorthandOptions<
  G extends RouteGenericInterface = RouteGenericInterface,
  I = EnclaveInstance,
  S = EnclaveSchema,
  C = EnclaveContextConfig
> extends RouteHooks<G, I, C> {
  /** JSON schemas of the request parts and responses; they also type the handler. */
  schema?: S
  /** Attach validation errors to `request.validationError` instead of answering 400. */
  attachValidation?: boolean
  /** Register a `HEAD` route next to a `GET` route (default: the `exposeHeadRoutes` option). */
  exposeHeadRoute?: boolean
  validatorCompiler?: ValidatorCompiler
  serializerCompiler?: SerializerCompiler
  schemaErrorFormatter?: SchemaErrorFormatter
  /** Largest body accepted, in bytes. */
  bodyLimit?: number
  logLevel?: LogLevel
  logSerializers?: Record<string, (value: any) => unknown>
  /** Free-form route configuration, available as `request.routeOptions.config`. */
  config?: Partial<C>
  /** @deprecated Use `constraints: { version }`. */
  version?: string
  constraints?: RouteConstraints
  /** With a prefix, whether `/` registers `/prefix`, `/prefix/` or both (default). */
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  errorHandler?: NoInfer<ErrorHandler<EnclaveError, G, I, C>>
  childLoggerFactory?: ChildLoggerFactory<I>
}

/** Route options that include the handler (the two-argument shorthand form). */
export interface RouteShorthandOptionsWithHandler<
  G extends RouteGenericInterface = RouteGenericInterface,
  I = EnclaveInstance,
  S = EnclaveSchema,
  C = EnclaveContextConfig
> extends RouteShorthandOptions<G, I, S, C> {
  handler: NoInfer<RouteHandler<G, I, C>>
}

/** The options of `route()`: method(s), url and handler included. */
export interface RouteOptions<
  G extends RouteGenericInterface = RouteGenericInterface,
  I = EnclaveInstance,
  S = EnclaveSchema,
  C = EnclaveContextConfig
> extends RouteShorthandOptionsWithHandler<G, I, S, C> {
  method: HTTPMethods | Lowercase<HTTPMethods> | Array<HTTPMethods | Lowercase<HTTPMethods>>
  /** The path pattern (`/users/:id`), prefixed by the plugin's prefix. */
  url: string
  /** Alias of `url`. */
  path?: string
}

/** The route types of a call on instance `I` with the explicit generic `G` and the inferred schema `S`. */
type Typed<G, S, I> = RouteTypes<G, S, SchemasOf<I>>

/**
 * A shorthand route method (`get`, `post`, …, `all`). Three forms: `(path, options, handler)`, `(path, handler)`
 * and `(path, optionsWithHandler)`. Route types come from the explicit generic (Fastify style) or from the schema.
 *
 * The schema is inferred from the options only: handlers (and route hooks) are `NoInfer`, because inferring from
 * them would make the checker evaluate the type of every request part of every route, used or not.
 *
 * @typeParam I - the instance the method is called on; routes' `this` and `$ref` resolution use it.
 */
export interface RouteShorthandMethod<I = EnclaveInstance> {
  <G extends RouteGenericInterface = Record<never, never>, const S extends EnclaveSchema = Record<never, never>>(
    path: string,
    opts: RouteShorthandOptions<Typed<G, S, I>, I, S>,
    handler: NoInfer<RouteHandler<Typed<G, S, I>, I>>
  ): I
  <G extends RouteGenericInterface = Record<never, never>>(path: string, handler: NoInfer<RouteHandler<Typed<G, Record<never, never>, I>, I>>): I
  <G extends RouteGenericInterface = Record<never, never>, const S extends EnclaveSchema = Record<never, never>>(
    path: string,
    opts: RouteShorthandOptionsWithHandler<Typed<G, S, I>, I, S>
  ): I
}

/** `route(options)`, with the same inference as the shorthand methods. */
export interface RouteMethod<I = EnclaveInstance> {
  <G extends RouteGenericInterface = Record<never, never>, const S extends EnclaveSchema = Record<never, never>>(opts: RouteOptions<Typed<G, S, I>, I, S>): I
}

/** What `hasRoute()` and `findRoute()` look for. */
export interface RouteQuery {
  method: HTTPMethods | Lowercase<HTTPMethods> | string
  url: string
  constraints?: RouteConstraints
}

/** A route found by `findRoute()`. */
export interface FoundRoute {
  handler: RouteHandler<any, any>
  /** The parameter names of the pattern, mapped to themselves (`{ id: ':id' }`). */
  params: Record<string, string>
  searchParams: Record<string, string>
}
