/**
 * The factory: `enclave(options)` (also exported as `fastify`, and as the module's default export) creates a root
 * instance. The instance type follows the options: an HTTPS server with `https`, an HTTP/2 one with `http2: true`
 * (over TLS with `https` too), and the logger type of a logger instance given as `logger`.
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { FastifyErrorCodes } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyHttp2Options, FastifyHttp2SecureOptions, FastifyHttpOptions, FastifyHttpsOptions } from './options'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression } from './raw'
import type { InstancePromiseLike } from './utils'

/** The root instance the factory returns: an instance, and a promise of it once every plugin is loaded. */
type RootInstance<Server extends http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer, Request extends RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger, TypeProvider extends FastifyTypeProvider> =
  FastifyInstance<Server, Request, Reply, Logger, TypeProvider> & InstancePromiseLike<FastifyInstance<Server, Request, Reply, Logger, TypeProvider>>

/** The type of the factory export. */
export interface EnclaveFactory {
  <
    Server extends http2.Http2SecureServer,
    Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>,
    Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
  >(opts: FastifyHttp2SecureOptions<Server, Logger>): RootInstance<Server, Request, Reply, Logger, TypeProvider>
  <
    Server extends http2.Http2Server,
    Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>,
    Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
  >(opts: FastifyHttp2Options<Server, Logger>): RootInstance<Server, Request, Reply, Logger, TypeProvider>
  <
    Server extends https.Server,
    Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>,
    Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
  >(opts: FastifyHttpsOptions<Server, Logger>): RootInstance<Server, Request, Reply, Logger, TypeProvider>
  <
    Server extends http.Server,
    Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>,
    Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
  >(opts?: FastifyHttpOptions<Server, Logger>): RootInstance<Server, Request, Reply, Logger, TypeProvider>
  /** The factory itself, for `import enclave from 'enclave-http'` under CommonJS interop. */
  default: EnclaveFactory
  /** The factory itself, for `import { enclave } from 'enclave-http'`. */
  enclave: EnclaveFactory
  /** The factory itself under Fastify's name, for `import { fastify } from 'fastify'`. */
  fastify: EnclaveFactory
  /** Every error class, by code name (`errorCodes.FST_ERR_NOT_FOUND`). */
  errorCodes: FastifyErrorCodes
  /**
   * Enclave only: readies an application created with `compileCache: { dir }` and writes its compile cache (every
   * generated validator and serializer, with V8's code cache), for a warm first start. See docs/compile-cache.md.
   */
  precompile (app: FastifyInstance<any, any, any, any, any>): Promise<PrecompileResult>
}

/** What `precompile` wrote. */
export interface PrecompileResult {
  /** The pack file written. */
  file: string
  /** Generated validators and serializers it holds. */
  entries: number
  /** Stale files of the cache removed from the directory: packs of other fingerprints unused for a month, abandoned temporary files. */
  removed: string[]
  /** The Node version and flags the V8 code cache written serves: a service started with other flags needs a run under them too. */
  codeCacheFor: string
}
