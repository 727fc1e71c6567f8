/**
 * Response serialization: at ready, every `schema.response` entry of a route is compiled (fast-json-stringify by
 * default) into a table that answers "which serializer for this status?" in O(1). Per reply, `serializeReply`
 * picks `reply.serializer(fn)` > route schema (exact code > class '4xx' > 'default') > `setReplySerializer` >
 * `JSON.stringify`. See docs/serialization.md.
 */
import fastJsonStringify from 'fast-json-stringify'
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { compileSerializer } from './serializer-compiler'
import { kApp, kContext, kReplySerializer } from './symbols'
import { expandShorthand, inspectForFastJsonStringify, isContentForm, isPlainObject } from './response-schema'
import type { PluginContext, RouteContext, RouteOptions } from './context'

/** Turns a payload into the response body. */
export type SerializerFn = (data: any) => string

/** What a serializer compiler receives, once per route, status key and (content form only) media type. */
export interface SerializerCompilerInput {
  schema: Record<string, any>
  method: string | string[]
  url: string
  /** The response key as written in the route schema: '200', '2xx', 'default'… */
  httpStatus: string
  /** Only for the `{ content: { [mediaType]: { schema } } }` form. */
  contentType?: string
}
export type SerializerCompiler = (input: SerializerCompilerInput) => SerializerFn
/** `schemaController.compilersFactory.buildSerializer`. */
export type SerializerCompilerFactory = (externalSchemas: Record<string, unknown>, serializerOpts: unknown) => SerializerCompiler

/** Per media type serializers of one status key (Fastify's `content` form). */
export class ContentTypeSerializers {
  readonly byType: Map<string, SerializerFn>
  /** The `application/json` entry, used when the reply declares no content type of its own. */
  readonly json: SerializerFn | undefined

  constructor (byType: Map<string, SerializerFn>) {
    this.byType = byType
    this.json = byType.get('application/json')
  }

  serialize (reply: any, payload: unknown, statusCode: number): string {
    const header = reply.getHeader('content-type')
    let fn = this.json
    if (typeof header === 'string') {
      const semi = header.indexOf(';')
      const mediaType = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
      fn = this.byType.get(mediaType)
      // fail closed: serializing with no schema could disclose fields the schemas filter out
      if (fn === undefined) throw new codes.FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN(statusCode, mediaType)
    }
    if (fn === undefined) throw new codes.FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN(statusCode, 'application/json')
    return fn(payload)
  }
}

export type ResponseSerializer = SerializerFn | ContentTypeSerializers

/** The compiled `schema.response` of one route. */
export interface ResponseSerializers {
  /** The response keys as declared on the route ('200', '2xx', 'default'…). */
  readonly keys: readonly string[]
  /** The serializer for a status: exact code, else its class ('4xx'), else 'default'; undefined when none applies. */
  forStatus (statusCode: number): ResponseSerializer | undefined
  /** The serializer declared under exactly this key ('200', '2xx', 'default'; case-insensitive), with no fallback. */
  forKey (key: string): ResponseSerializer | undefined
}

class ResponseSerializerTable implements ResponseSerializers {
  readonly keys: string[] = []
  readonly exact = new Map<number, ResponseSerializer>()
  /** Indexed by the status' first digit (0-5); each slot holds its class entry, else the 'default' one. */
  byClass: Array<ResponseSerializer | undefined> = []
  fallback: ResponseSerializer | undefined = undefined
  readonly byKey = new Map<string, ResponseSerializer>()

  forKey (key: string): ResponseSerializer | undefined {
    return this.byKey.get(key.toLowerCase())
  }

  forStatus (statusCode: number): ResponseSerializer | undefined {
    const exact = this.exact.get(statusCode)
    if (exact !== undefined) return exact
    const byClass = this.byClass[(statusCode / 100) | 0]
    return byClass !== undefined ? byClass : this.fallback
  }
}

const STATUS_KEY = /^[1-5](?:\d\d|xx)$/i

