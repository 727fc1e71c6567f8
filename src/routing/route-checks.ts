/**
 * The checks `route()` makes before anything is registered, so that a bad option throws at the call (not at
 * request time), and the paths a route answers on once its context prefix is applied.
 */
import { AssertionError } from 'node:assert'
import { codes } from '../core/errors'
import { bodylessMethods, supportedMethodSet } from '../core/http-methods'
import { lifecycleHooks } from '../hooks/hook-names'
import { checkAsyncArity } from '../hooks/add-hook'
import type { LooseObject } from '../core/types'

/**
 * A route's hook options (one function or a list), checked as the route is registered, after the onRoute hooks
 * (which may put a function where `null` was given), as in Fastify.
 */
export function checkHookOptions (opts: LooseObject): void {
  for (const name of lifecycleHooks) {
    const value: unknown = opts[name]
    if (value === undefined) continue
    for (const fn of Array.isArray(value) ? value : [value]) {
      if (typeof fn !== 'function') throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
      checkAsyncArity(name, fn)
    }
  }
}

/** Throws at registration for anything that would otherwise fail (or silently misbehave) at request time. */
export function validateRouteOptions (opts: LooseObject, methods: string[], url: string): void {
  const label = methods.join(',')
  if (typeof opts.handler !== 'function') {
    if (opts.handler === undefined) throw new codes.FST_ERR_ROUTE_MISSING_HANDLER(label, url)
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('handler', label, url, 'must be a function')
  }
  if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new codes.FST_ERR_ROUTE_HANDLER_NOT_FN(label, url)
  if (opts.bodyLimit !== undefined && !(Number.isInteger(opts.bodyLimit) && opts.bodyLimit > 0)) throw new codes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(opts.bodyLimit)
  if (opts.schema !== undefined && (opts.schema === null || typeof opts.schema !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('schema', label, url, 'must be an object')
  if (opts.config !== undefined && (opts.config === null || typeof opts.config !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('config', label, url, 'must be an object')
  if (opts.attachValidation !== undefined && typeof opts.attachValidation !== 'boolean') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('attachValidation', label, url, 'must be a boolean')
  if (opts.logLevel !== undefined && typeof opts.logLevel !== 'string') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logLevel', label, url, 'must be a string')
  for (const name of ['validatorCompiler', 'serializerCompiler', 'schemaErrorFormatter']) {
    if (opts[name] !== undefined && typeof opts[name] !== 'function') throw new codes.FST_ERR_ROUTE_OPTION_INVALID(name, label, url, 'must be a function')
  }
  if (opts.schema?.body !== undefined) {
    for (const method of methods) {
      if (bodylessMethods.has(method)) throw new codes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, url)
    }
  }
}

export function normalizeMethods (method: unknown): string[] {
  const list = Array.isArray(method) ? method : [method]
  if (list.length === 0) throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
  return list.map((m) => {
    if (typeof m !== 'string') throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
    const upper = m.toUpperCase()
    if (!supportedMethodSet.has(upper)) throw new codes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(m)
    return upper
  })
}

/** The full paths a route answers on once its context prefix is applied (`prefixTrailingSlash`). */
export function prefixedPaths (prefix: string, path: string, trailing: unknown, ignoreTrailingSlash: boolean): string[] {
  // the router's own words, as Fastify reports them: an empty path is no path (a prefix alone is one)
  if (prefix === '' && path === '') throw new AssertionError({ message: 'The path could not be empty' })
  if (prefix === '') return [path]
  if (path === '') return [prefix]
  if (path === '/') {
    // a prefix given with its trailing slash ('/p/') must not produce '/p//'
    const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
    if (base === '') return ['/']
    if (trailing === 'slash') return [base + '/']
    if (trailing === 'no-slash' || ignoreTrailingSlash) return [base]
    return [base, base + '/']
  }
  if (prefix.endsWith('/') && path.startsWith('/')) return [prefix + path.slice(1)]
  return [prefix + path]
}
