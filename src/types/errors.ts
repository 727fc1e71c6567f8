/**
 * Error types: the errors Enclave creates (each with a stable `FST_ERR_*` code, the same codes as Fastify 4), and
 * the validation details a failed schema validation carries.
 */
import type { codes } from '../core/errors'

/** One validation failure, in Ajv's error format. */
export interface ValidationResult {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message?: string
}

/** The request part a validation error comes from. */
export type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring'

/**
 * An error as error handlers and `onError` hooks receive it. Errors created by Enclave have a `code` and the
 * `statusCode` they answer with; a validation error also has `validation` and `validationContext`.
 */
export interface EnclaveError extends Error {
  /** `FST_ERR_*` for errors created by Enclave; whatever the thrower set otherwise. */
  code: string
  /** The HTTP status the default error handler answers with (500 when absent or below 400). */
  statusCode?: number
  /** The validation failures, when schema validation rejected the request. */
  validation?: ValidationResult[]
  /** The request part whose validation failed. */
  validationContext?: SchemaErrorDataVar
}

/** The class of one error code: callable with or without `new`; the arguments fill the message template. */
export interface EnclaveErrorConstructor {
  new (...args: unknown[]): EnclaveError
  (...args: unknown[]): EnclaveError
  readonly prototype: EnclaveError
  readonly code: string
}

/** The name of every error code Enclave can raise. */
export type EnclaveErrorCodeName = keyof typeof codes

/** The registry of error classes exported as `enclave.errorCodes`, keyed by code name. */
export type EnclaveErrorCodes = { readonly [Code in EnclaveErrorCodeName]: EnclaveErrorConstructor }
