/**
 * `printRoutes({ includeMeta, includeHooks })`: what find-my-way's tree shows of each route. Users snapshot this
 * output, so it follows Fastify 4's: the route's effective error handler and log level, then its non-empty hook
 * lists, in Fastify's order; never the internal record with its instance and context.
 */
import type { PluginContext } from '../encapsulation/plugin-context'
import { routeHooks } from '../hooks/hook-names'
import type { RouteOptions, RouteRecord } from './route-model'

/** The order in which Fastify 4 prints hook lists (its route context's, not the lifecycle's). */
const printedHooks = [
  'onTimeout', 'onRequest', 'preParsing', 'preValidation', 'preSerialization', 'preHandler', 'onSend', 'onResponse',
  'onError', 'onRequestAbort'
] as const

/**
 * Stands, in the printed `onSend` list of an automatic HEAD route, for the step that drops the GET handler's body
 * (Fastify prints its own hook of this name there; Enclave drops the body in the send path).
 */
function headRouteOnSendHandler (): void {}

/**
 * The error handler as Fastify prints it: a route's `errorHandler` option by its name, one set by
 * `setErrorHandler` bound to its instance (`bound name()`), the default as `defaultErrorHandler()`.
 */
function errorHandlerLabel (options: RouteOptions, plugin: PluginContext): string {
  if (typeof options.errorHandler === 'function') return `${options.errorHandler.name}()`
  const link = plugin.errorHandler
  // the default handler is the one link without a parent
  return link.parent === null ? `${link.fn.name}()` : `bound ${link.fn.name}()`
}

/** find-my-way's `buildPrettyMeta`: the printable properties of one route. */
export function buildPrettyMeta (route: { store?: RouteRecord | null } | null | undefined): Record<string, unknown> {
  const record = route?.store
  if (record === null || record === undefined) return {}
  const { options, plugin } = record
  const meta: Record<string, unknown> = {
    errorHandler: errorHandlerLabel(options, plugin),
    logLevel: options.logLevel ?? plugin.logLevel ?? ''
  }
  for (const name of printedHooks) {
    const hooks = routeHooks(plugin, options, name)
    if (name === 'onSend' && record.autoHead) hooks.push(headRouteOnSendHandler)
    if (hooks.length > 0) meta[name] = hooks
  }
  return meta
}

/** `printRoutes` options for find-my-way: `includeHooks` lists every hook ahead of any `includeMeta` keys. */
export function prettyPrintOptions (opts: Record<string, unknown>): Record<string, unknown> {
  if (opts.includeHooks !== true || opts.includeMeta === true) return opts
  return { ...opts, includeMeta: [...printedHooks, ...(Array.isArray(opts.includeMeta) ? opts.includeMeta : [])] }
}
