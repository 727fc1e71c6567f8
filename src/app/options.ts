/**
 * Factory options: defaults and validation at construction. Fastify 4's option names and types, checked as Fastify
 * checks them (`options-schema.ts`); names Enclave does not know are ignored, as in Fastify, and logged.
 */
import type { ApiLevel } from '../core/api-level'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { checkOptionTypes } from './options-schema'
import { resolveRouterSettings, type RouterSettings } from '../routing/router-options'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { Instance, RawHandler } from '../encapsulation/app-state'
import type { RawServerBase } from '../types/raw'
import type { SchemaOptions } from '../schema/schema-scope'
import type { RequestState } from '../request/request'
import type { ChildLoggerFactory } from '../request/request-identity'
import type { ReplyState } from '../reply/reply'

type Check = (value: unknown) => boolean

const isFn: Check = (v) => typeof v === 'function'
const isObj: Check = (v) => typeof v === 'object' && v !== null
const isString: Check = (v) => typeof v === 'string'
const either = (...checks: Check[]): Check => (v) => checks.some((c) => c(v))

/**
 * Options Fastify takes without checking, which would fail later, on a request or at listen: Enclave checks them
 * at construction (each with what it must be).
 */
const failFast: Record<string, [Check, string]> = {
  logger: [either((v) => typeof v === 'boolean', isObj), 'a boolean, pino options or a logger instance'],
  genReqId: [isFn, 'a function'],
  requestIdHeader: [either(isString, (v) => v === false), 'a header name or false'],
  https: [either(isObj, (v) => v === null || v === true), 'an object of https/tls options (or true)'],
  http: [either(isObj, (v) => v === null), 'an object of http.createServer options'],
  serverFactory: [isFn, 'a function'],
  rewriteUrl: [isFn, 'a function'],
  frameworkErrors: [isFn, 'a function'],
  clientErrorHandler: [isFn, 'a function'],
  ajv: [isObj, 'an object { customOptions, plugins }'],
  validator: [isObj, 'an object { customOptions, plugins }'],
  serializerOpts: [isObj, 'an object'],
  schemaController: [isObj, 'an object { bucket, compilersFactory }'],
  childLoggerFactory: [isFn, 'a function'],
  versioning: [isObj, 'an object'],
  compileCache: [isObj, 'an object { dir }']
}

/** Every option name Enclave reads; others are ignored (as Fastify ignores them) and reported by `unknownOptions`. */
const knownOptions = new Set([
  ...Object.keys(failFast), 'loggerInstance', 'bodyLimit', 'querystringParser', 'schemaErrorFormatter', 'trustProxy', 'constraints',
  'connectionTimeout', 'keepAliveTimeout', 'requestTimeout', 'maxRequestsPerSocket', 'forceCloseConnections',
  'closeTimeout', 'handlerTimeout', 'pluginTimeout', 'http2SessionTimeout', 'maxParamLength', 'http2', 'caseSensitive', 'allowUnsafeRegex',
  'ignoreTrailingSlash', 'ignoreDuplicateSlashes', 'disableRequestLogging', 'jsonShorthand', 'exposeHeadRoutes',
  'allowErrorHandlerOverride',
  'return503OnClosing', 'useSemicolonDelimiter', 'requestIdLogLabel', 'onProtoPoisoning', 'onConstructorPoisoning',
  'routerOptions'
])

