/** What makes an object usable as a logger (Fastify's list): the pino methods a request or plugin may call. */
const loggerMethods = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const

/** The logger methods `candidate` lacks; every one when it is not an object at all. */
export function missingLoggerMethods (candidate: unknown): string[] {
  if (candidate === null || typeof candidate !== 'object') return [...loggerMethods]
  return loggerMethods.filter((method) => typeof (candidate as Record<string, unknown>)[method] !== 'function')
}

/** Whether `candidate` has any logger method: it was meant as a logger instance, not as pino options. */
export function looksLikeLogger (candidate: Record<string, unknown>): boolean {
  return loggerMethods.some((method) => typeof candidate[method] === 'function')
}
