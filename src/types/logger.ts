/**
 * Logger types. Enclave logs with pino: `app.log` and `request.log` are pino loggers, or any object with the same
 * methods given as the `logger` option (its type then flows to `app.log` and `request.log`).
 */
import type pino from 'pino'
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { ReplyOf } from './reply'
import type { FastifyRequest } from './request'
import type { RouteGenericInterface } from './route-generic'
import type { FastifySchema } from './compilers'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault } from './utils'

/** A logging method (`log.info(obj?, msg?, ...args)`). */
export type FastifyLogFn = pino.LogFn
/** A log level, or `'silent'`. */
export type LogLevel = pino.LevelWithSilent
export type Bindings = pino.Bindings
export type ChildLoggerOptions = pino.ChildLoggerOptions
export type PinoLoggerOptions = pino.LoggerOptions

/**
 * What Enclave needs from a logger: pino's level and logging methods, and `child()` returning a logger of the same
 * kind. (Not pino's `msgPrefix`, which newer pino releases add: a hand-written logger need not have it.)
 */
export interface FastifyBaseLogger extends Pick<pino.BaseLogger, 'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'> {
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger
}

/** @deprecated Use {@link FastifyBaseLogger}. */
export type FastifyLoggerInstance = FastifyBaseLogger

/** Where the logs go when the `logger` option has a `stream`. */
export interface FastifyLoggerStreamDestination {
  write(msg: string): void
}

/** The reply given to the `res` log serializer: only `statusCode` is sure to be there. */
export type ResSerializerReply<_RawServer extends RawServerBase, RawReply> = Partial<RawReply> & Pick<RawReply, 'statusCode' & keyof RawReply>

type DefaultRequest<S extends RawServerBase> = FastifyRequest<RouteGenericInterface, S, RawRequestDefaultExpression<S>, FastifySchema, FastifyTypeProviderDefault>
type DefaultReply<S extends RawServerBase> = ReplyOf<S, RawRequestDefaultExpression<S>, RawReplyDefaultExpression<S>, RouteGenericInterface, ContextConfigDefault, FastifySchema, FastifyTypeProviderDefault>

/**
 * The `logger` factory option as an object: pino's options, plus serializers, a destination `stream` or a `file`.
 * (`RawRequest` and `RawReply` are the request and reply types the serializers receive.)
 */
export interface FastifyLoggerOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest = DefaultRequest<RawServer>,
  RawReply = DefaultReply<RawServer>
> {
  serializers?: {
    req?: (req: RawRequest) => {
      method?: string
      url?: string
      version?: string
      hostname?: string
      remoteAddress?: string
      remotePort?: number
      [key: string]: unknown
    }
    err?: (err: FastifyError) => { type: string, message: string, stack: string, [key: string]: unknown }
    res?: (res: ResSerializerReply<RawServer, RawReply>) => { statusCode?: string | number, [key: string]: unknown }
  }
  level?: string
  /** Write the logs to this file (not with `stream`). */
  file?: string
  genReqId?: (req: RawRequest) => string
  /** Write the logs to this stream (not with `file`). */
  stream?: FastifyLoggerStreamDestination
}

/**
 * Creates the logger of each request. Called with the instance as `this`, the parent logger, the default bindings
 * (`{ reqId }`), child options and Node's raw request.
 */
export interface FastifyChildLoggerFactory<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> {
  (
    this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    logger: Logger,
    bindings: Bindings,
    childLoggerOpts: ChildLoggerOptions,
    rawReq: RawRequest
  ): Logger
}

/** Enclave's names for the logger types. */
export type Logger = FastifyBaseLogger
export type EnclaveBaseLogger = FastifyBaseLogger
export type EnclaveLoggerOptions = FastifyLoggerOptions & PinoLoggerOptions
export type ChildLoggerFactory = FastifyChildLoggerFactory
