/**
 * `enclave-http/fastify5`: the Fastify 5 level (5.12.8): the factory, carrying Fastify's named exports, as
 * `require('fastify')` returns them in Fastify 5. What differs from the Fastify 4 level is in src/core/api-level.ts.
 */
import { fastify5 } from './levels'
import type { EnclaveFactory } from './types'

/** Creates an application (the root encapsulation context) at the Fastify 5 level. */
export const enclave = fastify5 as unknown as EnclaveFactory
export const fastify = enclave
export const errorCodes = fastify5.errorCodes
export const createError = fastify5.createError
export const precompile = fastify5.precompile
export const FASTIFY_API_VERSION = fastify5.FASTIFY_API_VERSION
export type * from './types'
export default enclave

module.exports = fastify5
