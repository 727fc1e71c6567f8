/**
 * Enclave: a schema-driven web framework implementing Fastify's public API. This main entry is the Fastify 4 level,
 * the same module as `enclave-http/fastify4`; `enclave-http/fastify5` is the Fastify 5 level (src/fastify5.ts).
 *
 * `require('enclave-http')` returns the factory (also as `.default`, `.fastify` and `.enclave`);
 * `import enclave from 'enclave-http'` works the same way. The public types live in `./types` and are all
 * re-exported here. Values come only from `./levels`, the core every entry shares (scripts/bundle.mjs).
 */
import { fastify4 } from './levels'
import type { EnclaveFactory } from './types'

/** Creates an application (the root encapsulation context) at the Fastify 4 level. */
export const enclave = fastify4 as unknown as EnclaveFactory

/** Fastify's name for the factory, so `import { fastify } from 'fastify'` ports by changing the module name. */
export const fastify = enclave

export const errorCodes = fastify4.errorCodes
export const createError = fastify4.createError
/** Builds the compile cache of an application created with `compileCache: { dir }` (docs/compile-cache.md). */
export const precompile = fastify4.precompile
/** The Fastify version this entry's level implements. */
export const FASTIFY_API_VERSION = fastify4.FASTIFY_API_VERSION
export type * from './types'
export default enclave

// CommonJS consumers get the factory itself, carrying the named exports (src/app/fastify-module.ts).
module.exports = fastify4