/**
 * At ready: compiles every response schema of a route. Throws FST_ERR_SCH_SERIALIZATION_BUILD naming the route,
 * the status key and the cause. Returns null when the route has no response schema.
 */
export function compileRouteSerializers (route: RouteOptions, plugin: PluginContext): ResponseSerializers | null {
  const response = route.schema?.response
  if (response === undefined || response === null) return null
  if (typeof response !== 'object' || Array.isArray(response) ||
    'type' in response || 'properties' in response || '$ref' in response) {
    throw new codes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX()
  }
  const keys = Object.keys(response)
  if (keys.length === 0) return null

  const compiler = resolveCompiler(route, plugin)
  const shorthand = plugin.schema.app.jsonShorthand
  const table = new ResponseSerializerTable()
  const byClass: Array<ResponseSerializer | undefined> = []
  for (const key of keys) {
    const fail = (cause: unknown): Error => buildError(route, key, cause)
    const normalized = key === 'default' ? key : STATUS_KEY.test(key) ? key.toLowerCase() : null
    if (normalized === null) throw fail(new Error(`"${key}" is not a status code (100-599), a class such as "2xx", or "default"`))
    const entry = compileEntry(response[key], key, route, compiler, shorthand, fail)
    if (normalized === 'default') {
      table.fallback = entry
    } else if (normalized.endsWith('xx')) {
      const digit = Number(normalized[0])
      if (byClass[digit] !== undefined) throw fail(new Error(`duplicate response key for class ${normalized}`))
      byClass[digit] = entry
    } else {
      table.exact.set(Number(normalized), entry)
    }
    table.keys.push(key)
    table.byKey.set(normalized, entry)
  }
  table.byClass = Array.from({ length: 6 }, (_, i) => byClass[i] ?? table.fallback)
  return table
}

function compileEntry (
  raw: unknown, key: string, route: RouteOptions, compiler: SerializerCompiler, shorthand: boolean, fail: (cause: unknown) => Error
): ResponseSerializer {
  if (!isPlainObject(raw)) throw fail(new Error('the response schema must be an object'))
  const base = { method: route.method, url: route.url, httpStatus: key }
  const expand = (schema: Record<string, any>): Record<string, any> => {
    const expanded = shorthand ? expandShorthand(schema) : schema
    if (expanded !== schema) warnDeprecated('jsonShorthand', route.url)
    return expanded
  }
  if (isContentForm(raw)) {
    const byType = new Map<string, SerializerFn>()
    for (const [mediaType, media] of Object.entries(raw.content as Record<string, any>)) {
      if (!isPlainObject(media) || !isPlainObject(media.schema)) throw new codes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(mediaType)
      const contentType = mediaType.toLowerCase()
      byType.set(contentType, compileOne(compiler, { ...base, schema: expand(media.schema), contentType }, fail))
    }
    return new ContentTypeSerializers(byType)
  }
  return compileOne(compiler, { ...base, schema: expand(raw) }, fail)
}

function compileOne (compiler: SerializerCompiler, input: SerializerCompilerInput, fail: (cause: unknown) => Error): SerializerFn {
  let fn: unknown
  try {
    fn = compiler(input)
  } catch (err) {
    throw fail(err)
  }
  if (typeof fn !== 'function') throw fail(new TypeError(`the serializer compiler returned ${typeof fn}, expected a function`))
  return fn as SerializerFn
}

function buildError (route: RouteOptions, key: string, cause: unknown): Error {
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method
  const message = cause instanceof Error ? cause.message : String(cause)
  const err = new codes.FST_ERR_SCH_SERIALIZATION_BUILD(method, `${route.url} (response ${key})`, message)
  ;(err as any).cause = cause
  return err
}

/** Route `serializerCompiler` > nearest `setSerializerCompiler` > `buildSerializer` factory > fast-json-stringify. */
export function resolveCompiler (route: RouteOptions, plugin: PluginContext): SerializerCompiler {
  if (typeof route.serializerCompiler === 'function') return route.serializerCompiler as SerializerCompiler
  return contextSerializerCompiler(plugin)
}