export interface NormalizedOptions {
  logger: unknown
  /** Fastify 5's `loggerInstance` (both levels): a logger object, used as it is. */
  loggerInstance: unknown
  /** `true` silences Enclave's request log lines; Fastify 5's function of the request (both levels) does per request. */
  disableRequestLogging: boolean | ((request: RequestState) => boolean)
  bodyLimit: number
  caseSensitive: boolean
  ignoreTrailingSlash: boolean
  ignoreDuplicateSlashes: boolean
  maxParamLength: number
  trustProxy: unknown
  genReqId: ((req: IncomingMessage) => string) | undefined
  requestIdHeader: string | false
  requestIdLogLabel: string
  onProtoPoisoning: 'error' | 'remove' | 'ignore'
  onConstructorPoisoning: 'error' | 'remove' | 'ignore'
  pluginTimeout: number
  return503OnClosing: boolean
  exposeHeadRoutes: boolean
  /** Fastify 5's option (both levels): `false` refuses a second `setErrorHandler()` in one scope. */
  allowErrorHandlerOverride: boolean
  https: Record<string, unknown> | null | undefined
  /** Options for `http.createServer` (plain HTTP/1 only, as in Fastify). */
  http: Record<string, unknown> | null | undefined
  http2: boolean
  http2SessionTimeout: number
  connectionTimeout: number
  keepAliveTimeout: number
  requestTimeout: number
  maxRequestsPerSocket: number
  forceCloseConnections: boolean | 'idle'
  closeTimeout: number
  /** Milliseconds a route has to answer before FST_ERR_HANDLER_TIMEOUT (0: no limit); routes may set their own. */
  handlerTimeout: number
  serverFactory: ((handler: RawHandler, opts: NormalizedOptions) => RawServerBase) | undefined
  querystringParser: ((str: string) => Record<string, unknown>) | undefined
  rewriteUrl: ((req: IncomingMessage) => unknown) | undefined
  frameworkErrors: ((err: Error, request: RequestState, reply: ReplyState) => void) | undefined
  clientErrorHandler: ((this: Instance, err: Error, socket: Socket) => void) | undefined
  constraints: Record<string, unknown> | undefined
  allowUnsafeRegex: boolean
  useSemicolonDelimiter: boolean
  jsonShorthand: boolean | undefined
  ajv: SchemaOptions['ajv']
  validator: SchemaOptions['validator']
  serializerOpts: SchemaOptions['serializerOpts']
  schemaController: SchemaOptions['schemaController']
  schemaErrorFormatter: SchemaOptions['schemaErrorFormatter']
  childLoggerFactory: ChildLoggerFactory | undefined
  compileCache: SchemaOptions['compileCache']
  /**
   * The router's effective settings: `routerOptions` over the top-level router options over the defaults (the
   * top-level fields above keep what was given there, as `initialConfig` shows them).
   */
  routerOptions: RouterSettings
  /** The `routerOptions` the user gave (type-checked copy), for `initialConfig`, which shows them only when given (Fastify 5). */
  routerOptionsGiven: Readonly<Record<string, unknown>> | undefined
  /** Deprecated by Fastify 4 (FSTDEP009): becomes the router's `version` strategy. */
  versioning: { storage: () => unknown, deriveVersion: (req: IncomingMessage, ctx?: unknown) => unknown } | undefined
}

export const defaults = {
  logger: false,
  disableRequestLogging: false,
  bodyLimit: 1024 * 1024,
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  maxParamLength: 100,
  trustProxy: false,
  requestIdHeader: 'request-id' as string | false,
  requestIdLogLabel: 'reqId',
  onProtoPoisoning: 'error' as const,
  onConstructorPoisoning: 'error' as const,
  pluginTimeout: 10000,
  return503OnClosing: true,
  exposeHeadRoutes: true,
  allowErrorHandlerOverride: true,
  http2: false,
  http2SessionTimeout: 72000,
  connectionTimeout: 0,
  keepAliveTimeout: 72000,
  requestTimeout: 0,
  maxRequestsPerSocket: 0,
  forceCloseConnections: 'idle' as const,
  closeTimeout: 10000,
  handlerTimeout: 0,
  allowUnsafeRegex: false,
  useSemicolonDelimiter: false
}

/**
 * Checks the user's options and fills in the defaults: Fastify's codes for the options it checks (with Ajv's
 * wording for the typed ones, coerced as Fastify coerces them), a coded error for the ones that would fail later.
 */
