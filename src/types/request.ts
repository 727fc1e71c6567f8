/**
 * The request object handlers and hooks receive. `body`, `query`, `params` and `headers` are typed by the route:
 * its generic (`app.get<{ Body: B }>(…)`), else its schema through the instance's type provider (Enclave's own
 * inference by default), else `unknown`.
 *
 * Add decorators to it by declaration merging:
 * `declare module 'fastify' { interface FastifyRequest { user: User } }` (or `'enclave-http'`).
 */
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyContextConfig, FastifyRequestContext, FastifyRouteConfig } from './context'
import type { FastifySchema, FastifySchemaValidationError } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type { RouteHandlerMethod } from './route'
import type { FastifyRequestType, FastifyTypeProvider, FastifyTypeProviderDefault, ResolveFastifyRequestType } from './type-provider'
import type { RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault, HTTPMethods } from './utils'
import type { AtLevel } from './level'

export type { RequestGenericInterface } from './route-generic'

/** Phantom key recording the route generic of a request type; it has no runtime value. */
declare const kRouteGeneric: unique symbol

/**
 * The route generic a request type was declared with (`RouteGenericInterface` for another type). Read from a
 * phantom property rather than with `FastifyRequest<infer G, …>`, which would make the checker measure the variance
 * of every type parameter of `FastifyRequest` for the first route of a program.
 */
export type RouteGenericOfRequest<Request> =
  Request extends { readonly [kRouteGeneric]?: infer RouteGeneric extends RouteGenericInterface } ? RouteGeneric : RouteGenericInterface

/** The request parts a validator can be looked up or compiled for. */
type HTTPRequestPart = 'body' | 'query' | 'querystring' | 'params' | 'headers'

/** A validation function, as `request.getValidationFunction()` returns it. */
export interface ValidationFunction {
  (input: any): boolean
  errors?: null | FastifySchemaValidationError[]
}

/** The route's options, as `request.routeOptions` gives them. */
export interface RequestRouteOptions<ContextConfig = ContextConfigDefault, SchemaCompiler = FastifySchema> {
  /** The route's method, or its list of methods (`string` at the Fastify 4 level, as Fastify 4 types it). */
  method: AtLevel<string, HTTPMethods | HTTPMethods[]>
  /** The path pattern of the route, with its prefix (`undefined` for a request no route matched). */
  url: string | undefined
  bodyLimit: number
  /** The route's `handlerTimeout`, else the factory's; 0 when the route has no time limit. */
  handlerTimeout: number
  attachValidation: boolean
  logLevel: string
  version: string | undefined
  exposeHeadRoute: boolean
  prefixTrailingSlash: string
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
  /** Absent for a request no route matched. */
  schema?: SchemaCompiler
  handler: RouteHandlerMethod
}

/**
 * The request object: Node's request (`raw`) with the route's parsed and validated parts.
 *
 * @typeParam RouteGeneric - the route generic: the types of `body`, `query`, `params` and `headers` when given.
 * @typeParam SchemaCompiler - the route's schema, which types the parts the generic does not give.
 * @typeParam TypeProvider - how the schema becomes types (Enclave's inference by default).
 * @typeParam ContextConfig - the type of the route's `config`.
 */
