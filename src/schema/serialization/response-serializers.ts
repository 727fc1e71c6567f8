/**
 * Response schemas compiled at ready: every `schema.response` entry of a route becomes a serializer in a table
 * that answers "which serializer for this status?" in O(1) (exact code > class '4xx' > 'default'). Which serializer
 * a reply then uses is the reply's choice (`reply/payload-serializer.ts`). See docs/serialization.md.
 */
import { codes } from '../../core/errors'
import { warnDeprecated } from '../../core/deprecations'
import { normalizeMediaType } from '../../core/media-type'
import { isObjectLike } from '../../core/objects'
import type { SchemaScope } from '../schema-scope'
import { expandShorthand } from '../shorthand'
import { isContentForm } from './response-schema'
import { resolveCompiler } from './serializer-compilers'
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

/** Per media type serializers of one status key (Fastify's `content` form). */
export class ContentTypeSerializers {
  readonly byType: Map<string, SerializerFn>
  /** The `application/json` entry, used when the reply declares no content type of its own. */
  readonly json: SerializerFn | undefined

  constructor (byType: Map<string, SerializerFn>) {
    this.byType = byType
    this.json = byType.get('application/json')
  }

  /** Serializes for the reply's content type (`application/json` when it has none); fails closed for an unknown one. */
  serialize (contentType: unknown, payload: unknown, statusCode: number): string {
    let fn = this.json
    if (typeof contentType === 'string') {
      const mediaType = normalizeMediaType(contentType)
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
export function compileRouteSerializers (route: ResponseSchemaSource, schemas: SchemaScope): ResponseSerializers | null {
  const response = route.schema?.response
  if (response === undefined || response === null) return null
  if (typeof response !== 'object' || Array.isArray(response) ||
    'type' in response || 'properties' in response || '$ref' in response) {
    throw new codes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX()
  }
  const keys = Object.keys(response)
  if (keys.length === 0) return null

  const compiler = resolveCompiler(route, schemas)
  const shorthand = schemas.app.jsonShorthand
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
  raw: unknown, key: string, route: ResponseSchemaSource, compiler: SerializerCompiler, shorthand: boolean, fail: (cause: unknown) => Error
): ResponseSerializer {
  if (!isObjectLike(raw)) throw fail(new Error('the response schema must be an object'))
  const base = { method: route.method, url: route.url, httpStatus: key }
  const expand = (schema: JsonSchema): JsonSchema => {
    const expanded = shorthand ? expandShorthand(schema) as JsonSchema : schema
    if (expanded !== schema) warnDeprecated('jsonShorthand', route.url)
    return expanded
  }
  if (isContentForm(raw)) {
    const byType = new Map<string, SerializerFn>()
    for (const [mediaType, media] of Object.entries(raw.content as JsonSchema)) {
      if (!isObjectLike(media) || !isObjectLike(media.schema)) throw new codes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(mediaType)
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

function buildError (route: ResponseSchemaSource, key: string, cause: unknown): Error {
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method
  const message = cause instanceof Error ? cause.message : String(cause)
  const err = new codes.FST_ERR_SCH_SERIALIZATION_BUILD(method, `${route.url} (response ${key})`, message)
  err.cause = cause
  return err
}
