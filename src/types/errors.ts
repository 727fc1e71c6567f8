/**
 * Error types. Enclave builds its errors with `@fastify/error`, as Fastify does: each has a stable `FST_ERR_*`
 * code (the same codes as Fastify 4) and the status it answers with. A validation error also carries the failures
 * and the request part, which this module adds to `@fastify/error`'s `FastifyError`, as Fastify does.
 */
import type { FastifyError as FastifyError3, FastifyErrorConstructor } from '@fastify/error'
import type { FastifyError as FastifyError4 } from 'fastify-error-4'
import type { codes } from '../core/errors'
import type { FastifySchemaValidationError, SchemaErrorDataVar } from './compilers'
import type { AtLevel } from './level'

declare module '@fastify/error' {
  interface FastifyError {
    /** The request part whose validation failed. */
    validationContext?: SchemaErrorDataVar
    /** The validation failures, when schema validation rejected the request. */
    validation?: FastifySchemaValidationError[]
  }
}

// @fastify/error 4, the copy Fastify 5 and its users' code import, gets the same two members.
declare module 'fastify-error-4' {
  interface FastifyError {
    /** The request part whose validation failed. */
    validationContext?: SchemaErrorDataVar
    /** The validation failures, when schema validation rejected the request. */
    validation?: FastifySchemaValidationError[]
  }
}

/**
 * `@fastify/error`'s `FastifyError`, from the release the level's Fastify depends on (3.x for Fastify 4, 4.x for
 * Fastify 5): TypeScript takes two installed copies of one name and version for one package, so a program's own
 * `import { FastifyError } from '@fastify/error'` names the very type Enclave's hooks and handlers use.
 */
export type FastifyError = AtLevel<FastifyError3, FastifyError4>

/** The name of every error code Enclave can raise. */
export type EnclaveErrorCodeName = keyof typeof codes

/** The registry of error classes exported as `errorCodes`, keyed by code name. */
export type FastifyErrorCodes = Record<EnclaveErrorCodeName, FastifyErrorConstructor>

/** @deprecated Use {@link FastifySchemaValidationError}. */
export type ValidationResult = FastifySchemaValidationError

/** Enclave's names for the error types. */
export type EnclaveError = FastifyError
export type EnclaveErrorCodes = FastifyErrorCodes
