import { codes, type EnclaveError } from './errors'

/**
 * What error handling works with when user code throws, rejects or calls `done` with a value that is not an Error:
 * an Error carrying its message, `statusCode` and `code`.
 */
export function toError (value: unknown): Error {
  if (value instanceof Error) return value
  if (value === undefined || value === null) return new codes.FST_ERR_SEND_UNDEFINED_ERR()
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const err = new Error(typeof obj.message === 'string' ? obj.message : 'Non-error value thrown')
    if (typeof obj.statusCode === 'number') (err as EnclaveError).statusCode = obj.statusCode
    if (typeof obj.code === 'string') (err as EnclaveError).code = obj.code
    return err
  }
  return new Error(String(value))
}

/**
 * What a failure reports: the value itself, as it was thrown or rejected (a string, a plain object), or Fastify's
 * `FST_ERR_SEND_UNDEFINED_ERR` for `undefined` and `null`, which cannot be told from success.
 */
export function failureOf (value: unknown): unknown {
  return value === undefined || value === null ? new codes.FST_ERR_SEND_UNDEFINED_ERR() : value
}
