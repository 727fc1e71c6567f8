/**
 * The reply object. `send()` is checked against the route's reply type: its generic's `Reply`, or its response
 * schemas through the type provider. After `code(404)`, only the payload declared for 404 (or `4xx`, or
 * `default`) is accepted.
 *
 * Add decorators to it by declaration merging:
 * `declare module 'fastify' { interface FastifyReply { html(markup: string): FastifyReply } }` (or `'enclave-http'`).
 */
import type { Buffer } from 'node:buffer'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyReplyContext } from './context'
import type { FastifyRequest, RequestRouteOptions } from './request'
import type { FastifySchema } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type {
  FastifyReplyType, FastifyTypeProvider, FastifyTypeProviderDefault, ResolveFastifyReplyType, ResolveReplyTypeWithRouteGeneric
} from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault, HttpHeader, ReplyKeysToCodes } from './utils'
import type { AtLevel } from './level'

export type { ReplyGenericInterface } from './route-generic'
export type { ResolveReplyTypeWithRouteGeneric } from './type-provider'

/**
 * What every reply has: a handler may return its reply (having sent with it) instead of a payload. Structural rather
 * than `FastifyReply<any, …>`, which would make the checker relate the request and reply types of every route.
 */
export interface AnyReply {
  readonly raw: unknown
  sent: boolean
  hijack(): unknown
}

/**
 * `send()`'s arguments at the Fastify 5 level: the payload may be left out only when the reply type does not say
 * (unknown) or says nothing is sent (`undefined`, `void`, `never`); a declared reply type must be sent. (The whole
 * type is tested with `NoInfer<…> extends`, not `[…] extends […]`: see `UndefinedToUnknown` in type-provider.ts.)
 */
export type SendArgs<ReplyType> = unknown extends ReplyType ? [payload?: ReplyType]
  : NoInfer<ReplyType> extends undefined | void ? [payload?: ReplyType] : [payload: ReplyType]

/**
 * The status codes `code()` and `status()` take: those of the route generic's `Reply` keys (any code without them).
 * At the Fastify 5 level, as in Fastify 5, a response schema listing codes only (`200`, `500`, no `4xx` or `default`)
 * limits them to its codes, when they are among the generic's.
 */
type ReplyCodes<RouteGeneric extends RouteGenericInterface, SchemaCompiler extends FastifySchema> =
  SchemaCodesOr<AtLevel<never, keyof SchemaCompiler['response']>, ReplyKeysToCodes<keyof RouteGeneric['Reply']>>

/** `SchemaCodes` when there are some and all are among `Codes`, else `Codes`. */
type SchemaCodesOr<SchemaCodes, Codes> = [SchemaCodes] extends [never] ? Codes : [SchemaCodes] extends [Codes] ? SchemaCodes : Codes

/** A serializer compiled for a schema: data in, JSON text out. */
type SerializationFunction = (payload: { [key: string]: unknown }) => string

/**
 * The reply object: Node's response (`raw`) with the sending API.
 *
 * Its first four type parameters are the ones Fastify 5 reordered: at the Fastify 4 level `FastifyReply<RawServer,
 * RawRequest, RawReply, RouteGeneric, …>`, at the Fastify 5 level `FastifyReply<RouteGeneric, RawServer, RawRequest,
 * RawReply, …>` (src/types/level.ts). They are named by position, and read by role with `AtLevel`; `ReplyOf` below
 * takes them by role. The other four are the same at both levels.
 *
 * @typeParam ContextConfig - the route's `config`.
 * @typeParam SchemaCompiler - the route's schema, whose `response` types the reply when the generic does not.
 * @typeParam TypeProvider - the type provider the route was declared with.
 * @typeParam ReplyType - what `send()` accepts (computed from the above; `code()` narrows it).
 */
export interface FastifyReply<
  First extends AtLevel<RawServerBase, RouteGenericInterface> = AtLevel<RawServerDefault, RouteGenericInterface>,
  Second extends AtLevel<RawRequestDefaultExpression<First>, RawServerBase> = AtLevel<RawRequestDefaultExpression<First>, RawServerDefault>,
  Third extends AtLevel<RawReplyDefaultExpression<First>, RawRequestDefaultExpression<Second>> = AtLevel<RawReplyDefaultExpression<First>, RawRequestDefaultExpression<Second>>,
  Fourth extends AtLevel<RouteGenericInterface, RawReplyDefaultExpression<Second>> = AtLevel<RouteGenericInterface, RawReplyDefaultExpression<Second>>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType extends FastifyReplyType = ResolveFastifyReplyType<TypeProvider, SchemaCompiler, AtLevel<Fourth, First>>
