/**
 * Logger types. Enclave logs with pino: `app.log` and `request.log` are pino loggers (or any object with the same
 * methods, passed as the `logger` option).
 */
import type { BaseLogger, Bindings, ChildLoggerOptions, DestinationStream, LevelWithSilent, LoggerOptions } from 'pino'
import type { RawRequestDefault } from './raw'
import type { EnclaveInstance } from './instance'

/** A log level, or `'silent'`. */
export type LogLevel = LevelWithSilent

/** What Enclave needs from a logger: pino's methods, and `child()` returning a logger of the same kind. */
export interface EnclaveBaseLogger extends BaseLogger {
  child(bindings: Bindings, options?: ChildLoggerOptions): EnclaveBaseLogger
}

/** Same as {@link EnclaveBaseLogger}; the short name used across the docs. */
export type Logger = EnclaveBaseLogger

/** The `logger` factory option as an object: pino's options, plus a destination `stream` or `file`. */
export interface EnclaveLoggerOptions extends LoggerOptions {
  /** Write the logs to this stream (not with `file`). */
  stream?: DestinationStream | NodeJS.WritableStream
  /** Write the logs to this file (not with `stream`). */
  file?: string
}

/**
 * Creates the logger of each request. Called with the instance as `this`, the parent logger, the default bindings
 * (`{ reqId }`), child options and Node's raw request.
 */
export type ChildLoggerFactory<I = EnclaveInstance> = (
  this: I,
  logger: EnclaveBaseLogger,
  bindings: Bindings,
  childOptions: ChildLoggerOptions,
  rawRequest: RawRequestDefault
) => EnclaveBaseLogger
