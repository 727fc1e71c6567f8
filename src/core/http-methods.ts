import type { HTTPMethod } from 'find-my-way'

/** The HTTP methods a route may use (Fastify 4's list), and the ones whose requests never carry a body. */
export const supportedMethods: readonly string[] = [
  'DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE',
  'LOCK', 'UNLOCK', 'TRACE', 'SEARCH', 'REPORT', 'MKCALENDAR'
]

export const supportedMethodSet: ReadonlySet<string> = new Set(supportedMethods)

/** Methods whose route may not declare a body schema, and whose requests are never parsed for one. */
export const bodylessMethods: ReadonlySet<string> = new Set(['GET', 'HEAD'])

/** find-my-way types methods as a closed union; Enclave checks them against its own list first. */
export function asRouterMethod (method: string): HTTPMethod
export function asRouterMethod (methods: readonly string[]): HTTPMethod[]
export function asRouterMethod (methods: string | readonly string[]): HTTPMethod | HTTPMethod[] {
  return methods as HTTPMethod | HTTPMethod[]
}