export function normalizeOptions (options: unknown, level: ApiLevel): NormalizedOptions {
  if (options === undefined || options === null) options = {}
  if (typeof options !== 'object' || Array.isArray(options)) throw new codes.FST_ERR_OPTIONS_NOT_OBJ()
  const given: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(options as Record<string, unknown>)) if (value !== undefined) given[name] = value
  const formatter = given.schemaErrorFormatter
  // Fastify's own codes for these options, which plugins and users match on
  if (formatter !== undefined && (typeof formatter !== 'function' || formatter.constructor?.name === 'AsyncFunction')) {
    throw new codes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(typeof formatter === 'function' ? 'AsyncFunction' : typeof formatter)
  }
  // coerced in place by the type check: the user's object stays as it was (it may configure several applications)
  if (isObj(given.routerOptions)) given.routerOptions = { ...given.routerOptions as object }
  const bodyLimit = given.bodyLimit
  if (bodyLimit !== undefined && !(Number.isInteger(bodyLimit) && (bodyLimit as number) > 0)) {
    throw new codes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(bodyLimit)
  }
  if (given.querystringParser !== undefined && typeof given.querystringParser !== 'function') {
    throw new codes.FST_ERR_QSP_NOT_FN(typeof given.querystringParser)
  }
  // Fastify 5's reading (both levels): `true` is the default header, an empty name is none
  if (given.requestIdHeader === true) given.requestIdHeader = defaults.requestIdHeader
  else if (given.requestIdHeader === '') given.requestIdHeader = false
  // a function of the request (Fastify 5, both levels) goes past the boolean type check
  const requestLogFilter = typeof given.disableRequestLogging === 'function' ? given.disableRequestLogging : undefined
  if (requestLogFilter !== undefined) delete given.disableRequestLogging
  checkOptionTypes(given)
  if (requestLogFilter !== undefined) given.disableRequestLogging = requestLogFilter
  for (const [name, [check, expected]] of Object.entries(failFast)) {
    if (given[name] !== undefined && !check(given[name])) {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`"${name}" must be ${expected}, got ${describe(given[name])}`)
    }
  }
  const routerOptions = resolveRouterSettings(given, level)
  checkRouterStrategies(routerOptions.constraints, given.versioning)
  // `https: true` is a TLS server with Node's defaults, as Fastify makes it
  if (given.https === true) given.https = {}
  return { ...defaults, ...level.optionDefaults, ...given, routerOptions, routerOptionsGiven: given.routerOptions } as unknown as NormalizedOptions
}

/** The option names given that Enclave does not read: ignored, as Fastify ignores them (old or misspelt names). */
export function unknownOptions (options: unknown): string[] {
  if (options === null || typeof options !== 'object') return []
  return Object.keys(options).filter((name) => !knownOptions.has(name))
}

/** `constraints` and `versioning` go to find-my-way, whose own errors would be assertion failures at construction. */
function checkRouterStrategies (constraints: Record<string, unknown> | undefined, versioningOption: unknown): void {
  for (const [key, strategy] of Object.entries(constraints ?? {})) {
    const s = strategy as Record<string, unknown>
    if (typeof s.name !== 'string' || s.name === '' || typeof s.storage !== 'function' || typeof s.deriveConstraint !== 'function' ||
      typeof s.validate !== 'function') {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`"constraints.${key}" must be a constraint strategy { name, storage(), validate(), deriveConstraint() }, got ${describe(s)}`)
    }
  }
  const versioning = versioningOption as NormalizedOptions['versioning']
  if (versioning === undefined) return
  if (typeof versioning.storage !== 'function' || typeof versioning.deriveVersion !== 'function') {
    throw new codes.FST_ERR_INIT_OPTS_INVALID('"versioning" must be an object { storage(), deriveVersion() }')
  }
  warnDeprecated('versioningOption')
}

function describe (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return `a value of type ${typeof value}`
}
