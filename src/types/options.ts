/**
 * Factory options (`enclave(options)`) and `listen()` options. The factory rejects an unknown option name or a
 * value of the wrong type at construction (`FST_ERR_INIT_OPTS_INVALID`); these types catch the same at compile time.
 * The server type follows the options: `https` gives an HTTPS server, `http2: true` an HTTP/2 one (see factory.ts).
 */
import type { Socket } from 'node:net'
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { ConstraintStrategy, HTTPVersion } from 'find-my-way'
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyRequest, RequestGenericInterface } from './request'
import type { ReplyOf } from './reply'
import type { FastifyContextConfig } from './context'
import type { FastifyBaseLogger, FastifyChildLoggerFactory, FastifyLoggerOptions, PinoLoggerOptions } from './logger'
import type { AjvServerOptions, FastifySchema, FastifySchemaControllerOptions, SchemaErrorFormatter, SerializerServerOptions } from './compilers'
import type { ConstructorAction, ProtoAction } from './content-type-parser'
import type { FastifyServerFactory } from './server-factory'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { AtLevel } from './level'

/** find-my-way's HTTP version of a server type (its constraint strategies are typed by it). */
export type FindMyWayVersion<RawServer extends RawServerBase> = RawServer extends http.Server ? HTTPVersion.V1 : HTTPVersion.V2

type RawIn<RawServer extends RawServerBase> = RawRequestDefaultExpression<RawServer>
type RawOut<RawServer extends RawServerBase> = RawReplyDefaultExpression<RawServer>

/** The `routerOptions` factory option: find-my-way's settings, and what Enclave adds to them. */
export interface FastifyRouterOptions<RawServer extends RawServerBase = RawServerDefault> {
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  caseSensitive?: boolean
  maxParamLength?: number
  allowUnsafeRegex?: boolean
  useSemicolonDelimiter?: boolean
  querystringParser?: (str: string) => { [key: string]: unknown }
  /** Strategies of any value type, and assignable to find-my-way's `Config` (whose strategies take strings). */
  constraints?: { [name: string]: ConstraintStrategy<FindMyWayVersion<RawServer>, any> }
  /** Shapes each route's metadata in `printRoutes({ includeMeta })`. */
  buildPrettyMeta?: (route: { path: string, method: string, store: unknown }) => object
  /** Compile the router's lookup functions when the application becomes ready. */
  compile?: boolean
  /** Every unmatched request, instead of the not-found handlers. */
  defaultRoute?: (req: RawIn<RawServer>, res: RawOut<RawServer>) => void
  /** A URL with a bad percent-encoding (default: 400 FST_ERR_BAD_URL). */
  onBadUrl?: (path: string, req: RawIn<RawServer>, res: RawOut<RawServer>) => void
  /** A parameter longer than `maxParamLength` (default: 414 at the Fastify 5 level, not found at the Fastify 4 level). */
  onMaxParamLength?: (path: string, req: RawIn<RawServer>, res: RawOut<RawServer>) => void
  [option: string]: unknown
}

/** An error of a client connection, as `clientErrorHandler` receives it. */
export interface ConnectionError extends Error {
  code: string
  bytesParsed: number
  rawPacket: { type: string, data: number[] }
}

type TrustProxyFunction = (address: string, hop: number) => boolean

