/**
 * Logging with pino: `logger: false` (default) gives a no-op logger, `true` or pino options build a pino logger,
 * and a logger instance (`loggerInstance`, or `logger` at the Fastify 4 level) is used as it is. Every request gets a child logger carrying its id.
 */
import type pino from 'pino'
import type { ApiLevel } from '../core/api-level'
import { lazyModule } from '../core/lazy-module'
import { codes } from '../core/errors'
import { looksLikeLogger, missingLoggerMethods } from '../core/logger-shape'
import type { EnclaveLoggerOptions, Logger } from '../types/logger'
import type { RequestState } from '../request/request'
import type { ReplyState } from '../reply/reply'

function noop (): void {}

/** pino is loaded only by an application that logs. */
const loadPino = lazyModule(() => require('pino') as typeof pino)

/** A logger that does nothing; `child()` returns itself, so a disabled logger costs one call per log line. */
function createSilentLogger (): Logger {
  const silent = {
    level: 'silent', fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop,
    child: () => silent
  } as unknown as Logger
  return silent
}

/** pino serializers matching what Fastify users see in their logs. */
export const serializers = {
  req (req: RequestState) {
    return {
      method: req.method,
      url: req.url,
      version: req.headers?.['accept-version'],
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: (req.socket as RequestState['raw']['socket'] | undefined)?.remotePort
    }
  },
  res (reply: ReplyState) {
    return { statusCode: reply.statusCode }
  },
  err (err: Error) {
    return loadPino().stdSerializers.err(err)
  }
}

/**
 * A pino instance given as the logger is used through a child that has Fastify's `req`, `res` and `err`
 * serializers (its own serializers win), as Fastify does: without them, request log lines would hold the whole
 * request, Authorization and Cookie headers included. Other loggers are used as they are.
 */
function withRequestSerializers (logger: Logger): Logger {
  const own = (logger as unknown as Record<symbol, Record<string, unknown> | undefined>)[loadPino().symbols.serializersSym]
  if (own === undefined) return logger
  const missing = Object.fromEntries(Object.entries(serializers).filter(([key]) => !(key in own)))
  return logger.child({}, { serializers: missing })
}

/** `loggerInstance`: a logger object with every method, used with Fastify's request serializers. */
function useLoggerInstance (option: unknown, instance: unknown): { logger: Logger, enabled: true } {
  if (option !== undefined && option !== null && option !== false) throw new codes.FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED()
  const missing = missingLoggerMethods(instance)
  if (typeof instance !== 'object' || !looksLikeLogger(instance as Record<string, unknown>)) throw new codes.FST_ERR_LOG_INVALID_LOGGER_INSTANCE()
  if (missing.length > 0) throw new codes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
  return { logger: withRequestSerializers(instance as Logger), enabled: true }
}

/**
 * The application's logger from the `logger` and `loggerInstance` options. `loggerInstance` (Fastify 5, both levels)
 * takes a logger instance only; whether `logger` also takes one is the level's choice (src/core/api-level.ts):
 * Fastify 4 uses it, Fastify 5 refuses it (FST_ERR_LOG_INVALID_LOGGER_CONFIG), `logger` being options there.
 */
export function createLogger (option: unknown, instance: unknown, level: ApiLevel): { logger: Logger, enabled: boolean } {
  if (instance !== undefined && instance !== null) return useLoggerInstance(option, instance)
  if (option === false || option === undefined || option === null) {
    return { logger: createSilentLogger(), enabled: false }
  }
  if (option === true) {
    return { logger: loadPino()({ serializers }) as unknown as Logger, enabled: true }
  }
  const candidate = option as Record<string, unknown>
  if (looksLikeLogger(candidate)) {
    const missing = missingLoggerMethods(candidate)
    if (missing.length > 0) throw new codes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
    if (!level.loggerTakesInstance) throw new codes.FST_ERR_LOG_INVALID_LOGGER_CONFIG()
    return { logger: withRequestSerializers(candidate as unknown as Logger), enabled: true }
  }
  const { stream, file, ...pinoOptions } = candidate as EnclaveLoggerOptions
  if (stream !== undefined && file !== undefined) throw new codes.FST_ERR_LOG_INVALID_DESTINATION()
  const options = { ...pinoOptions, serializers: { ...serializers, ...(pinoOptions.serializers ?? {}) } }
  const pinoFactory = loadPino()
  const destination = (stream as pino.DestinationStream | undefined) ?? (file !== undefined ? pinoFactory.destination(file) : undefined)
  const logger = destination !== undefined ? pinoFactory(options, destination) : pinoFactory(options)
  return { logger: logger as unknown as Logger, enabled: true }
}
