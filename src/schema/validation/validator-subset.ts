/**
 * The schemas Enclave's validator generator (`validator-generator.ts`) handles: Draft-07 objects using only plain
 * keywords, each consistent with a single explicit `type`, with JSON values only. Anything else — `$ref`, `$id`,
 * combinators, tuples, `additionalProperties` schemas, type lists, `nullable: true`, object enums, plugin keywords,
 * unknown or non-string formats, non-finite numbers, `undefined` values, a `default` at the root — is left to Ajv.
 *
 * The check is conservative on purpose: a schema it accepts must compile in Ajv (with Enclave's baseline options)
 * without error or warning, and the generated code must behave exactly as Ajv's. Meta-schema validity is still
 * checked by Ajv itself before generating (see `ajv-compiler.ts`).
 */
import { isPlainObject } from '../../core/objects'
import type { JsonSchema } from '../../core/types'

/** A format as Ajv holds it after `ajv-formats`: a RegExp, a function, `true`, or `{ type?, validate, async? }`. */
export type FormatDefinition = RegExp | ((value: string) => boolean) | true | { type?: string, validate: unknown, async?: boolean }

const jsonTypes = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'])
const primitiveTypes = new Set(['string', 'number', 'integer', 'boolean', 'null'])
const annotations: Record<string, (value: unknown) => boolean> = {
  title: (value) => typeof value === 'string',
  description: (value) => typeof value === 'string',
  $comment: (value) => typeof value === 'string',
  examples: (value) => Array.isArray(value) && value.every(isJsonValue),
  readOnly: (value) => typeof value === 'boolean',
  writeOnly: (value) => typeof value === 'boolean'
}
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value)

/** Keyword → the type it needs and the check of its value. `integer` satisfies `number`. */
const typedKeywords: Record<string, [string, (value: unknown) => boolean]> = {
  maximum: ['number', isFiniteNumber],
  minimum: ['number', isFiniteNumber],
  exclusiveMaximum: ['number', isFiniteNumber],
  exclusiveMinimum: ['number', isFiniteNumber],
  multipleOf: ['number', (value) => isFiniteNumber(value) && (value as number) > 0],
  maxLength: ['string', isCount],
  minLength: ['string', isCount],
  pattern: ['string', isUnicodePattern],
  format: ['string', (value) => typeof value === 'string'],
  maxItems: ['array', isCount],
  minItems: ['array', isCount],
  uniqueItems: ['array', (value) => typeof value === 'boolean'],
  items: ['array', () => true],
  maxProperties: ['object', isCount],
  minProperties: ['object', isCount],
  required: ['object', isRequiredList],
  properties: ['object', isPlainObject],
  additionalProperties: ['object', (value) => typeof value === 'boolean']
}

/** Whether the generator reproduces Ajv exactly for `schema`, given the formats the Ajv instance knows. */
export function generatorCovers (schema: unknown, formats: Record<string, FormatDefinition | undefined>): boolean {
  return isPlainObject(schema) && !('default' in schema) && covers(schema, formats, 0)
}

function covers (schema: unknown, formats: Record<string, FormatDefinition | undefined>, depth: number): boolean {
  if (schema === true) return true
  if (!isPlainObject(schema) || depth > 32) return false
  const type = schema.type
  if (type !== undefined && !(typeof type === 'string' && jsonTypes.has(type))) return false
  for (const keyword of Object.keys(schema)) {
    const value = schema[keyword]
    if (!keywordCovered(keyword, value, type, schema)) return false
  }
  if (typeof schema.format === 'string' && !isStringFormat(formats[schema.format])) return false
  if (schema.properties !== undefined) {
    for (const name of Object.keys(schema.properties)) {
      if (name === '__proto__' || !covers(schema.properties[name], formats, depth + 1)) return false
    }
  }
  return schema.items === undefined || covers(schema.items, formats, depth + 1)
}

function keywordCovered (keyword: string, value: unknown, type: unknown, schema: JsonSchema): boolean {
  if (value === undefined) return false
  if (keyword === 'type') return true
  if (keyword === 'default') return isJsonValue(value)
  // `nullable: false` changes nothing; `true` would make a type list
  if (keyword === 'nullable') return value === false && type !== undefined && type !== 'null'
  const annotation = annotations[keyword]
  if (annotation !== undefined) return annotation(value)
  if (keyword === 'enum') return Array.isArray(value) && value.length > 0 && value.every(isPrimitive) && untypedAllowed(type, schema)
  if (keyword === 'const') return isPrimitive(value) && untypedAllowed(type, schema)
  const typed = typedKeywords[keyword]
  if (typed === undefined) return false
  const [needs, check] = typed
  return (type === needs || (needs === 'number' && type === 'integer')) && check(value)
}

/** `enum`/`const` run before the typed keywords in Ajv; allowed on primitive types (or no type) only. */
function untypedAllowed (type: unknown, schema: JsonSchema): boolean {
  return type === undefined ? !Object.keys(schema).some((k) => k in typedKeywords) : primitiveTypes.has(type as string)
}

function isPrimitive (value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || isFiniteNumber(value)
}

/** A value that survives `JSON.stringify` unchanged: the generator writes defaults as JSON literals. */
function isJsonValue (value: unknown): boolean {
  if (isPrimitive(value)) return true
  if (Array.isArray(value)) return value.every(isJsonValue)
  return isPlainObject(value) && Object.keys(value).every((key) => key !== '__proto__' && isJsonValue(value[key]))
}

function isRequiredList (value: unknown): boolean {
  return Array.isArray(value) && value.every((name) => typeof name === 'string' && name !== '__proto__') &&
    new Set(value).size === value.length
}

/** Ajv compiles patterns with the `u` flag; ajv-formats' `regex` format also refuses `\Z`. */
function isUnicodePattern (pattern: unknown): boolean {
  if (typeof pattern !== 'string' || /[^\\]\\Z/.test(pattern)) return false
  try {
    RegExp(pattern, 'u')
    return true
  } catch {
    return false
  }
}

/** A format that applies to strings and is synchronous (the number formats of ajv-formats apply to numbers). */
function isStringFormat (format: FormatDefinition | undefined): boolean {
  if (format === undefined) return false
  if (format === true || format instanceof RegExp || typeof format === 'function') return true
  return typeof format === 'object' && format !== null && (format.type === undefined || format.type === 'string') &&
    format.async !== true && (typeof format.validate === 'function' || format.validate instanceof RegExp)
}

/** Keywords that validate; a schema with none of them accepts anything (Ajv skips it, as Enclave's validators do). */
const validatingKeywords = ['type', 'enum', 'const', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum',
  'multipleOf', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'items',
  'maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties']

export function hasRules (schema: JsonSchema): boolean {
  return validatingKeywords.some((keyword) => schema[keyword] !== undefined)
}
