/**
 * Error types. Enclave builds its errors with `@fastify/error`, as Fastify does: each has a stable `FST_ERR_*`
 * code (the same codes as Fastify 4) and the status it answers with. A validation error also carries the failures
 * and the request part, which this module adds to `@fastify/error`'s `FastifyError`, as Fastify does.
 */
import type { FastifyError, FastifyErrorConstructor } from '@fastify/error'
import type { codes } from '../core/errors'
import type { FastifySchemaValidationError, SchemaErrorDataVar } from './compilers'

declare module '@fastify/error' {
  interface FastifyError {
    /** The request part whose validation failed. */
    validationContext?: SchemaErrorDataVar
    /** The validation failures, when schema validation rejected the request. */
    validation?: FastifySchemaValidationError[]
  }
}

export type { FastifyError }

/** The name of every error code Enclave can raise. */
export type EnclaveErrorCodeName = keyof typeof codes

/** The registry of error classes exported as `errorCodes`, keyed by code name. */
export type FastifyErrorCodes = Record<EnclaveErrorCodeName, FastifyErrorConstructor>

/** @deprecated Use {@link FastifySchemaValidationError}. */
export type ValidationResult = FastifySchemaValidationError

/** Enclave's names for the error types. */
export type EnclaveError = FastifyError
export type EnclaveErrorCodes = FastifyErrorCodes
