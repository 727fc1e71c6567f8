/**
 * How a request gets its id and its logger: the `genReqId` / `requestIdHeader` options, `setGenReqId`, and the
 * `childLoggerFactory` option, route option and `setChildLoggerFactory`. Both setters are encapsulated: a context
 * uses its own setting, else its nearest ancestor's (looked up when the app becomes ready, so a setting made after
 * a child was registered still reaches it, as with Fastify's prototype-inherited instance properties). Each route
 * gets the resolved functions in its `CompiledRoute`, so a request makes no lookups.
 */
import type { IncomingMessage } from 'node:http'
import { codes } from '../core/errors'
import { missingLoggerMethods } from '../core/logger-shape'
import { assertSetter } from '../core/start-guard'
import type { Instance } from '../encapsulation/app-state'
import type { Logger } from '../types/logger'
import { kApp, kPluginContext } from '../core/symbols'
import type { AnyFn } from '../core/types'
import type { PluginContext } from '../encapsulation/plugin-context'
import type { RouteOptions } from '../routing/route-model'
import type { NormalizedOptions } from '../app/options'

export type GenReqId = (rawRequest: IncomingMessage) => string
/** `(logger, bindings, childOptions, rawRequest) => childLogger`, called with the route's instance as `this`. */
export type ChildLoggerFactory = (this: Instance, logger: Logger, bindings: Record<string, unknown>, childOptions: Record<string, unknown>, rawRequest: IncomingMessage) => Logger
/** What a request calls once it has its id: returns the request's logger. */
export type RequestLoggerBuilder = (id: string, rawRequest: IncomingMessage) => Logger

const BASE36_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'

/**
 * The default generator: `req-1`, `req-2`, … (base 36), one counter per application. The id is `'req-' +
 * next.toString(36)`, built from the base-36 text of every digit but the last, which changes once every 36 ids: a
 * radix conversion per request costs more than the rest of the request's identity.
 */
export function counterReqIdGenerator (): GenReqId {
  let next = 0
  let prefix = 'req-'
  return () => {
    next = next === Number.MAX_SAFE_INTEGER ? 1 : next + 1
    const last = next % 36
    if (last === 0 || next === 1) {
      const high = (next - last) / 36
      prefix = high === 0 ? 'req-' : 'req-' + high.toString(36)
    }
    return prefix + BASE36_DIGITS[last]
  }
}

/** A non-empty `requestIdHeader` value wins over any generator, the option's and `setGenReqId`'s alike. */
export function withRequestIdHeader (header: string | false, generate: GenReqId): GenReqId {
  if (header === false) return generate
  // Node lower-cases incoming header names: 'X-Request-Id' must match 'x-request-id'
  const name = header.toLowerCase()
  return (req) => {
    const given = req?.headers?.[name] // `app.genReqId()` may be called without a request
    return typeof given === 'string' && given !== '' ? given : generate(req)
  }
}

/** What `childLoggerFactory` returns when nothing was set: Fastify's default, `logger.child(bindings, opts)`. */
export function defaultChildLoggerFactory (this: Instance, logger: Logger, bindings: Record<string, unknown>, childOptions: Record<string, unknown>): Logger {
  return logger.child(bindings, childOptions)
}

/** Per-context settings; null means "inherit". */
export interface RequestIdentitySettings {
  genReqId: GenReqId | null
  childLoggerFactory: ChildLoggerFactory | null
}
const settingsByContext = new WeakMap<PluginContext, RequestIdentitySettings>()

function ownSettings (context: PluginContext): RequestIdentitySettings {
  let settings = settingsByContext.get(context)
  if (settings === undefined) settingsByContext.set(context, settings = { genReqId: null, childLoggerFactory: null })
  return settings
}

function inherited<K extends keyof RequestIdentitySettings> (context: PluginContext, key: K): RequestIdentitySettings[K] {
  for (let ctx: PluginContext | null = context; ctx !== null; ctx = ctx.parent) {
    const value = settingsByContext.get(ctx)?.[key]
    if (value !== undefined && value !== null) return value
  }
  return null
}

/** Application-wide defaults, built once from the factory options. */
export interface RequestIdentityDefaults {
  options: NormalizedOptions
  logger: Logger
  /** Whether the app logs at all: without a logger, a request's logger is the app's (unless a factory is set). */
  loggingEnabled: boolean
  /** The factory's generator (with the header rule), shared by every context that does not call `setGenReqId`. */
  genReqId: GenReqId
}

export function requestIdentityDefaults (options: NormalizedOptions, logger: Logger, loggingEnabled: boolean): RequestIdentityDefaults {
  return { options, logger, loggingEnabled, genReqId: withRequestIdHeader(options.requestIdHeader, options.genReqId ?? counterReqIdGenerator()) }
}

/** The id generator of a route of `plugin`: its context's (or an ancestor's) `setGenReqId`, else the factory's. */
export function resolveGenReqId (plugin: PluginContext, defaults: RequestIdentityDefaults): GenReqId {
  const own = inherited(plugin, 'genReqId')
  return own === null ? defaults.genReqId : withRequestIdHeader(defaults.options.requestIdHeader, own)
}