/** The compiler a context's routes use when the route gives none (the `serializerCompiler` getter). */
export function contextSerializerCompiler (plugin: PluginContext): SerializerCompiler {
  for (let ctx: PluginContext | null = plugin; ctx !== null; ctx = ctx.parent) {
    const compiler = ctx.schema.serializerCompiler
    if (typeof compiler === 'function') return compiler as SerializerCompiler
  }
  const set = sharedSchemaSet(plugin)
  const factory = plugin.schema.serializerFactory as SerializerCompilerFactory | undefined
  if (typeof factory !== 'function') return set.fastJsonStringify
  let compiler = set.byFactory.get(factory)
  if (compiler === undefined) {
    compiler = factory(set.externals, set.opts)
    if (typeof compiler !== 'function') {
      throw new codes.FST_ERR_SCH_SERIALIZATION_BUILD('schemaController', 'compilersFactory.buildSerializer', 'it did not return a function')
    }
    set.byFactory.set(factory, compiler)
  }
  return compiler
}

/** Compilers built from one set of visible shared schemas; contexts that see the same schemas share it. */
interface SharedSchemaSet {
  externals: Record<string, unknown>
  opts: Record<string, unknown> | undefined
  byFactory: Map<SerializerCompilerFactory, SerializerCompiler>
  /** The default compiler; identical schemas compile once. */
  fastJsonStringify: SerializerCompiler
}

const sharedSchemaSets = new WeakMap<object, Map<string, SharedSchemaSet>>()

function sharedSchemaSet (plugin: PluginContext): SharedSchemaSet {
  const schema = plugin.schema
  let sets = sharedSchemaSets.get(schema.app)
  if (sets === undefined) sharedSchemaSets.set(schema.app, sets = new Map())
  const key = schema.getSchemasKey()
  let set = sets.get(key)
  if (set === undefined) {
    const externals = schema.getSchemas()
    const opts: Record<string, unknown> | undefined = plugin.instance?.[kApp]?.options?.serializerOpts ?? undefined
    set = { externals, opts, byFactory: new Map(), fastJsonStringify: fastJsonStringifyCompiler(externals, opts) }
    sets.set(key, set)
  }
  return set
}

function fastJsonStringifyCompiler (externals: Record<string, unknown>, opts: Record<string, unknown> | undefined): SerializerCompiler {
  const byJson = new Map<string, SerializerFn>()
  return function compileWithFastJsonStringify ({ schema }) {
    let json: string | undefined
    try {
      json = JSON.stringify(schema)
    } catch {
      json = undefined // a cyclic schema: compiled, not cached
    }
    const cached = json === undefined ? undefined : byJson.get(json)
    if (cached !== undefined) return cached
    let fn = compileSerializer(schema, opts)
    if (fn === undefined) {
      const { untyped } = inspectForFastJsonStringify(schema, externals)
      fn = fastJsonStringify(schema, { ...opts, schema: externals as any }) as SerializerFn
      if (untyped) fn = rejectInvalidJson(fn)
    }
    if (json !== undefined) byJson.set(json, fn)
    return fn
  }
}

/**
 * fast-json-stringify hands values of untyped subschemas (and items of arrays without `items`) to JSON.stringify,
 * which yields `undefined` for functions and symbols; the output would not be JSON. Such schemas get this check.
 */
function rejectInvalidJson (fn: SerializerFn): SerializerFn {
  return function serializeCheckingJson (data: unknown): string {
    const out = fn(data)
    if (typeof out === 'string' && (!out.includes('undefined') || isJson(out))) return out
    throw new codes.FST_ERR_RESPONSE_NOT_JSON()
  }
}