> {
  /** Node's server response. */
  raw: AtLevel<Third, Fourth>
  /** @deprecated Use `routeOptions.config`. */
  context: FastifyReplyContext<ContextConfig>
  /** The route's options. */
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig, SchemaCompiler>>
  /** Milliseconds since the request was received. */
  elapsedTime: number
  /** The media type of the `Content-Type` set so far (`reply.type()`, `header()`, `raw.setHeader()`), lower-cased; `undefined` without one. */
  readonly mediaType: string | undefined
  /** The request's logger. */
  log: FastifyBaseLogger
  /** The request this reply answers. */
  request: FastifyRequest<AtLevel<Fourth, First>, AtLevel<First, Second>, AtLevel<Second, Third>, SchemaCompiler, TypeProvider>
  /** The instance of the encapsulation context the route belongs to. */
  server: FastifyInstance
  /** Sets the status code; the following `send()` is checked against that code's reply type. */
  code<Code extends ReplyCodes<AtLevel<Fourth, First>, SchemaCompiler>>(statusCode: Code): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider, ResolveReplyTypeWithRouteGeneric<AtLevel<Fourth, First>['Reply'], Code, SchemaCompiler, TypeProvider>>
  /** Alias of `code()`. */
  status<Code extends ReplyCodes<AtLevel<Fourth, First>, SchemaCompiler>>(statusCode: Code): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider, ResolveReplyTypeWithRouteGeneric<AtLevel<Fourth, First>['Reply'], Code, SchemaCompiler, TypeProvider>>
  /** The status code to send (200 by default); setting it is the same as `code()`. */
  statusCode: number
  /** Whether the response has been sent (or the reply hijacked). Only `true` may be assigned. */
  sent: boolean
  /**
   * Sends the payload: an object or array is serialized (with the response schema of the status code when there is
   * one), a string, Buffer, typed array or stream is sent as it is, an Error goes to the error handler.
   */
  send(...args: AtLevel<[payload?: ReplyType], SendArgs<ReplyType>>): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /** Sets one header. */
  header(key: HttpHeader, value: any): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /** Sets several headers. */
  headers(values: Partial<Record<HttpHeader, number | string | string[] | undefined>>): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  getHeader(key: HttpHeader): number | string | string[] | undefined
  getHeaders(): Record<HttpHeader, number | string | string[] | undefined>
  removeHeader(key: HttpHeader): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  hasHeader(key: HttpHeader): boolean
  /**
   * Redirects to `url` (302 unless a code is given or already set). Fastify 4's `redirect(statusCode, url)` is typed
   * at the Fastify 4 level only (deprecated); Enclave's runtime takes both orders at both levels.
   */
  redirect: AtLevel<{
    /** @deprecated Use `redirect(url, statusCode)`. */
    (statusCode: number, url: string): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
    (url: string, statusCode?: number): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  }, (url: string, statusCode?: number) => FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>>
  /** Tells Enclave the response is written by hand on `reply.raw`: no hooks or sending after this. */
  hijack(): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /** Answers with the not-found handler of the encapsulation context. */
  callNotFound(): void
  /** @deprecated Use `elapsedTime`. */
  getResponseTime(): number
  /** Sets the `Content-Type` header. */
  type(contentType: string): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /** Serializes this reply's payload with `fn` instead of the route's serializer. */
  serializer(fn: (payload: any) => string): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /** Serializes a payload as `send()` would (the route's serializer for the status code, or JSON). */
  serialize(payload: any): string | ArrayBuffer | Buffer
  /** The serializer compiled for a status code (and content type) of this route, or for a schema. */
  getSerializationFunction(httpStatus: string, contentType?: string): SerializationFunction | undefined
  getSerializationFunction(schema: { [key: string]: unknown }): SerializationFunction | undefined
  /** Compiles a schema with the route's serializer compiler (cached by schema). */
  compileSerializationSchema(schema: { [key: string]: unknown }, httpStatus?: string, contentType?: string): SerializationFunction
  /** Serializes data with a schema, or with the response schema of a status code of this route. */
  serializeInput(input: { [key: string]: unknown }, schema: { [key: string]: unknown }, httpStatus?: string, contentType?: string): string
  serializeInput(input: { [key: string]: unknown }, httpStatus: string, contentType?: string): unknown
  /** `await reply` waits until the response is fully written (`rejected` on a stream error). */
  then(fulfilled: () => void, rejected: (err: Error) => void): void
  /** Adds an HTTP trailer, computed once the payload is sent. */
  trailer: (
    key: string,
    fn: ((reply: FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>, payload: string | Buffer | null) => Promise<string>)
      | ((reply: FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>, payload: string | Buffer | null, done: (err: Error | null, value?: string) => void) => void)
  ) => FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  hasTrailer(key: string): boolean
  removeTrailer(key: string): FastifyReply<First, Second, Third, Fourth, ContextConfig, SchemaCompiler, TypeProvider>
  /**
   * Sends a `103 Early Hints` informational response (`Link` preloads, …) before the final one; `callback` runs once
   * it is written. Over HTTP/2 the hints travel as an informational HEADERS frame.
   */
  writeEarlyHints: (hints: Record<string, string | string[]>, callback?: () => void) => void
  /** The value of a reply decorator (FST_ERR_DEC_UNDECLARED when there is none); `T` is its type. */
  getDecorator<T>(name: string | symbol): T
}

export type { FastifyReply as EnclaveReply }

/**
 * `FastifyReply` with its parameters given by role, in Fastify 4's order, whatever the level: what Enclave's own
 * types (hooks, handlers, options) write, so that they mean the same reply at both levels.
 */
export type ReplyOf<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> = FastifyReply<
  AtLevel<RawServer, RouteGeneric>, AtLevel<RawRequest, RawServer>, AtLevel<RawReply, RawRequest>, AtLevel<RouteGeneric, RawReply>,
  ContextConfig, SchemaCompiler, TypeProvider
>