export interface FastifyRequest<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ContextConfig = ContextConfigDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  RequestType extends FastifyRequestType = ResolveFastifyRequestType<TypeProvider, SchemaCompiler, RouteGeneric>
> {
  /** Phantom: the route generic, for routes that take it from a handler declared apart; no runtime value. */
  readonly [kRouteGeneric]?: RouteGeneric
  /** The request id (`genReqId`, or the `request-id` header). */
  id: string
  /** The route's path parameters, validated and coerced by `schema.params`. */
  params: RequestType['params']
  /** Node's incoming message. */
  raw: RawRequest
  /** The parsed querystring, validated and coerced by `schema.querystring`. */
  query: RequestType['query']
  /** The request headers (lower-case names), validated by `schema.headers`. */
  headers: RawRequest['headers'] & RequestType['headers']
  /** This request's logger (a child of the instance logger with `reqId`). */
  log: Logger
  /** The instance of the encapsulation context the route belongs to. */
  server: FastifyInstance
  /** The parsed body (see content-type parsers), validated by `schema.body`. */
  body: RequestType['body']
  /** @deprecated Use `routeOptions.config`. */
  context: FastifyRequestContext<ContextConfig>
  /** @deprecated Use `routeOptions.config`. */
  routeConfig: FastifyRequestContext<ContextConfig>['config']
  /** @deprecated Use `routeOptions.schema`. */
  routeSchema?: FastifySchema
  /** The validation error, when the route has `attachValidation: true` and validation failed. */
  validationError?: Error & { validation: any, validationContext: string }
  /** The client address (the forwarded one when `trustProxy` allows). */
  readonly ip: string
  /** All addresses of the forwarding chain, closest first; only with `trustProxy`. */
  readonly ips?: string[]
  /**
   * The host the client asked for, port included: the `Host` header (the last `X-Forwarded-Host` entry from a proxy
   * `trustProxy` trusts, `:authority` on HTTP/2); `''` when there is none (HTTP/1.0, `requireHostHeader: false`).
   */
  readonly host: string
  /**
   * The host's name. Fastify 4 level: `host` as sent, port included (`example.com:8080`); Fastify 5 level: without
   * the port (`example.com`; an IPv6 address keeps its brackets, `[::1]`).
   */
  readonly hostname: string
  /** The port at the end of `host`, or `null` when it has none. */
  readonly port: number | null
  /** The media type of the `Content-Type` header (`application/json`), lower-cased; `undefined` without a valid one. */
  readonly mediaType: string | undefined
  readonly url: string
  /** The URL before `rewriteUrl`. */
  readonly originalUrl: string
  readonly protocol: 'http' | 'https'
  readonly method: string
  /** @deprecated Use `routeOptions.url`. */
  readonly routerPath: string
  /** @deprecated Use `routeOptions.method`. */
  readonly routerMethod: string
  /** The route's options: method, url, config, schema, limits. */
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig, SchemaCompiler>>
  /** Whether the request is answered by a not-found handler. */
  readonly is404: boolean
  readonly socket: RawRequest['socket']
  /**
   * Aborts when the route's `handlerTimeout` passes (reason: FST_ERR_HANDLER_TIMEOUT) or the client goes away before
   * the response is complete (reason: an `AbortError`). Created on first read unless the route has a time limit.
   */
  readonly signal: AbortSignal
  /** @deprecated Use `socket`. */
  readonly connection: RawRequest['socket']

  /** The validation function compiled for a request part of this route, or for a schema. */
  getValidationFunction(httpPart: HTTPRequestPart): AtLevel<ValidationFunction, ValidationFunction | undefined>
  getValidationFunction(schema: { [key: string]: any }): AtLevel<ValidationFunction, ValidationFunction | undefined>
  /** Compiles a schema with the route's validator compiler (cached by schema). */
  compileValidationSchema(schema: { [key: string]: any }, httpPart?: HTTPRequestPart): ValidationFunction
  /** Validates data against a schema or a request part of this route; returns whether it is valid. */
  validateInput(input: any, schema: { [key: string]: any }, httpPart?: HTTPRequestPart): boolean
  validateInput(input: any, httpPart?: HTTPRequestPart): boolean
  /** The value of a request decorator (FST_ERR_DEC_UNDECLARED when there is none); `T` is its type. */
  getDecorator<T>(name: string | symbol): T
  /** Sets a request decorator declared with `decorateRequest()` on this request (FST_ERR_DEC_UNDECLARED otherwise). */
  setDecorator<T = unknown>(name: string | symbol, value: T): void
}

export type { FastifyRequest as EnclaveRequest }