function isJson (text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Errors thrown while serializing a reply: the core must not serialize the error payload the same way again. */
const serializationErrors = new WeakSet<object>()

/** Whether an error was thrown by a serializer inside `serializeReply`. */
export function isSerializationError (err: unknown): boolean {
  return typeof err === 'object' && err !== null && serializationErrors.has(err)
}

function asSerializationError (thrown: unknown): Error {
  const err = thrown instanceof Error ? thrown : new Error(`Response serialization failed: ${safeString(thrown)}`)
  if (typeof (err as any).statusCode !== 'number') (err as any).statusCode = 500
  serializationErrors.add(err)
  return err
}

/**
 * Per reply: the serialized body for a payload that is not a string, Buffer or stream. Order: `reply.serializer(fn)`
 * > route response schema for the status > context `setReplySerializer` > JSON.stringify. A serializer that throws
 * yields an Error with `statusCode` 500 (see isSerializationError).
 */
export function serializeReply (reply: any, context: RouteContext, payload: unknown, statusCode: number): string {
  try {
    const own = reply[kReplySerializer]
    if (own !== null && own !== undefined) return own(payload)
    const table = context.serializers
    if (table !== null) {
      const entry = table.forStatus(statusCode)
      if (entry !== undefined) return typeof entry === 'function' ? entry(payload) : entry.serialize(reply, payload, statusCode)
    }
    const contextSerializer = context.replySerializer
    if (contextSerializer !== null) return contextSerializer(payload, statusCode)
    return JSON.stringify(payload)
  } catch (err) {
    throw asSerializationError(err)
  }
}

/** The default error body, built without any user serializer so that it cannot fail. */
export function serializeError (err: { statusCode: number, code?: string, error: string, message: string }): string {
  const statusCode = Number.isInteger(err.statusCode) ? err.statusCode : 500
  const code = typeof err.code === 'string' ? `,"code":${JSON.stringify(err.code)}` : ''
  return `{"statusCode":${statusCode}${code},"error":${JSON.stringify(safeString(err.error))},"message":${JSON.stringify(safeString(err.message))}}`
}

/**
 * For the default error handler: the route's schema for the status (a '4xx' or '5xx' one, say) applied to the error
 * itself when there is one, else the default `{ statusCode, code, error, message }` format. `reply.serializer` and
 * `setReplySerializer` are not used: error bodies are JSON. Throws a serialization error when the schema fails.
 */
export function serializeErrorPayload (
  context: RouteContext | null | undefined, payload: { statusCode: number, code?: string, error: string, message: string }, error: object
): string {
  const entry = context?.serializers?.forStatus(payload.statusCode)
  const fn = entry instanceof ContentTypeSerializers ? entry.json : entry
  if (fn === undefined) return serializeError(payload)
  try {
    // as Fastify 4: the schema picks from the error itself (its own and inherited properties: `code`, custom fields,
    // getters), with the status, its reason phrase and the message fixed
    return fn(Object.create(error, {
      statusCode: { value: payload.statusCode },
      error: { value: payload.error },
      message: { value: payload.message }
    }))
  } catch (err) {
    throw asSerializationError(err)
  }
}

function safeString (value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return ''
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

function assertCanConfigure (instance: any, name: string, fn: unknown): void {
  if (instance[kApp]?.started) throw new codes.FST_ERR_INSTANCE_ALREADY_LISTENING(`Cannot call "${name}"!`)
  if (typeof fn !== 'function') throw new codes.FST_ERR_SERIALIZER_NOT_FN(name, typeof fn)
}

/** Mixed into the root instance by instance.ts; each method acts on the calling context (encapsulated). */
export const serializationInstanceMethods = {
  /** Replaces the compiler of response schemas for routes of this context and its descendants. */
  setSerializerCompiler (this: any, fn: SerializerCompiler): any {
    assertCanConfigure(this, 'setSerializerCompiler', fn)
    ;(this[kContext] as PluginContext).schema.serializerCompiler = fn
    return this
  },
  /** Serializer for replies that no response schema covers, in this context and its descendants. */
  setReplySerializer (this: any, fn: (payload: unknown, statusCode: number) => string): any {
    assertCanConfigure(this, 'setReplySerializer', fn)
    ;(this[kContext] as PluginContext).replySerializer = fn
    return this
  }
}
