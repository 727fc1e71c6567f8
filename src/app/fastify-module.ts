/**
 * What `require('fastify')` returns, for one API level: the factory, carrying Fastify's named exports (`fastify`,
 * `default`, `errorCodes`, …) as Fastify's own module does, so an npm alias of `fastify` to an Enclave entry needs
 * no source change. Each entry point (src/index.ts, src/fastify4.ts, src/fastify5.ts) exports one of these.
 */
import type { ApiLevel } from '../core/api-level'
import { createError, type codes } from '../core/errors'
import { createInstance } from './create-app'
import { precompile } from './precompile'

export interface FastifyModule {
  (options?: unknown): ReturnType<typeof createInstance>
  default: FastifyModule
  fastify: FastifyModule
  enclave: FastifyModule
  errorCodes: typeof codes
  createError: typeof createError
  precompile: typeof precompile
  FASTIFY_API_VERSION: string
}

export function fastifyModule (level: ApiLevel): FastifyModule {
  // a function of one parameter, so the factory passed to `map()` or a test helper cannot receive a level by accident
  const factory = function fastify (options?: unknown) { return createInstance(options, level) } as FastifyModule
  return Object.assign(factory, {
    default: factory,
    fastify: factory,
    enclave: factory,
    errorCodes: level.errorCodes,
    createError,
    precompile,
    FASTIFY_API_VERSION: level.fastifyVersion
  })
}
