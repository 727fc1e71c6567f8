/**
 * Enclave: a schema-driven web framework implementing Fastify 4's public API.
 *
 * `require('enclave')` returns the factory (also as `.default` and `.enclave`); `import enclave from 'enclave'`
 * works the same way.
 */
import { createInstance } from './instance'
import { codes, createError } from './errors'
import { FASTIFY_API_VERSION } from './plugin'

/** Creates an application (the root encapsulation context). */
export function enclave (options?: Record<string, unknown>): any {
  return createInstance(options)
}

export const errorCodes = codes
export { createError, FASTIFY_API_VERSION }
export default enclave

// CommonJS consumers get the factory itself, carrying the named exports.
module.exports = Object.assign(enclave, exports, { default: enclave, enclave })
