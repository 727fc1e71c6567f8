/**
 * Fastify 4's JSON shorthand (deprecated there, FSTDEP021): a schema that lists fields at its top level, such as
 * `{ name: { type: 'string' } }`, means `{ type: 'object', properties: { name: … } }`. One rule for request parts
 * and response schemas alike.
 */
import { isPlainObject } from '../core/objects'

/** Keywords that make an object a real JSON Schema (or a schema-merge document) rather than the shorthand. */
const schemaKeywords = new Set([
  'type', '$ref', '$id', '$schema', '$comment', 'properties', 'patternProperties', 'additionalProperties', 'required',
  'items', 'additionalItems', 'contains', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else',
  'nullable', 'format', 'default', 'definitions', '$defs', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties',
  'maxProperties', 'dependencies', 'propertyNames', '$merge', '$patch'
])

/** Annotations kept on the expanded object when their value is not itself a field schema. */
const annotations = new Set(['description', 'title', 'examples'])

/**
 * The expanded schema, or the schema itself when it is not the shorthand: it has a schema keyword, no fields, a
 * field whose value cannot be a schema (a string, an array), or it is not an object literal (a schema of another
 * library, such as Joi's, is left to its compiler).
 */
export function expandShorthand (schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema
  const keys = Object.keys(schema)
  if (keys.some((key) => schemaKeywords.has(key))) return schema
  const fields = keys.filter((key) => !annotations.has(key) || isFieldSchema(schema[key]))
  if (fields.length === 0 || !fields.every((key) => isFieldSchema(schema[key]))) return schema
  const expanded: Record<string, unknown> = { type: 'object' }
  const properties: Record<string, unknown> = {}
  for (const key of keys) {
    if (fields.includes(key)) properties[key] = schema[key]
    else expanded[key] = schema[key]
  }
  expanded.properties = properties
  return expanded
}

function isFieldSchema (value: unknown): boolean {
  return typeof value === 'boolean' || isPlainObject(value)
}
