/**
 * Route configuration types: the `config` option of a route, as handlers and hooks read it back
 * (`request.routeOptions.config`, and the deprecated `request.context.config`).
 */
import type { HTTPMethods } from './utils'

/**
 * The keys every route's `config` may have. Declare the keys your routes use by declaration merging:
 * `declare module 'fastify' { interface FastifyContextConfig { public?: boolean } }` (or `'enclave-http'`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface FastifyContextConfig {
}

/** What Enclave adds to every route's config: its url and method. */
export interface FastifyRouteConfig {
  url: string
  method: HTTPMethods | HTTPMethods[]
}

/** The deprecated `request.context`. */
export interface FastifyRequestContext<ContextConfig = unknown> {
  /** @deprecated Use `request.routeOptions.config`. */
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
}

/** The deprecated `reply.context`. */
export interface FastifyReplyContext<ContextConfig = unknown> {
  /** @deprecated Use `reply.routeOptions.config`. */
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
}

export type { FastifyContextConfig as EnclaveContextConfig }
