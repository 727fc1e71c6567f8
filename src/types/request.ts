/**
 * The request object handlers and hooks receive. `body`, `query`, `params` and `headers` are typed by the route
 * generic: inferred from the route's schemas, or given as in Fastify (`app.get<{ Body: B }>(…)`).
 *
 * Add decorators to it by declaration merging:
 * `declare module 'enclave' { interface EnclaveRequest { user: User } }`.
 */
import type { Socket } from 'node:net'
import type { EnclaveInstance } from './instance'
import type { EnclaveBaseLogger, LogLevel } from './logger'
import type { RawRequestDefault, RawRequestHeaders } from './raw'
import type { HttpPart, ValidatorFunction } from './compilers'
import type { EnclaveError } from './errors'
import type { EnclaveSchema, RouteGenericInterface } from './route-generic'
import type { HTTPMethods, RouteHandler } from './route'

/**
 * The `config` option of a route, as `request.routeOptions.config` shows it. Declare the keys your routes use by
 * declaration merging: `declare module 'enclave' { interface EnclaveContextConfig { public: boolean } }`.
 */
export interface EnclaveContextConfig {
  [key: string]: unknown
}

/** The body type of a route generic (`unknown` when not given). */
export type RequestBody<G> = G extends { Body: infer B } ? B : unknown
/** The querystring type of a route generic (`unknown` when not given). */
export type RequestQuerystring<G> = G extends { Querystring: infer Q } ? Q : unknown
/** The params type of a route generic (`unknown` when not given). */
export type RequestParams<G> = G extends { Params: infer P } ? P : unknown
/** The headers of a route generic, on top of Node's parsed headers. */
export type RequestHeaders<G> = RawRequestHeaders & (G extends { Headers: infer H } ? H : unknown)

/** The route's options, as `request.routeOptions` gives them. */
export interface RequestRouteOptions<ContextConfig = EnclaveContextConfig> {
  method: HTTPMethods | HTTPMethods[] | string | string[]
  /** The path pattern of the route, with its prefix. */
  url: string
  bodyLimit: number
  attachValidation: boolean
  logLevel: LogLevel | string
  config: ContextConfig
  schema?: EnclaveSchema
  handler: RouteHandler<any, any>
  version?: string
  exposeHeadRoute: boolean
  prefixTrailingSlash: 'slash' | 'no-slash' | 'both'
}

/**
 * The request object.
 *
 * @typeParam G - the route generic: the types of `body`, `query`, `params` and `headers`.
 * @typeParam ContextConfig - the type of the route's `config`.
 */
export interface EnclaveRequest<G extends RouteGenericInterface = RouteGenericInterface, ContextConfig = EnclaveContextConfig> {
  /** The request id (`genReqId`, or the `request-id` header). */
  id: string
  /** The route's path parameters, validated and coerced by `schema.params`. */
  params: RequestParams<G>
  /** The parsed querystring, validated and coerced by `schema.querystring`. */
  query: RequestQuerystring<G>
  /** The parsed body (see content-type parsers), validated by `schema.body`. */
  body: RequestBody<G>
  /** The request headers (lower-case names), validated by `schema.headers`. */
  headers: RequestHeaders<G>
  /** Node's incoming message. */
  raw: RawRequestDefault
  /** The instance of the encapsulation context the route belongs to. */
  server: EnclaveInstance
  /** This request's logger (a child of the instance logger with `reqId`). */
  log: EnclaveBaseLogger
  /** The client address (the forwarded one when `trustProxy` allows). */
  readonly ip: string
  /** All addresses of the forwarding chain, closest first; only with `trustProxy`. */
  readonly ips?: string[]
  /** The `Host` header (`X-Forwarded-Host` with `trustProxy`, `:authority` on HTTP/2). */
  readonly hostname: string
  readonly protocol: 'http' | 'https'
  readonly method: string
  readonly url: string
  /** The URL before `rewriteUrl`. */
  readonly originalUrl: string
  readonly socket: Socket
  /** @deprecated Use `socket`. */
  readonly connection: Socket
  /** The route's options: method, url, config, schema, limits. */
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig>>
  /** @deprecated Use `routeOptions.config`. */
  readonly routeConfig: ContextConfig
  /** @deprecated Use `routeOptions.url`. */
  readonly routerPath: string
  /** @deprecated Use `routeOptions.method`. */
  readonly routerMethod: string
  /** @deprecated Use `routeOptions.schema`. */
  readonly routeSchema?: EnclaveSchema
  /** @deprecated Use `routeOptions.config`. */
  readonly context: { config: ContextConfig }
  /** Whether the request is answered by a not-found handler. */
  readonly is404: boolean
  /** The validation error, when the route has `attachValidation: true` and validation failed. */
  validationError?: EnclaveError
  /** The validation function compiled for a schema or for a request part of this route. */
  getValidationFunction(httpPart: HttpPart): ValidatorFunction | undefined
  getValidationFunction(schema: object): ValidatorFunction | undefined
  /** Compiles a schema with the route's validator compiler (cached by schema). */
  compileValidationSchema(schema: object, httpPart?: HttpPart): ValidatorFunction
  /** Validates data against a schema or a request part of this route; returns whether it is valid. */
  validateInput(input: unknown, schema: object, httpPart?: HttpPart): boolean
  validateInput(input: unknown, httpPart: HttpPart): boolean
}
