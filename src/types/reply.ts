/**
 * The reply object. `send()` is checked against the route's response schemas: its payload must be one of the
 * declared payload types, and after `code(404)` the payload type declared for 404 (or `4xx`, or `default`).
 *
 * Add decorators to it by declaration merging:
 * `declare module 'enclave' { interface EnclaveReply { html(markup: string): EnclaveReply } }`.
 */
import type { EnclaveInstance } from './instance'
import type { EnclaveBaseLogger } from './logger'
import type { RawReplyDefault } from './raw'
import type { EnclaveContextConfig, EnclaveRequest, RequestRouteOptions } from './request'
import type { SerializerFunction } from './compilers'
import type { ReplyPayload, RouteGenericForStatus, RouteGenericInterface } from './route-generic'

/** A reply of any route (what a handler may return instead of a payload). */
export type AnyReply = EnclaveReply<any, any>

/** Computes the value of a trailer once the payload has been sent. */
export type TrailerFunction = (
  reply: AnyReply,
  payload: string | Buffer | null,
  done: (err: Error | null, value?: string) => void
) => void | Promise<string>

/**
 * The reply object.
 *
 * @typeParam G - the route generic: its `Reply` types `send()` and the handler's return value.
 * @typeParam ContextConfig - the type of the route's `config`.
 */
export interface EnclaveReply<G extends RouteGenericInterface = RouteGenericInterface, ContextConfig = EnclaveContextConfig> {
  /** Node's server response. */
  raw: RawReplyDefault
  /** The request this reply answers. */
  request: EnclaveRequest<G, ContextConfig>
  /** The instance of the encapsulation context the route belongs to. */
  server: EnclaveInstance
  /** The request's logger. */
  log: EnclaveBaseLogger
  /** The status code to send (200 by default); setting it is the same as `code()`. */
  statusCode: number
  /** Whether the response has been sent (or the reply hijacked). Only `true` may be assigned. */
  sent: boolean
  /** Milliseconds since the request was received. */
  readonly elapsedTime: number
  /** The route's options. */
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig>>
  /** @deprecated Use `routeOptions.config`. */
  readonly context: { config: ContextConfig }

  /** Sets the status code; the following `send()` is checked against that code's response schema. */
  code<Code extends number>(statusCode: Code): EnclaveReply<RouteGenericForStatus<G, Code>, ContextConfig>
  /** Alias of `code()`. */
  status<Code extends number>(statusCode: Code): EnclaveReply<RouteGenericForStatus<G, Code>, ContextConfig>
  /**
   * Sends the payload: an object or array is serialized (with the response schema of the status code when there is
   * one), a string, Buffer, typed array or stream is sent as it is, an Error goes to the error handler.
   */
  send(payload?: ReplyPayload<G> | Error): this
  /** Sets one header. */
  header(name: string, value: unknown): this
  /** Sets several headers. */
  headers(values: Record<string, unknown>): this
  getHeader(name: string): number | string | string[] | undefined
  getHeaders(): Record<string, number | string | string[] | undefined>
  removeHeader(name: string): this
  hasHeader(name: string): boolean
  /** Adds an HTTP trailer, computed after the payload. */
  trailer(name: string, fn: TrailerFunction): this
  hasTrailer(name: string): boolean
  removeTrailer(name: string): this
  /** Redirects to `url` (302 unless a code is given or already set). */
  redirect(url: string, statusCode?: number): this
  /** @deprecated Use `redirect(url, statusCode)`. */
  redirect(statusCode: number, url: string): this
  /** Answers with the not-found handler of the encapsulation context. */
  callNotFound(): void
  /** `await reply` waits until the response is fully written (`rejected` on a stream error). */
  then(fulfilled: () => void, rejected?: (err: Error) => void): void
  /** @deprecated Use `elapsedTime`. */
  getResponseTime(): number
  /** Sets the `Content-Type` header. */
  type(contentType: string): this
  /** Serializes a payload as `send()` would (the route's serializer for the status code, or JSON). */
  serialize(payload: unknown): string
  /** Serializes this reply's payload with `fn` instead of the route's serializer. */
  serializer(fn: (payload: any) => string): this
  /** Tells Enclave the response is written by hand on `reply.raw`: no hooks or sending after this. */
  hijack(): this
  /** The serializer compiled for a schema, or for a status code (and content type) of this route. */
  getSerializationFunction(httpStatus: string | number, contentType?: string): SerializerFunction | undefined
  getSerializationFunction(schema: object): SerializerFunction | undefined
  /** Compiles a schema with the route's serializer compiler (cached by schema). */
  compileSerializationSchema(schema: object, httpStatus?: string | number, contentType?: string): SerializerFunction
  /** Serializes data with a schema or with the response schema of a status code of this route. */
  serializeInput(data: unknown, schema: object, httpStatus?: string | number, contentType?: string): string
  serializeInput(data: unknown, httpStatus: string | number, contentType?: string): string
}
