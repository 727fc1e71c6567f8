/**
 * Logging with pino: `logger: false` (default) gives a no-op logger, `true` or pino options build a pino logger,
 * and any object with the pino method set is used as it is. Every request gets a child logger carrying its id.
 */
import pino from 'pino'
import { codes } from './errors'

export interface Logger {
  level: string
  fatal: (...args: any[]) => void
  error: (...args: any[]) => void
  warn: (...args: any[]) => void
  info: (...args: any[]) => void
  debug: (...args: any[]) => void
  trace: (...args: any[]) => void
  child: (bindings: Record<string, unknown>, opts?: Record<string, unknown>) => Logger
  [key: string]: any
}

const requiredMethods = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child']

function noop (): void {}

/** A logger that does nothing; `child()` returns itself, so a disabled logger costs one call per log line. */
function createSilentLogger (): Logger {
  const silent: Logger = {
    level: 'silent', fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop,
    child: () => silent
  }
  return silent
}

/** pino serializers matching what Fastify users see in their logs. */
export const serializers = {
  req (req: any) {
    return {
      method: req.method,
      url: req.url,
      version: req.headers?.['accept-version'],
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort
    }
  },
  res (reply: any) {
    return { statusCode: reply.statusCode }
  },
  err: pino.stdSerializers.err
}

export function createLogger (option: unknown): { logger: Logger, enabled: boolean } {
  if (option === false || option === undefined || option === null) {
    return { logger: createSilentLogger(), enabled: false }
  }
  if (option === true) {
    return { logger: pino({ serializers }) as unknown as Logger, enabled: true }
  }
  const candidate = option as Record<string, any>
  if (requiredMethods.some((m) => typeof candidate[m] === 'function')) {
    const missing = requiredMethods.filter((m) => typeof candidate[m] !== 'function')
    if (missing.length > 0) throw new codes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
    return { logger: candidate as Logger, enabled: true }
  }
  const { stream, file, ...pinoOptions } = candidate
  if (stream !== undefined && file !== undefined) throw new codes.FST_ERR_LOG_INVALID_DESTINATION()
  const options = { ...pinoOptions, serializers: { ...serializers, ...(pinoOptions.serializers ?? {}) } }
  const destination = stream ?? (file !== undefined ? pino.destination(file) : undefined)
  const logger = destination !== undefined ? pino(options, destination) : pino(options)
  return { logger: logger as unknown as Logger, enabled: true }
}
