/**
 * Factory options: defaults and fail-fast validation. Every Fastify 4 server option name is accepted; an unknown
 * name or a value of the wrong type throws `FST_ERR_INIT_OPTS_INVALID` at construction, naming the option.
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { Instance, RawHandler } from '../encapsulation/app-state'
import type { RawServerBase } from '../types/raw'
import type { SchemaOptions } from '../schema/schema-scope'
import type { RequestState } from '../request/request'
import type { ChildLoggerFactory } from '../request/request-identity'
import type { ReplyState } from '../reply/reply'

type Check = (value: unknown) => boolean

const isBool: Check = (v) => typeof v === 'boolean'
const isFn: Check = (v) => typeof v === 'function'
const isObj: Check = (v) => typeof v === 'object' && v !== null
const isNonNegInt: Check = (v) => Number.isInteger(v) && (v as number) >= 0
const isPosInt: Check = (v) => Number.isInteger(v) && (v as number) > 0
const isString: Check = (v) => typeof v === 'string'
const oneOf = (...values: unknown[]): Check => (v) => values.includes(v)
const either = (...checks: Check[]): Check => (v) => checks.some((c) => c(v))

/** Each known option with the check its value must pass, and the expectation named in the error. */
const schema: Record<string, [Check, string]> = {
  logger: [either(isBool, isObj), 'a boolean, pino options or a logger instance'],
  disableRequestLogging: [isBool, 'a boolean'],
  bodyLimit: [isPosInt, 'a positive integer (bytes)'],
  caseSensitive: [isBool, 'a boolean'],
  ignoreTrailingSlash: [isBool, 'a boolean'],
  ignoreDuplicateSlashes: [isBool, 'a boolean'],
  maxParamLength: [isPosInt, 'a positive integer'],
  trustProxy: [either(isBool, isString, isNonNegInt, Array.isArray, isFn), 'a boolean, string, number, array or function'],
  genReqId: [isFn, 'a function'],
  requestIdHeader: [either(isString, oneOf(false)), 'a header name or false'],
  requestIdLogLabel: [isString, 'a string'],
  onProtoPoisoning: [oneOf('error', 'remove', 'ignore'), "'error', 'remove' or 'ignore'"],
  onConstructorPoisoning: [oneOf('error', 'remove', 'ignore'), "'error', 'remove' or 'ignore'"],
  pluginTimeout: [isNonNegInt, 'a non-negative integer (ms)'],
  return503OnClosing: [isBool, 'a boolean'],
  exposeHeadRoutes: [isBool, 'a boolean'],
  https: [either(isObj, oneOf(null)), 'an object of https/tls options'],
  http2: [isBool, 'a boolean'],
  http2SessionTimeout: [isNonNegInt, 'a non-negative integer (ms)'],
  connectionTimeout: [isNonNegInt, 'a non-negative integer (ms)'],
  keepAliveTimeout: [isNonNegInt, 'a non-negative integer (ms)'],
  requestTimeout: [isNonNegInt, 'a non-negative integer (ms)'],
  maxRequestsPerSocket: [isNonNegInt, 'a non-negative integer'],
  forceCloseConnections: [either(isBool, oneOf('idle')), "a boolean or 'idle'"],
  closeTimeout: [isNonNegInt, 'a non-negative integer (ms; 0 waits for in-flight requests without limit)'],
  serverFactory: [isFn, 'a function'],
  querystringParser: [isFn, 'a function'],
  rewriteUrl: [isFn, 'a function'],
  frameworkErrors: [isFn, 'a function'],
  clientErrorHandler: [isFn, 'a function'],
  constraints: [isObj, 'an object of constraint strategies'],
  allowUnsafeRegex: [isBool, 'a boolean'],
  useSemicolonDelimiter: [isBool, 'a boolean'],
  jsonShorthand: [isBool, 'a boolean'],
  ajv: [isObj, 'an object { customOptions, plugins }'],
  validator: [isObj, 'an object { customOptions, plugins }'],
  serializerOpts: [isObj, 'an object'],
  schemaController: [isObj, 'an object { bucket, compilersFactory }'],
  schemaErrorFormatter: [isFn, 'a synchronous function'],
  childLoggerFactory: [isFn, 'a function'],
  versioning: [isObj, 'an object']
}

export interface NormalizedOptions {
  logger: unknown
  disableRequestLogging: boolean
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
  https: Record<string, unknown> | null | undefined
  http2: boolean
  http2SessionTimeout: number
  connectionTimeout: number
  keepAliveTimeout: number
  requestTimeout: number
  maxRequestsPerSocket: number
  forceCloseConnections: boolean | 'idle'
  closeTimeout: number
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
  http2: false,
  http2SessionTimeout: 72000,
  connectionTimeout: 0,
  keepAliveTimeout: 72000,
  requestTimeout: 0,
  maxRequestsPerSocket: 0,
  forceCloseConnections: 'idle' as const,
  closeTimeout: 10000,
  allowUnsafeRegex: false,
  useSemicolonDelimiter: false
}

/** Validates the user's options and fills in the defaults. Throws on the first unknown or ill-typed option. */
export function normalizeOptions (options: unknown): NormalizedOptions {
  if (options === undefined || options === null) options = {}
  if (typeof options !== 'object' || Array.isArray(options)) throw new codes.FST_ERR_OPTIONS_NOT_OBJ()
  const given = options as Record<string, unknown>
  const formatter = given.schemaErrorFormatter
  // Fastify's own code for this option, which plugins and users match on
  if (formatter !== undefined && (typeof formatter !== 'function' || formatter.constructor?.name === 'AsyncFunction')) {
    throw new codes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(typeof formatter === 'function' ? 'AsyncFunction' : typeof formatter)
  }
  for (const name of Object.keys(given)) {
    const value = given[name]
    if (value === undefined) continue
    const rule = schema[name]
    if (rule === undefined) {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`unknown option "${name}"`)
    }
    if (!rule[0](value)) {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`"${name}" must be ${rule[1]}, got ${describe(value)}`)
    }
  }
  checkRouterStrategies(given)
  const out: Record<string, unknown> = { ...defaults }
  for (const [k, v] of Object.entries(given)) if (v !== undefined) out[k] = v
  return out as unknown as NormalizedOptions
}

/** `constraints` and `versioning` go to find-my-way, whose own errors would be assertion failures at construction. */
function checkRouterStrategies (given: Record<string, unknown>): void {
  const constraints = (given.constraints ?? {}) as Record<string, unknown>
  for (const [key, strategy] of Object.entries(constraints)) {
    const s = strategy as Record<string, unknown> | null
    if (s === null || typeof s !== 'object' || typeof s.name !== 'string' || s.name === '' ||
      typeof s.storage !== 'function' || typeof s.deriveConstraint !== 'function') {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`"constraints.${key}" must be a constraint strategy { name, storage(), deriveConstraint() }, got ${describe(s)}`)
    }
  }
  const versioning = given.versioning as NormalizedOptions['versioning']
  if (versioning === undefined) return
  if (typeof versioning.storage !== 'function' || typeof versioning.deriveVersion !== 'function') {
    throw new codes.FST_ERR_INIT_OPTS_INVALID('"versioning" must be an object { storage(), deriveVersion() }')
  }
  // Fastify lets `versioning` silently replace a `version` strategy; two sources for one strategy is a mistake
  if (Object.values(constraints).some((s) => (s as { name: string }).name === 'version')) {
    throw new codes.FST_ERR_INIT_OPTS_INVALID('"versioning" and a "version" strategy in "constraints" cannot both be set')
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
