/**
 * Encapsulation state. Every `register()` (unless the plugin skips override) creates a child `PluginContext`
 * that copies its parent's lists at creation; later additions in the child never reach the parent or siblings.
 * A route's pipeline is compiled into a `RouteContext` once, when the application becomes ready.
 */
import type { ContentTypeParserRegistry } from './content-type-parser'
import type { SchemaContext } from './schemas'
import type { RouteValidation } from './validation'
import type { ResponseSerializers } from './serialization'
import type { GenReqId, RequestLoggerBuilder } from './request-identity'
import type { RouteSchemaFunctions } from './route-schema-functions'

export const lifecycleHooks = [
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError',
  'onTimeout', 'onRequestAbort'
] as const
export const applicationHooks = ['onRoute', 'onRegister', 'onReady', 'onListen', 'onClose', 'preClose'] as const
export type LifecycleHookName = typeof lifecycleHooks[number]
export type ApplicationHookName = typeof applicationHooks[number]
export type HookName = LifecycleHookName | ApplicationHookName

export type AnyFn = (...args: any[]) => any
export type HookLists = Record<HookName, AnyFn[]>

export interface ErrorHandlerLink {
  fn: AnyFn
  /** The instance the handler was set on: it is called with this `this`. */
  instance: any
  parent: ErrorHandlerLink | null
}

export class PluginContext {
  readonly parent: PluginContext | null
  /** The public instance object of this context (an `Object.create` of the parent's instance). */
  instance: any
  prefix: string
  pluginName: string
  hooks: HookLists
  schema: SchemaContext
  contentTypeParsers: ContentTypeParserRegistry
  errorHandler: ErrorHandlerLink
  /** Default serializer for replies without a response schema (`setReplySerializer`). */
  replySerializer: AnyFn | null
  /** Per-context request/reply classes: decorators go on their prototypes, so sibling contexts never share them. */
  Request: any
  Reply: any
  /** Own (non-function) request/reply decorator values, set as own properties at construction for a stable shape. */
  requestProps: Array<[string | symbol, unknown]>
  replyProps: Array<[string | symbol, unknown]>
  /** Plugin-meta names of plugins registered in this context or its ancestors: what `dependencies` may name. */
  registeredPlugins: string[]
  /**
   * With `registeredPlugins`, what `hasPlugin()` reports, as in Fastify: the non-encapsulated plugins loaded into
   * this context or into an ancestor before this context was created, and this context's own plugin (an
   * encapsulated plugin without plugin-meta is visible to itself only, not to its parent or children).
   */
  sharedPlugins: string[]
  ownPlugin: string | null
  /** The `logLevel` register option of this context or its nearest ancestor: the default of its routes. */
  logLevel: string | undefined
  /** The `logSerializers` register options of this context and its ancestors, merged (nearest wins). */
  logSerializers: Record<string, AnyFn> | undefined
  /** Child contexts created so far: a hook added here later must reach them too. */
  readonly children: PluginContext[] = []
  /** Names given to `decorate()` on this context's instance: a child context may shadow them (as in Fastify). */
  readonly instanceDecorators = new Set<string | symbol>()

  constructor (parent: PluginContext | null, init: {
    instance: any, prefix: string, pluginName: string, hooks: HookLists, schema: SchemaContext,
    contentTypeParsers: ContentTypeParserRegistry, errorHandler: ErrorHandlerLink, replySerializer: AnyFn | null,
    Request: any, Reply: any, requestProps: Array<[string | symbol, unknown]>, replyProps: Array<[string | symbol, unknown]>,
    registeredPlugins: string[], sharedPlugins: string[], ownPlugin: string | null, logLevel?: string,
    logSerializers?: Record<string, AnyFn>
  }) {
    this.parent = parent
    this.instance = init.instance
    this.prefix = init.prefix
    this.pluginName = init.pluginName
    this.hooks = init.hooks
    this.schema = init.schema
    this.contentTypeParsers = init.contentTypeParsers
    this.errorHandler = init.errorHandler
    this.replySerializer = init.replySerializer
    this.Request = init.Request
    this.Reply = init.Reply
    this.requestProps = init.requestProps
    this.replyProps = init.replyProps
    this.registeredPlugins = init.registeredPlugins
    this.sharedPlugins = init.sharedPlugins
    this.ownPlugin = init.ownPlugin
    this.logLevel = init.logLevel
    this.logSerializers = init.logSerializers
  }
}

