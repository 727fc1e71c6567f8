/**
 * Logging with pino: `logger: false` (default) gives a no-op logger, `true` or pino options build a pino logger,
 * and any object with the pino method set is used as it is. Every request gets a child logger carrying its id.
 */
import pino from 'pino'
import { codes } from '../core/errors'
import { looksLikeLogger, missingLoggerMethods } from '../core/logger-shape'
import type { EnclaveLoggerOptions, Logger } from '../types/logger'
import type { RequestState } from '../request/request'
import type { ReplyState } from '../reply/reply'

function noop (): void {}

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
  err: pino.stdSerializers.err
}

/**
 * A pino instance given as the logger is used through a child that has Fastify's `req`, `res` and `err`
 * serializers (its own serializers win), as Fastify does: without them, request log lines would hold the whole
 * request, Authorization and Cookie headers included. Other loggers are used as they are.
 */
function withRequestSerializers (logger: Logger): Logger {
  const own = (logger as unknown as Record<symbol, Record<string, unknown> | undefined>)[pino.symbols.serializersSym]
  if (own === undefined) return logger
  const missing = Object.fromEntries(Object.entries(serializers).filter(([key]) => !(key in own)))
  return logger.child({}, { serializers: missing })
}

export function createLogger (option: unknown): { logger: Logger, enabled: boolean } {
  if (option === false || option === undefined || option === null) {
    return { logger: createSilentLogger(), enabled: false }
  }
  if (option === true) {
    return { logger: pino({ serializers }) as unknown as Logger, enabled: true }
  }
  const candidate = option as Record<string, unknown>
  if (looksLikeLogger(candidate)) {
    const missing = missingLoggerMethods(candidate)
    if (missing.length > 0) throw new codes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
    return { logger: withRequestSerializers(candidate as unknown as Logger), enabled: true }
  }
  const { stream, file, ...pinoOptions } = candidate as EnclaveLoggerOptions
  if (stream !== undefined && file !== undefined) throw new codes.FST_ERR_LOG_INVALID_DESTINATION()
  const options = { ...pinoOptions, serializers: { ...serializers, ...(pinoOptions.serializers ?? {}) } }
  const destination = (stream as pino.DestinationStream | undefined) ?? (file !== undefined ? pino.destination(file) : undefined)
  const logger = destination !== undefined ? pino(options, destination) : pino(options)
  return { logger: logger as unknown as Logger, enabled: true }
}
