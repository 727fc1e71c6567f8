/**
 * Factory options (`enclave(options)`) and `listen()` options. The factory rejects an unknown option name or a
 * value of the wrong type at construction (`FST_ERR_INIT_OPTS_INVALID`); these types catch the same at compile time.
 */
import type { Socket } from 'node:net'
import type * as http from 'node:http'
import type * as https from 'node:https'
import type { EnclaveInstance } from './instance'
import type { EnclaveRequest } from './request'
import type { EnclaveReply } from './reply'
import type { EnclaveError } from './errors'
import type { ChildLoggerFactory, EnclaveBaseLogger, EnclaveLoggerOptions } from './logger'
import type { AjvServerOptions, SchemaControllerOptions, SchemaErrorFormatter, SerializerServerOptions } from './compilers'
import type { RawRequestDefault, RawServerBase } from './raw'
import type { PoisoningAction } from './content-type-parser'

/** A custom route constraint (`addConstraintStrategy`): how to store handlers and derive a request's value. */
export interface ConstraintStrategy<Value = unknown> {
  name: string
  storage(): { get(value: Value): unknown, set(value: Value, store: unknown): void }
  deriveConstraint(request: RawRequestDefault, ctx?: unknown, done?: (err: Error | null, value?: Value) => void): Value | undefined
  mustMatchWhenDerived?: boolean
  validate?(value: unknown): void
}

/** The factory options. */
export interface EnclaveOptions {
  /** `true` for a pino logger, pino options, or a logger instance with pino's methods. Default `false`. */
  logger?: boolean | EnclaveLoggerOptions | EnclaveBaseLogger
  /** Do not log each request and response. */
  disableRequestLogging?: boolean
  /** Largest request body, in bytes (default 1 MiB). */
  bodyLimit?: number
  caseSensitive?: boolean
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  maxParamLength?: number
  /** Trust `X-Forwarded-*` headers: all, a hop count, addresses/subnets, or a predicate. */
  trustProxy?: boolean | number | string | string[] | ((address: string, hop: number) => boolean)
  genReqId?: (rawRequest: RawRequestDefault) => string
  /** The header carrying a request id to reuse, or `false`. */
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  onProtoPoisoning?: PoisoningAction
  onConstructorPoisoning?: PoisoningAction
  /** Milliseconds a plugin may take to load. */
  pluginTimeout?: number
  return503OnClosing?: boolean
  exposeHeadRoutes?: boolean
  https?: https.ServerOptions | null
  http2?: boolean
  http2SessionTimeout?: number
  connectionTimeout?: number
  keepAliveTimeout?: number
  requestTimeout?: number
  maxRequestsPerSocket?: number
  forceCloseConnections?: boolean | 'idle'
  /**
   * Enclave: how long `close()` lets in-flight requests finish before cutting the remaining connections (ms).
   * Default 10000; 0 waits without limit, as Fastify 4 does.
   */
  closeTimeout?: number
  /** Builds the server from Enclave's request listener. */
  serverFactory?: (handler: http.RequestListener, opts: EnclaveOptions) => RawServerBase
  querystringParser?: (querystring: string) => Record<string, unknown>
  /** Rewrites the URL before routing; `this` is the root instance. */
  rewriteUrl?: (this: EnclaveInstance, rawRequest: RawRequestDefault) => string
  /** Handles routing errors (bad URL, too long parameter) instead of the default 400. */
  frameworkErrors?: (error: EnclaveError, request: EnclaveRequest, reply: EnclaveReply) => void
  /** Answers client errors (malformed HTTP) on the socket. */
  clientErrorHandler?: (error: Error & { code?: string }, socket: Socket) => void
  constraints?: Record<string, ConstraintStrategy<any>>
  allowUnsafeRegex?: boolean
  useSemicolonDelimiter?: boolean
  /** Accept `{ name: { type: 'string' } }` as the properties of an object schema (default `true`). */
  jsonShorthand?: boolean
  /** Ajv options and plugins of the default validator compiler. */
  ajv?: AjvServerOptions
  /** Alias of `ajv`. */
  validator?: AjvServerOptions
  /** fast-json-stringify options of the default serializer compiler. */
  serializerOpts?: SerializerServerOptions
  schemaController?: SchemaControllerOptions
  schemaErrorFormatter?: SchemaErrorFormatter
  childLoggerFactory?: ChildLoggerFactory
  /**
   * Enclave only: keep the validators and serializers Enclave generates as code in `dir`, and load them on the next
   * start instead of generating and compiling them again (build it at image-build time with `enclave precompile`).
   * The directory holds code the application runs: give it the trust of `node_modules`. See docs/compile-cache.md.
   */
  compileCache?: { dir: string }
  /**
   * A custom strategy for the `version` route constraint: `deriveVersion` returns the request's version, or
   * `undefined` for a request that asks for none (only those reach unversioned routes).
   * @deprecated Use `constraints: { version }` (Fastify's FSTDEP009).
   */
  versioning?: { storage(): unknown, deriveVersion(request: RawRequestDefault, ctx?: unknown): string | undefined }
}

/** The options of `listen()`: Node's `server.listen` options plus a log text resolver. */
export interface ListenOptions {
  /** Default 0 (a free port). */
  port?: number
  /** Default `'localhost'`. */
  host?: string
  /** A Unix socket or Windows pipe, instead of port and host. */
  path?: string
  backlog?: number
  exclusive?: boolean
  readableAll?: boolean
  writableAll?: boolean
  ipv6Only?: boolean
  signal?: AbortSignal
  /** The text logged once listening. */
  listenTextResolver?: (address: string) => string
}

/** An address the server listens on. */
export interface ListenAddress {
  address: string
  family: string
  port: number
}
