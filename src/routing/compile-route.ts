/**
 * Compile-at-ready: each registered route (and not-found handler) becomes a `CompiledRoute`, resolving from its
 * context chain the hooks (bound to the instance; empty lists become null), validators, serializers, error-handler
 * chain, body limit, decorators, request id generator and logger, so a request does no lookups.
 */
import type { AnyFn } from '../core/types'
import { kApp } from '../core/symbols'
import type { AppState, Instance } from '../encapsulation/app-state'
import { collectProps } from '../encapsulation/decorators'
import { lifecycleHooks, routeHooks, type LifecycleHookName } from '../hooks/hook-names'
import { compileRouteValidation } from '../schema/validation/route-validation'
import { compileRouteSerializers } from '../schema/serialization/response-serializers'
import { resolveGenReqId, resolveRequestLogger, type RequestIdentityDefaults } from '../request/request-identity'
import type { PluginContext } from '../encapsulation/plugin-context'
import type { CompiledRoute, RouteOptions, RouteRecord } from './route-model'

/** The factory options a route falls back on when it does not set its own. */
interface RouteDefaults { bodyLimit: number, handlerTimeout: number }

/** Compiles every route and not-found handler. Runs once, when the app becomes ready; throws on a bad schema. */
export function compileRoutes (app: AppState): void {
  const contexts = new ContextParts(app.requestIdentity)
  for (const record of app.routes) record.compiled = compileRoute(record, app.options, contexts)
  for (const record of app.notFoundRecords) record.compiled = compileRoute(record, app.options, contexts)
  // `routerOptions.compile`: every route is in, so the routers generate their lookup functions now
  if (app.options.routerOptions.compile) {
    app.router.compile()
    app.notFoundRouter.compile()
  }
}

/** What every route of one context shares, resolved for the first of them: its decorators and request id generator. */
type SharedParts = Pick<CompiledRoute, 'requestProps' | 'replyProps' | 'genReqId'>

/** The shared parts of each context, for one compile pass (an app of 1,000 routes often has a handful of contexts). */
class ContextParts {
  readonly #byContext = new Map<PluginContext, SharedParts>()

  constructor (readonly identity: RequestIdentityDefaults) {}

  of (plugin: PluginContext): SharedParts {
    let parts = this.#byContext.get(plugin)
    if (parts === undefined) {
      parts = {
        requestProps: collectProps(plugin, 'request'),
        replyProps: collectProps(plugin, 'reply'),
        genReqId: resolveGenReqId(plugin, this.identity)
      }
      this.#byContext.set(plugin, parts)
    }
    return parts
  }
}

/** Resolves everything a route needs per request, once. Throws (failing `ready()`) on a bad schema. */
function compileRoute (record: RouteRecord, appOptions: RouteDefaults, contexts: ContextParts): CompiledRoute {
  const { options, plugin, instance } = record
  const shared = contexts.of(plugin)
  const hooks = {} as Record<LifecycleHookName, AnyFn[] | null>
  for (const name of lifecycleHooks) hooks[name] = boundHooks(name, plugin, options, instance)
  const routeOptions = { ...options, method: record.method }
  return {
    method: record.method,
    url: record.reportedUrl ?? record.url,
    options,
    // a not-found handler's options carry internal markers (isDefault): its config is empty, as in Fastify. The
    // method is the route's as declared (an array for a route of several methods), as Fastify reports it
    config: record.isNotFound ? {} : { ...options.config, url: record.reportedUrl ?? record.url, method: options.method },
    schema: options.schema,
    handler: options.handler,
    instance,
    plugin,
    onRequest: hooks.onRequest,
    preParsing: hooks.preParsing,
    preValidation: hooks.preValidation,
    preHandler: hooks.preHandler,
    preSerialization: hooks.preSerialization,
    onSend: hooks.onSend,
    onResponse: hooks.onResponse,
    onError: hooks.onError,
    onTimeout: hooks.onTimeout,
    onRequestAbort: hooks.onRequestAbort,
    errorHandler: options.errorHandler !== undefined
      ? { fn: options.errorHandler, instance, parent: plugin.errorHandler }
      : plugin.errorHandler,
    contentTypeParsers: plugin.contentTypeParsers,
    bodyLimit: options.bodyLimit ?? appOptions.bodyLimit,
    // not-found handlers are not timed, as in Fastify (its docs: they are outside the route handler lifecycle)
    handlerTimeout: record.isNotFound ? 0 : options.handlerTimeout ?? appOptions.handlerTimeout,
    attachValidation: options.attachValidation === true,
    // a not-found handler answers every method: it reads the method's rule per request
    bodyRule: record.isNotFound ? null : record.instance[kApp].httpMethods.bodyRule(record.method) ?? 'any',
    // '' when neither the route nor a plugin set one, as Fastify reports it in request.routeOptions.logLevel
    logLevel: options.logLevel ?? plugin.logLevel ?? '',
    validation: record.isNotFound ? null : compileRouteValidation(routeOptions, plugin.schema),
    serializers: record.isNotFound ? null : compileRouteSerializers(routeOptions, plugin.schema),
    replySerializer: plugin.replySerializer,
    Request: plugin.Request,
    Reply: plugin.Reply,
    requestProps: shared.requestProps,
    replyProps: shared.replyProps,
    isNotFound: record.isNotFound,
    autoHead: record.autoHead,
    genReqId: shared.genReqId,
    requestLogger: resolveRequestLogger(options, plugin, instance, contexts.identity),
    schemaFunctions: null
  }
}

/** The route's list of one hook, bound to its instance; null when it has none (the request path tests for null). */
function boundHooks (name: LifecycleHookName, plugin: PluginContext, options: RouteOptions, instance: Instance): AnyFn[] | null {
  // most routes have no hook of most kinds: no list to copy, map and drop
  if (plugin.hooks[name].length === 0 && options[name] === undefined) return null
  const list = routeHooks(plugin, options, name).map((fn) => bindHook(name, fn, instance))
  return list.length > 0 ? list : null
}

/**
 * A hook bound to its instance, called as the runners call every hook, `(request, reply, done)`. onRequestAbort
 * hooks take `(request, done)` (the reply cannot answer any more), so theirs is adapted here, once.
 */
function bindHook (name: LifecycleHookName, fn: AnyFn, instance: Instance): AnyFn {
  if (name !== 'onRequestAbort') return fn.bind(instance)
  return (request: unknown, _reply: unknown, done: unknown) => fn.call(instance, request, done)
}