/** What a route was registered with, after prefixing and `onRoute` hooks. Plugins may mutate it in `onRoute`. */
export interface RouteOptions {
  method: string | string[]
  url: string
  path?: string
  /** The path as given to `route()`, before the prefix was applied. */
  routePath?: string
  prefix?: string
  handler: AnyFn
  schema?: Record<string, any>
  config?: Record<string, any>
  attachValidation?: boolean
  bodyLimit?: number
  logLevel?: string
  logSerializers?: Record<string, AnyFn>
  errorHandler?: AnyFn
  validatorCompiler?: AnyFn
  serializerCompiler?: AnyFn
  schemaErrorFormatter?: AnyFn
  exposeHeadRoute?: boolean
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  constraints?: Record<string, unknown>
  [hook: string]: unknown
}

/**
 * Everything one route needs per request, resolved once when the app becomes ready. Empty hook lists are `null`,
 * so the request path checks for null instead of looping over nothing.
 */
export interface RouteContext {
  method: string
  url: string
  options: RouteOptions
  /** `request.routeOptions.config` / `routeConfig`: the route's config plus `url` and `method`. */
  config: Record<string, any>
  schema: Record<string, any> | undefined
  handler: AnyFn
  /** The instance of the context the route was registered in: `this` of the handler. */
  instance: any
  plugin: PluginContext
  onRequest: AnyFn[] | null
  preParsing: AnyFn[] | null
  preValidation: AnyFn[] | null
  preHandler: AnyFn[] | null
  preSerialization: AnyFn[] | null
  onSend: AnyFn[] | null
  onResponse: AnyFn[] | null
  onError: AnyFn[] | null
  onTimeout: AnyFn[] | null
  onRequestAbort: AnyFn[] | null
  errorHandler: ErrorHandlerLink
  contentTypeParsers: ContentTypeParserRegistry
  bodyLimit: number
  attachValidation: boolean
  /** The route's `logLevel`, else its plugin's, else `''`. */
  logLevel: string
  /** Compiled validators for body/querystring/params/headers, or null when the route has none. */
  validation: RouteValidation | null
  /** Compiled response serializers by status key, or null when the route has no response schema. */
  serializers: ResponseSerializers | null
  replySerializer: AnyFn | null
  Request: any
  Reply: any
  requestProps: Array<[string | symbol, unknown]>
  replyProps: Array<[string | symbol, unknown]>
  /** True for the not-found route contexts. */
  isNotFound: boolean
  /** The HEAD route Enclave added for a GET route (`exposeHeadRoutes`): it answers with its GET body's length. */
  autoHead: boolean
  /** The request id generator of the route's context (`setGenReqId`, else the factory's), header rule included. */
  genReqId: GenReqId
  /** Builds a request's logger from its id (`childLoggerFactory` of the route, its context or the factory). */
  requestLogger: RequestLoggerBuilder
  /** Schemas compiled on demand by `request.compileValidationSchema` / `reply.compileSerializationSchema`; created on first use. */
  schemaFunctions: RouteSchemaFunctions | null
}

/** A route's list of one hook: its context's (inherited ones included), then the route option's (one or a list). */
export function routeHooks (plugin: PluginContext, options: RouteOptions, name: LifecycleHookName): AnyFn[] {
  const own: unknown = options[name]
  if (own === undefined) return plugin.hooks[name].slice()
  return plugin.hooks[name].concat(own as AnyFn | AnyFn[])
}
