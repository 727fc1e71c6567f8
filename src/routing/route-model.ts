/**
 * The route model: what a route was registered with (`RouteOptions`), what the router stores for it
 * (`RouteRecord`), and what it is compiled into when the application becomes ready (`CompiledRoute`), the one
 * object the request path reads.
 */
import type { AnyFn, JsonSchema, LooseObject } from '../core/types'
import type { BodyRule } from '../core/http-methods'
import type { ErrorHandlerLink, OwnDecorator, PluginContext } from '../encapsulation/plugin-context'
import type { Instance } from '../encapsulation/app-state'
import type { RouteValidation } from '../schema/validation/route-validation'
import type { ResponseSerializers } from '../schema/serialization/response-serializers'
import type { ContentTypeParserRegistry } from '../request/content-type-parser'
import type { GenReqId, RequestLoggerBuilder } from '../request/request-identity'
import type { RouteSchemaFunctions } from '../request/route-schema-functions'
import type { RequestClass } from '../request/request'
import type { ReplyClass } from '../reply/reply'

/** What a route was registered with, after prefixing and `onRoute` hooks. Plugins may mutate it in `onRoute`. */
export interface RouteOptions {
  method: string | string[]
  url: string
  path?: string
  /** The path as given to `route()`, before the prefix was applied. */
  routePath?: string
  prefix?: string
  handler: AnyFn
  schema?: JsonSchema
  config?: LooseObject
  attachValidation?: boolean
  bodyLimit?: number
  handlerTimeout?: number
  logLevel?: string
  logSerializers?: Record<string, AnyFn>
  errorHandler?: AnyFn
  validatorCompiler?: AnyFn
  serializerCompiler?: AnyFn
  schemaErrorFormatter?: AnyFn
  childLoggerFactory?: unknown
  exposeHeadRoute?: boolean
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  constraints?: Record<string, unknown>
  /** Deprecated (FSTDEP008): the `version` constraint. */
  version?: string
  [option: string]: unknown
}

/** One registered route (or not-found handler): what the router stores. `compiled` is filled in at ready. */
export interface RouteRecord {
  options: RouteOptions
  method: string
  url: string
  /**
   * The url requests see in `routeOptions` when it is not `url` (Fastify 5's prefix for a prefixed '/' route's slash
   * variant). Always present, undefined or not, so that every record has one shape: compile-at-ready loops over
   * thousands of them, and a second shape (a not-found handler's) made V8 throw away and redo its optimized code.
   */
  reportedUrl: string | undefined
  plugin: PluginContext
  instance: Instance
  compiled: CompiledRoute | null
  isNotFound: boolean
  autoHead: boolean
}

/**
 * Everything one route needs per request, resolved once when the app becomes ready. Empty hook lists are `null`,
 * so the request path checks for null instead of looping over nothing.
 */
export interface CompiledRoute {
  method: string
  url: string
  options: RouteOptions
  /** `request.routeOptions.config` / `routeConfig`: the route's config plus `url` and `method`. */
  config: LooseObject
  schema: JsonSchema | undefined
  handler: AnyFn
  /** The instance of the context the route was registered in: `this` of the handler. */
  instance: Instance
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
  /** Milliseconds the route has to answer: its own `handlerTimeout`, else the factory's; 0 (no limit) for not-found handlers. */
  handlerTimeout: number
  attachValidation: boolean
  /** How the route's method is read for a body (src/core/http-methods.ts); null for a not-found handler (every method). */
  bodyRule: BodyRule | null
  /** The route's `logLevel`, else its plugin's, else `''`. */
  logLevel: string
  /** Compiled validators for body/querystring/params/headers, or null when the route has none. */
  validation: RouteValidation | null
  /** Compiled response serializers by status key, or null when the route has no response schema. */
  serializers: ResponseSerializers | null
  replySerializer: AnyFn | null
  Request: RequestClass
  Reply: ReplyClass
  requestProps: OwnDecorator[]
  replyProps: OwnDecorator[]
  /** True for the not-found route contexts. */
  isNotFound: boolean
  /** The HEAD route Enclave added for a GET route (`exposeHeadRoutes`): it answers with its GET body's length. */
  autoHead: boolean
  /** The request id generator of the route's context (`setGenReqId`, else the factory's), header rule included. */
  genReqId: GenReqId
  /** Builds a request's logger from its id (`childLoggerFactory` of the route, its context or the factory). */
  requestLogger: RequestLoggerBuilder | null
  /** Schemas compiled on demand by `request.compileValidationSchema` / `reply.compileSerializationSchema`; created on first use. */
  schemaFunctions: RouteSchemaFunctions | null
}