/** The factory options. */
export interface FastifyServerOptions<RawServer extends RawServerBase = RawServerDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger> {
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  connectionTimeout?: number
  keepAliveTimeout?: number
  maxRequestsPerSocket?: number
  forceCloseConnections?: boolean | 'idle'
  requestTimeout?: number
  /**
   * Milliseconds each route has to answer, from routing to the response being sent (default 0: no limit). When it
   * passes, `request.signal` aborts and the route's error handler gets FST_ERR_HANDLER_TIMEOUT (503).
   */
  handlerTimeout?: number
  /** Milliseconds a plugin may take to load. */
  pluginTimeout?: number
  /** Largest request body, in bytes (default 1 MiB). */
  bodyLimit?: number
  maxParamLength?: number
  /** Do not log each request and response. */
  disableRequestLogging?: boolean | ((request: FastifyRequest) => boolean)
  /** Makes each request's child logger (`logger.child(bindings, options)` by default). */
  childLoggerFactory?: FastifyChildLoggerFactory
  exposeHeadRoutes?: boolean
  /** `false`: a second `setErrorHandler()` in the same scope throws FST_ERR_ERROR_HANDLER_ALREADY_SET (default `true`). */
  allowErrorHandlerOverride?: boolean
  onProtoPoisoning?: ProtoAction
  onConstructorPoisoning?: ConstructorAction
  /** `true` for a pino logger, pino options, or a logger instance with pino's methods. Default `false`. */
  logger?: boolean | (FastifyLoggerOptions<RawServer> & PinoLoggerOptions) | Logger
  /** A logger instance with pino's methods (Fastify 5's option; at the Fastify 4 level `logger` takes one too). */
  loggerInstance?: Logger
  /** fast-json-stringify options of the default serializer compiler. */
  serializerOpts?: SerializerServerOptions
  /** Builds the server from Enclave's request listener. */
  serverFactory?: FastifyServerFactory<RawServer>
  caseSensitive?: boolean
  allowUnsafeRegex?: boolean
  /** The header carrying a request id to reuse, or `false`. */
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  useSemicolonDelimiter?: boolean
  /** Accept `{ name: { type: 'string' } }` as the properties of an object schema (default `true`). */
  jsonShorthand?: boolean
  genReqId?: (req: RawRequestDefaultExpression<RawServer>) => string
  /** Trust `X-Forwarded-*` headers: all, a hop count, addresses/subnets, or a predicate. */
  /** A hop count (a number) is Fastify 4's typing; Fastify 5 types accept it no more (Enclave's runtime does at both). */
  trustProxy?: boolean | string | string[] | AtLevel<number, never> | TrustProxyFunction
  querystringParser?: (str: string) => { [key: string]: unknown }
  /**
   * Fastify 5's grouping of the router's settings (both levels): a setting here wins over the same option at the top
   * level (which the Fastify 5 level deprecates, FSTDEP022). Other find-my-way options pass through.
   */
  routerOptions?: FastifyRouterOptions<RawServer>
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
  versioning?: {
    storage(): {
      get(version: string): string | null | unknown
      set(version: string, store: any): void
      del?(version: string): void
      empty?(): void
    }
    /** The raw request (Fastify types it `Object`); a method, so a function typed for Fastify still fits. */
    deriveVersion<Context>(req: RawRequestDefaultExpression<RawServer>, ctx?: Context): string | undefined
  }
  /** Custom route constraints by name (`addConstraintStrategy` adds one later). */
  /** Strategies of any value type, and assignable to find-my-way's `Config` (whose strategies take strings). */
  constraints?: { [name: string]: ConstraintStrategy<FindMyWayVersion<RawServer>, any> }
  schemaController?: FastifySchemaControllerOptions
  return503OnClosing?: boolean
  /** Ajv options and plugins of the default validator compiler. */
  ajv?: AjvServerOptions
  /** Enclave: alias of `ajv`. */
  validator?: AjvServerOptions
  /** Handles routing errors (bad URL, too long parameter) instead of the default 400. */
  frameworkErrors?: <RequestGeneric extends RequestGenericInterface = RequestGenericInterface, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    error: FastifyError,
    req: FastifyRequest<RequestGeneric, RawServer, RawRequestDefaultExpression<RawServer>, FastifySchema, TypeProvider>,
    res: ReplyOf<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, RequestGeneric, FastifyContextConfig, SchemaCompiler, TypeProvider>
  ) => void
  /** Rewrites the URL before routing; `this` is the root instance. */
  rewriteUrl?: (
    this: FastifyInstance<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, Logger, FastifyTypeProviderDefault>,
    req: RawRequestDefaultExpression<RawServer>
  ) => string
  schemaErrorFormatter?: SchemaErrorFormatter
  /** Answers client errors (malformed HTTP) on the socket. */
  clientErrorHandler?: (error: ConnectionError, socket: Socket) => void
  /** HTTPS server options (see the HTTPS and HTTP/2 option types). */
  https?: https.ServerOptions | http2.SecureServerOptions | null
  /** Serve HTTP/2 (with `https`, HTTP/2 over TLS). */
  http2?: boolean
  http2SessionTimeout?: number
  /** Node's `http.createServer` options. */
  http?: http.ServerOptions | null
  /**
   * Enclave: how long `close()` lets in-flight requests finish before cutting the remaining connections (ms).
   * Default 10000; 0 waits without limit, as Fastify 4 does.
   */
  closeTimeout?: number
}

/** Options giving an HTTP/1.1 server. */
export type FastifyHttpOptions<Server extends http.Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http?: http.ServerOptions | null }

/** Options giving an HTTPS server. */
export type FastifyHttpsOptions<Server extends https.Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { https: https.ServerOptions | null }

/** Options giving an HTTP/2 server without TLS. */
export type FastifyHttp2Options<Server extends http2.Http2Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http2: true, http2SessionTimeout?: number }

/** Options giving an HTTP/2 server over TLS. */
export type FastifyHttp2SecureOptions<Server extends http2.Http2SecureServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http2: true, https: http2.SecureServerOptions, http2SessionTimeout?: number }

/** The options of `listen()`: Node's `server.listen` options plus a log text resolver. */
export interface FastifyListenOptions {
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
  /** Closes the instance when aborted. */
  signal?: AbortSignal
  /** The text logged once listening. */
  listenTextResolver?: (address: string) => string
}

/** Enclave's names for the option types. */
export type EnclaveOptions = FastifyServerOptions
export type ListenOptions = FastifyListenOptions
