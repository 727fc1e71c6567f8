/**
 * Response schemas compiled at ready: every `schema.response` entry of a route becomes a serializer in a table
 * that answers "which serializer for this status?" in O(1) (exact code > class '4xx' > 'default'). Which serializer
 * a reply then uses is the reply's choice (`reply/payload-serializer.ts`). See docs/serialization.md.
 */
import { codes } from '../../core/errors'
import { normalizeMediaType } from '../../core/media-type'
import { isObjectLike } from '../../core/objects'
import type { SchemaScope } from '../schema-scope'
import { isResponseContentMap, normalizeRouteSchema } from '../route-schema'
import { resolveRouteCompiler } from './serializer-compilers'
import type { SerializerCompiler, SerializerCompilerInput, SerializerFn } from './serializer-types'
import type { JsonSchema } from '../../core/types'

export type { SerializerCompiler, SerializerCompilerInput, SerializerFn } from './serializer-types'

/** What compiling a route's response schemas reads of its options. */
export interface ResponseSchemaSource {
  method: string | string[]
  url: string
  schema?: JsonSchema
  serializerCompiler?: unknown
}

/**
 * Per media type serializers of one status key (Fastify's `content` form). A `*\/*` entry serves the media types
 * without their own, as in Fastify 5 (a fix Enclave applies at both levels: Fastify 4 matched it literally only).
 */
export class ContentTypeSerializers {
  readonly byType: Map<string, SerializerFn>
  /** The `*\/*` entry (any media type). */
  readonly any: SerializerFn | undefined
  /** The `application/json` entry (else `*\/*`), used when the reply declares no content type of its own. */
  readonly json: SerializerFn | undefined

  constructor (byType: Map<string, SerializerFn>) {
    this.byType = byType
    this.any = byType.get('*/*')
    this.json = byType.get('application/json') ?? this.any
  }

  /**
   * The serializer for the reply's content type (`application/json` when it has none), else the `*\/*` one; undefined
   * when the map has neither: as in Fastify, such a reply is not serialized by any schema of the status.
   */
  forContentType (contentType: unknown): SerializerFn | undefined {
    if (typeof contentType !== 'string') return this.json
    return this.byType.get(normalizeMediaType(contentType)) ?? this.any
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
export function compileRouteSerializers (route: ResponseSchemaSource, schemas: SchemaScope): ResponseSerializers | null {
  const response = normalizeRouteSchema(route.url, route.schema, schemas.app)?.response
  if (response === undefined || response === null) return null
  if (typeof response !== 'object') throw buildError(route, undefined, new codes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX())
  const keys = Object.keys(response)
  if (keys.length === 0) return null

  const compiler = resolveRouteCompiler(route, schemas)
  const table = new ResponseSerializerTable()
  const byClass: Array<ResponseSerializer | undefined> = []
  for (const key of keys) {
    const fail = (cause: unknown, contentType?: string): Error => buildError(route, key, cause, contentType)
    // as Fastify: `response: { type: 'object', … }` (a schema, not a map of statuses) fails here, on its first key
    const normalized = key.toLowerCase()
    if (!STATUS_KEY.test(normalized) && normalized !== 'default') throw fail(new codes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX())
    const entry = compileEntry(response[key], normalized, route, compiler, fail)
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

type BuildFailure = (cause: unknown, contentType?: string) => Error

function compileEntry (
  raw: unknown, key: string, route: ResponseSchemaSource, compiler: SerializerCompiler, fail: BuildFailure
): ResponseSerializer {
  if (!isObjectLike(raw)) throw fail(new Error('the response schema must be an object'))
  const base = { method: route.method, url: route.url, httpStatus: key }
  if (isResponseContentMap(raw)) {
    const byType = new Map<string, SerializerFn>()
    for (const [mediaType, media] of Object.entries(raw.content)) {
      byType.set(mediaType.toLowerCase(), compileOne(compiler, { ...base, schema: media.schema as JsonSchema, contentType: mediaType }, fail))
    }
    return new ContentTypeSerializers(byType)
  }
  return compileOne(compiler, { ...base, schema: raw }, fail)
}

function compileOne (compiler: SerializerCompiler, input: SerializerCompilerInput, fail: BuildFailure): SerializerFn {
  let fn: unknown
  try {
    fn = compiler(input)
  } catch (err) {
    throw fail(err, input.contentType)
  }
  return typeof fn === 'function' ? fn as SerializerFn : refuseEveryReply(fn, input)
}

/**
 * A compiler that gave no function is accepted when the app starts, as in Fastify; a reply it should serialize then
 * fails with a 500 (Fastify writes it with JSON.stringify: Enclave never sends fields the schema would filter out).
 */
function refuseEveryReply (returned: unknown, input: SerializerCompilerInput): SerializerFn {
  const type = returned === null ? 'null' : typeof returned
  const method = Array.isArray(input.method) ? input.method.join(',') : input.method
  const schemaName = input.contentType === undefined ? input.httpStatus : `${input.httpStatus} ${input.contentType}`
  return function serializerMissing () {
    throw new codes.FST_ERR_SCH_SERIALIZER_NOT_FN(type, schemaName, `${method} ${input.url}`)
  }
}

/** Fastify's message, which ends with the cause's; the failing schema is told by `httpStatus` and `contentType`. */
function buildError (route: ResponseSchemaSource, key: string | undefined, cause: unknown, contentType?: string): Error {
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method
  const message = cause instanceof Error ? cause.message : String(cause)
  const err = Object.assign(new codes.FST_ERR_SCH_SERIALIZATION_BUILD(method, route.url, message), { cause, httpStatus: key })
  return contentType === undefined ? err : Object.assign(err, { contentType })
}
