/**
 * Turning what a validation function reported into the request error: the default schema error formatter (Fastify
 * 4's messages) and the fields every validation error carries (`statusCode` 400, `code`, `validation`,
 * `validationContext`).
 */
import type { ErrorObject } from 'ajv'
import { codes } from '../../core/errors'

/** The fields every validation error carries, as Fastify 4 sets them. */
type ValidationError = Error & { statusCode?: number, code?: string, validation?: unknown, validationContext?: HttpPart }

/** The parts a route can validate, named as Fastify names them in messages and in `validationContext`. */
export type HttpPart = 'params' | 'body' | 'querystring' | 'headers'

/** `(errors, dataVar) => Error`, called with `this` = the instance of the route's context. */
export type SchemaErrorFormatter = (this: unknown, errors: SchemaError[], dataVar: string) => Error

/** One error a validator reported: Ajv's shape (`instancePath`, `message`…), or whatever a custom validator gives. */
export type SchemaError = Partial<ErrorObject> & Record<string, unknown>

/**
 * Builds Fastify 4's message: `${dataVar}${instancePath} ${message}` per error, joined by ', ', for example
 * `body/age must be >= 0`.
 */
export function defaultSchemaErrorFormatter (errors: SchemaError[], dataVar: string): Error {
  let text = ''
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i]
    if (i > 0) text += ', '
    text += `${dataVar}${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`
  }
  // a plain Error, as Fastify 4's (logs show `type: "Error"`); buildValidationError adds statusCode and code
  return new Error(text === '' ? `${dataVar} is invalid` : text)
}

/** Fail-fast check for the factory option, `setSchemaErrorFormatter` and the route option. */
export function assertSchemaErrorFormatter (fn: unknown): asserts fn is SchemaErrorFormatter {
  if (typeof fn !== 'function') throw new codes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(typeof fn)
  // The formatter runs on the request path and its result is used at once: a promise would be an unhandled error.
  if (fn.constructor.name === 'AsyncFunction') throw new codes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN('AsyncFunction')
}

/**
 * Builds the error for a failed part. `reported` is the validation function's `error` (or Ajv's `.errors`): an
 * array goes through the formatter; an Error (e.g. from Joi or yup) is used as it is.
 */
export function buildValidationError (reported: unknown, part: HttpPart, formatter: SchemaErrorFormatter, instance: unknown): Error {
  if (reported instanceof Error) {
    const err = reported as ValidationError
    if (err.statusCode === undefined) err.statusCode = 400
    if (err.code === undefined) err.code = codes.FST_ERR_VALIDATION.code
    if (err.validationContext === undefined) err.validationContext = part
    // `validation` is the reported value itself; non-enumerable so serializing the error cannot loop on itself.
    if (err.validation === undefined) Object.defineProperty(err, 'validation', { value: reported, configurable: true, writable: true })
    return err
  }

  const errors = (Array.isArray(reported) ? reported : [reported]) as SchemaError[]
  const formatted: unknown = formatter.call(instance, errors, part)
  if (!(formatted instanceof Error)) {
    return new codes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(`a result of type ${formatted === null ? 'null' : typeof formatted}`)
  }
  const err = formatted as ValidationError
  if (err.statusCode === undefined) err.statusCode = 400
  if (err.code === undefined) err.code = codes.FST_ERR_VALIDATION.code
  err.validation = reported
  err.validationContext = part
  return err
}
