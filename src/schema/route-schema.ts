/**
 * A route's `schema` option made ready to compile, as Fastify 4 does when the app becomes ready, and written back
 * into the route's options (plugins such as @fastify/swagger read them afterwards): `query` copied to
 * `querystring`, fluent-json-schema builders turned into their JSON Schema, the JSON shorthand expanded, and the
 * `content` maps (one schema per media type) checked.
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { isObjectLike } from '../core/objects'
import type { JsonSchema } from '../core/types'
import { expandShorthand } from './shorthand'

/** The marker fluent-json-schema puts on its builders (older releases: `isFluentSchema` / `isFluentJSONSchema`). */
const kFluentSchema = Symbol.for('fluent-schema-object')

/** A builder of fluent-json-schema: `valueOf()` gives the plain JSON Schema it describes. */
export function isFluentSchema (schema: unknown): schema is { valueOf (): unknown } {
  if (!isObjectLike(schema) || typeof schema.valueOf !== 'function') return false
  return Boolean((schema as Record<symbol, unknown>)[kFluentSchema]) || Boolean(schema.isFluentSchema) || Boolean(schema.isFluentJSONSchema)
}

/** The JSON Schema a value stands for: a fluent builder's `valueOf()`, anything else as it is. */
export function unwrapFluentSchema (schema: unknown): unknown {
  return isFluentSchema(schema) ? schema.valueOf() : schema
}

const requestParts = ['params', 'body', 'querystring', 'headers'] as const

/** What a level reads as shorthand (the level policy's `schemaShorthand`, and the `jsonShorthand` option). */
export interface ShorthandRules {
  /** `{ name: { type: 'string' } }` expanded to an object schema (shorthand.ts). */
  readonly jsonShorthand: boolean
  /** A response `content` of one entry without `schema` is a property named `content`, not a map (Fastify 4). */
  readonly contentShorthand: boolean
}

/** Route schema objects already normalized: one object may be shared by several routes (or methods of one). */
const normalized = new WeakSet<object>()

/**
 * Normalizes `schema` in place and returns it. Throws `FST_ERR_SCH_DUPLICATE` when both `query` and `querystring`
 * are given, and `FST_ERR_SCH_CONTENT_MISSING_SCHEMA` for a media type of a `content` map without a schema.
 */
export function normalizeRouteSchema (url: string, schema: JsonSchema | undefined, rules: ShorthandRules): JsonSchema | undefined {
  if (!isObjectLike(schema) || normalized.has(schema)) return schema
  // present means not undefined: `query: false` (refuse every request) is aliased too, as in Fastify 5
  if (schema.query !== undefined) {
    if (schema.querystring !== undefined) throw new codes.FST_ERR_SCH_DUPLICATE('querystring')
    schema.querystring = schema.query
  }
  const expand = (part: unknown): unknown => {
    const unwrapped = unwrapFluentSchema(part)
    const expanded = rules.jsonShorthand ? expandShorthand(unwrapped) : unwrapped
    if (expanded !== unwrapped) warnDeprecated('jsonShorthand', url)
    return expanded
  }
  for (const part of requestParts) {
    const given = unwrapFluentSchema(schema[part])
    if (!given) continue
    if (part === 'body' && isObjectLike(given) && given.content) {
      normalizeContentMap(given.content, expand)
      writeBack(schema, 'body', given)
    } else {
      writeBack(schema, part, expand(given))
    }
  }
  if (isObjectLike(schema.response)) normalizeResponses(schema.response, expand, rules.contentShorthand)
  normalized.add(schema)
  return schema
}

/** Only a value that changed is written: a frozen schema that needs no normalization compiles as it is. */
function writeBack (target: JsonSchema, key: string, value: unknown): void {
  if (target[key] !== value) target[key] = value
}

/** `{ 'application/json': { schema }, … }`: every media type needs its schema. */
function normalizeContentMap (content: unknown, expand: (schema: unknown) => unknown): void {
  if (!isObjectLike(content)) return
  for (const mediaType of Object.keys(content)) {
    const media = content[mediaType]
    if (!isObjectLike(media) || !media.schema) throw new codes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(mediaType)
    writeBack(media, 'schema', expand(media.schema))
  }
}

/**
 * Each status key holds a schema, or a `content` map. As in Fastify 4, with `contentShorthand` a `content` with a
 * single entry that has no `schema` is not a map but a property named `content` (shorthand), and with several
 * entries one without a schema is an error; without it (Fastify 5), every entry of a `content` needs its schema.
 */
function normalizeResponses (response: JsonSchema, expand: (schema: unknown) => unknown, contentShorthand: boolean): void {
  for (const key of Object.keys(response)) {
    const entry = unwrapFluentSchema(response[key])
    const contentMap = contentShorthand ? isResponseContentMap(entry) : isObjectLike(entry) && isObjectLike(entry.content)
    if (contentMap) normalizeContentMap((entry as JsonSchema).content, expand)
    writeBack(response, key, contentMap ? entry : expand(entry))
  }
}

/** Whether a response entry is a `content` map (after normalization, every entry of the map has its schema). */
export function isResponseContentMap (entry: unknown): entry is { content: Record<string, { schema: unknown }> } {
  if (!isObjectLike(entry) || !isObjectLike(entry.content)) return false
  const mediaTypes = Object.keys(entry.content)
  if (mediaTypes.length === 0) return false
  const missing = mediaTypes.find((mediaType) => !isObjectLike(entry.content[mediaType]) || !entry.content[mediaType].schema)
  if (missing === undefined) return true
  if (mediaTypes.length === 1) return false
  throw new codes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(missing)
}