/**
 * The logger builder of one route: route option > context `setChildLoggerFactory` > factory option > pino's child.
 * Bindings are `{ [requestIdLogLabel]: id }`; child options carry the route's `logLevel`, else its plugin's.
 * `null` when there is nothing to build: logging is off and no factory was set (a factory is called either way,
 * as in Fastify: it may attach what the handlers read).
 */
export function resolveRequestLogger (route: RouteOptions, plugin: PluginContext, instance: Instance, defaults: RequestIdentityDefaults): RequestLoggerBuilder | null {
  const { logger, options } = defaults
  const label = options.requestIdLogLabel
  const level = route.logLevel ?? plugin.logLevel
  checkLevel(logger, level, route)
  const serializers = logSerializers(route, plugin)
  if (route.childLoggerFactory !== undefined && typeof route.childLoggerFactory !== 'function') {
    // route() does not check this option; failing ready() beats failing every request of the route
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('childLoggerFactory', String(route.method), route.url, 'must be a function')
  }
  const factory = (route.childLoggerFactory as ChildLoggerFactory | undefined) ?? inherited(plugin, 'childLoggerFactory') ??
    options.childLoggerFactory
  if (factory === undefined) {
    if (!defaults.loggingEnabled) return null
    const childOptions = childLoggerOptions(level, serializers)
    return (id) => logger.child({ [label]: id }, childOptions)
  }
  // fresh objects per request: a factory may add to them (Fastify's example adds bindings)
  return (id, req) => {
    const child: unknown = factory.call(instance, logger, { [label]: id }, childLoggerOptions(level, serializers) ?? {}, req)
    const missing = missingLoggerMethods(child)
    if (missing.length > 0) throw new codes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
    return child as Logger
  }
}

function childLoggerOptions (level: string | undefined, serializers: Record<string, AnyFn> | undefined): Record<string, unknown> | undefined {
  if (!level && serializers === undefined) return undefined
  const childOptions: Record<string, unknown> = {}
  if (level) childOptions.level = level
  if (serializers !== undefined) childOptions.serializers = serializers
  return childOptions
}

/** The plugin's `logSerializers` (merged down the context chain) overlaid by the route's; each must be a function. */
function logSerializers (route: RouteOptions, plugin: PluginContext): Record<string, AnyFn> | undefined {
  const own: unknown = route.logSerializers
  for (const given of [own, plugin.logSerializers]) {
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
      throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logSerializers', String(route.method), route.url, 'must be an object of functions')
    }
  }
  const merged = own === undefined ? plugin.logSerializers : { ...plugin.logSerializers, ...(own as Record<string, AnyFn>) }
  if (merged === undefined) return undefined
  for (const [key, serializer] of Object.entries(merged)) {
    if (typeof serializer !== 'function') {
      throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logSerializers', String(route.method), route.url, `serializer "${key}" must be a function`)
    }
  }
  return merged
}

/** pino throws on an unknown level when the child logger is made: fail `ready()` rather than every request. */
function checkLevel (logger: Logger, level: unknown, route: RouteOptions): void {
  if (isUnknownLogLevel(logger, level)) {
    throw new codes.FST_ERR_ROUTE_OPTION_INVALID('logLevel', String(route.method), route.url, `unknown log level ${JSON.stringify(level)}`)
  }
}

/**
 * Whether `level` is a route log level `logger` cannot give a child: false when there is none ('' is Fastify's "no
 * level of its own") or the logger does not list its levels (a custom logger); 'silent' is always known.
 */
export function isUnknownLogLevel (logger: Logger, level: unknown): boolean {
  const known = (logger as { levels?: { values?: unknown } }).levels?.values
  if (level === undefined || level === '' || known === null || typeof known !== 'object') return false
  return typeof level !== 'string' || (level !== 'silent' && !Object.hasOwn(known, level))
}

/** Mixed into the instance prototype (copied as descriptors, for the getters). */
export const requestIdentityInstanceMethods = {
  /** The request id generator of routes registered in this context and its descendants. */
  setGenReqId (this: Instance, genReqId: GenReqId): Instance {
    assertSetter(this, 'setGenReqId', genReqId, codes.FST_ERR_INSTANCE_SETTER_NOT_FN)
    ownSettings(this[kPluginContext]).genReqId = genReqId
    return this
  },

  /** The child logger factory of routes registered in this context and its descendants. */
  setChildLoggerFactory (this: Instance, factory: ChildLoggerFactory): Instance {
    assertSetter(this, 'setChildLoggerFactory', factory, codes.FST_ERR_INSTANCE_SETTER_NOT_FN)
    ownSettings(this[kPluginContext]).childLoggerFactory = factory
    return this
  },

  /** The request id generator of this context's routes (with the `requestIdHeader` rule applied). */
  get genReqId (): GenReqId {
    const self = this as unknown as Instance
    return resolveGenReqId(self[kPluginContext], self[kApp].requestIdentity)
  },

  /** The factory in effect for this context: the nearest `setChildLoggerFactory`, the option, or the default. */
  get childLoggerFactory (): AnyFn {
    const self = this as unknown as Instance
    return inherited(self[kPluginContext], 'childLoggerFactory') ?? self[kApp].options.childLoggerFactory ?? defaultChildLoggerFactory
  }
}
