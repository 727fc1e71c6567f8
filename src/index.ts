/**
 * Enclave: a schema-driven web framework implementing Fastify 4's public API.
 *
 * `require('enclave')` returns the factory (also as `.default` and `.enclave`); `import enclave from 'enclave'`
 * works the same way. The public types live in `./types` and are all re-exported here.
 */
import { createInstance } from './app/create-app'
import { codes, createError } from './core/errors'
import { FASTIFY_API_VERSION } from './core/version'
import { precompile } from './app/precompile'
import type { EnclaveFactory } from './types'

/** Creates an application (the root encapsulation context). */
export const enclave = createInstance as unknown as EnclaveFactory

/** Fastify's name for the factory, so `import { fastify } from 'fastify'` ports by changing the module name. */
export const fastify = enclave

export const errorCodes = codes
/** Builds the compile cache of an application created with `compileCache: { dir }` (docs/compile-cache.md). */
export { createError, FASTIFY_API_VERSION, precompile }
export type * from './types'
export default enclave

// CommonJS consumers get the factory itself, carrying the named exports.
module.exports = Object.assign(createInstance, exports, { default: createInstance, enclave: createInstance, fastify: createInstance })
