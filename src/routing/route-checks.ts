/**
 * The checks `route()` makes before anything is registered, so that a bad option throws at the call (not at
 * request time), and the paths a route answers on once its context prefix is applied.
 */
import { AssertionError } from 'node:assert'
import { codes } from '../core/errors'
import type { HttpMethods } from '../core/http-methods'
import { lifecycleHooks } from '../hooks/hook-names'
import { checkAsyncArity } from '../hooks/add-hook'
import type { LooseObject } from '../core/types'

/**
 * A route's hook options (one function or a list), checked as the route is registered, after the onRoute hooks
 * (which may put a function where `null` was given), as in Fastify. As in Fastify 4, an async hook that declares
 * `done` is refused only in a list (a single one runs, moving on once); an automatic HEAD route's `onSend` is a list
 * (its body-dropping step comes first), so there a single one is refused too.
 */
export function checkHookOptions (opts: LooseObject, autoHead = false): void {
  for (const name of lifecycleHooks) {
    const value: unknown = opts[name]
    if (value === undefined) continue
    const isList = Array.isArray(value) || (autoHead && name === 'onSend')
    for (const fn of Array.isArray(value) ? value : [value]) {
      if (typeof fn !== 'function') throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
      if (isList) checkAsyncArity(name, fn)
    }
  }
}

/** Throws at registration for anything that would otherwise fail (or silently misbehave) at request time. */
export function validateRouteOptions (opts: LooseObject, methods: string[], url: string, table: HttpMethods): void {
  const label = methods.join(',')
  // in Fastify's order: the methods' body schema, the handler, the error handler, the body limit
  if (opts.schema?.body !== undefined) {
    for (const method of methods) {
      if (table.bodyRule(method) === 'none') throw new codes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, url)
    }
  }
  if (typeof opts.handler !== 'function') {
    if (opts.handler === undefined) throw new codes.FST_ERR_ROUTE_MISSING_HANDLER(label, url)
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('handler', label, url, 'must be a function')
  }
  if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new codes.FST_ERR_ROUTE_HANDLER_NOT_FN(label, url)
  if (opts.bodyLimit !== undefined && !(Number.isInteger(opts.bodyLimit) && opts.bodyLimit > 0)) throw new codes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(opts.bodyLimit)
  if (opts.handlerTimeout !== undefined && !(Number.isInteger(opts.handlerTimeout) && opts.handlerTimeout > 0)) {
    throw new codes.FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT(opts.handlerTimeout)
  }
  if (opts.schema !== undefined && (opts.schema === null || typeof opts.schema !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('schema', label, url, 'must be an object')
  if (opts.config !== undefined && (opts.config === null || typeof opts.config !== 'object')) throw new codes.FST_ERR_ROUTE_OPTION_INVALID('config', label, url, 'must be an object')
  if (opts.attachValidation !== undefined && typeof opts.attachValidation !== 'boolean') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('attachValidation', label, url, 'must be a boolean')
  // null is no level of its own, as in Fastify (the plugin's applies)
  if (opts.logLevel != null && typeof opts.logLevel !== 'string') throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logLevel', label, url, 'must be a string')
  for (const name of ['validatorCompiler', 'serializerCompiler', 'schemaErrorFormatter']) {
    if (opts[name] !== undefined && typeof opts[name] !== 'function') throw new codes.FST_ERR_ROUTE_OPTION_INVALID(name, label, url, 'must be a function')
  }
}

/** The route's methods, upper-cased, each one the application supports (its level's or one `addHttpMethod` added). */
export function normalizeMethods (method: unknown, table: HttpMethods): string[] {
  const list = Array.isArray(method) ? method : [method]
  if (list.length === 0) throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
  return list.map((m) => {
    if (typeof m !== 'string') throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
    const upper = m.toUpperCase()
    if (!table.has(upper)) throw new codes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(m)
    return upper
  })
}

/** How a context's prefix joins a route's path: the router options that matter, and the route's own choice. */
export interface PrefixRules {
  trailing: unknown
  ignoreTrailingSlash: boolean
  ignoreDuplicateSlashes: boolean
  headOnly: boolean
}

/**
 * The full paths a route answers on once its context prefix is applied, as Fastify 4 joins them. A `'/'` route in a
 * prefixed context is the prefix itself and, with `prefixTrailingSlash: 'both'` (the default), also the prefix
 * followed by '/' (`'/p'` and `'/p/'`; a prefix given with its slash, `'/p/'`, gives `'/p/'` and `'/p//'`).
 * The first path is the bare prefix when there is one (Fastify's `routePath` '' variant).
 */
export function prefixedPaths (prefix: string, path: string, rules: PrefixRules): string[] {
  // the router's own words, as Fastify reports them: an empty path is no path (a prefix alone is one)
  if (prefix === '' && path === '') throw new AssertionError({ message: 'The path could not be empty' })
  if (path === '/' && prefix !== '' && !rules.headOnly) {
    if (rules.trailing === 'slash') return [prefix + path]
    if (rules.trailing === 'no-slash') return [prefix]
    // with ignoreTrailingSlash the router already answers both; with ignoreDuplicateSlashes '/p//' would be '/p/'
    const slashToo = !rules.ignoreTrailingSlash && (!rules.ignoreDuplicateSlashes || !prefix.endsWith('/'))
    return slashToo ? [prefix, prefix + path] : [prefix]
  }
  if (prefix.endsWith('/') && path.startsWith('/')) return [prefix + path.slice(1)]
  return [prefix + path]
}
