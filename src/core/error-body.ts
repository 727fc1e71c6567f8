/**
 * The JSON bodies of error answers, the only place they are written by hand. Both are Fastify 4's formats, which
 * clients and tests compare byte for byte; they are built without any user serializer, so they cannot fail.
 */
import { STATUS_CODES } from 'node:http'

export interface ErrorPayload {
  statusCode: number
  code?: string
  /** The reason phrase; left out of the bodies Fastify writes when the error body itself could not be made. */
  error?: string
  message: string
}

/** The reason phrase of a status, as error bodies carry it. */
export function statusText (statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Unknown Error'
}

/**
 * The 4xx/5xx status a thrown value carries (`statusCode`, else `status` as http-errors sets it, a numeric string
 * included), or undefined.
 */
export function errorStatusOf (thrown: unknown): number | undefined {
  if (thrown === null || typeof thrown !== 'object') return undefined
  const { statusCode, status } = thrown as { statusCode?: unknown, status?: unknown }
  const given = statusCode ?? status
  const fromError = typeof given === 'string' ? Number(given) : given
  return typeof fromError === 'number' && Number.isInteger(fromError) && fromError >= 400 && fromError <= 599 ? fromError : undefined
}

/**
 * The status the default error handler answers with, as Fastify chooses it: the error's own 4xx/5xx, else the
 * reply's when it is an error status already (`reply.code(404)` before throwing), else 500.
 */
export function answerStatusFor (thrown: unknown, replyStatus: number, replyHasStatus: boolean): number {
  return errorStatusOf(thrown) ?? (replyHasStatus && replyStatus >= 400 ? replyStatus : 500)
}

/** The default error handler's body: `{"statusCode","code"?,"error"?,"message"}`. */
export function defaultErrorBody (payload: ErrorPayload): string {
  const statusCode = Number.isInteger(payload.statusCode) ? payload.statusCode : 500
  const code = typeof payload.code === 'string' ? `,"code":${JSON.stringify(payload.code)}` : ''
  const error = payload.error === undefined ? '' : `,"error":${JSON.stringify(safeString(payload.error))}`
  return `{"statusCode":${statusCode}${code}${error},"message":${JSON.stringify(safeString(payload.message))}}`
}

/**
 * The body of an error answered before any route was chosen or outside every route (503 while closing, malformed
 * HTTP, a bad URL): `{"error","code"?,"message","statusCode"}`, Fastify 4's order for these.
 */
export function earlyErrorBody (statusCode: number, message: string, code?: string): string {
  const codePart = code === undefined ? '' : `,"code":${JSON.stringify(code)}`
  return `{"error":${JSON.stringify(statusText(statusCode))}${codePart},"message":${JSON.stringify(message)},"statusCode":${statusCode}}`
}

/** A value as text for a message, whatever it is (a throwing `toString` included). */
export function safeString (value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return ''
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
