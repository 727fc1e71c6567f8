/**
 * Enclave's validator interpreter: a schema `validator-subset.ts` accepts, validated by reading the schema itself
 * (its JSON copy) keyword by keyword, instead of by code generated for it. It does what the generator's code does
 * (validator-generator.ts), which is what Ajv 8 does with Fastify's baseline options, in Ajv's order: coercion (stored
 * back where the value was read), defaults, removal of additional properties, the first error only, with Ajv's error
 * object. The property test in test/schema/validation/validator-generator.test.ts holds all three side by side.
 *
 * Why a second way to the same answers: a generated validator is code for one schema, which every start must
 * generate and compile, or read back from the compile cache (with 1,000 routes, most of what a warm start read), and
 * which then runs its first calls in V8's interpreter. Reading the schema needs nothing built at all (a tree of
 * closures per schema, tried first, allocated ~5 kB a schema and cost a start more than the code it replaced), and
 * the few functions below, shared by every route, are optimized by V8 after a handful of requests. A route that
 * turns out to be hot changes to its generated code (tiered-validator.ts).
 *
 * A failure records its error with empty paths; each level it unwinds through puts its own segments in front (the
 * same strings Ajv builds), so a valid value costs no path at all.
 */
import type { JsonSchema } from '../../core/types'
import type { FormatDefinition } from './validator-subset'
import { coerce, defaultFormats, equal, hasType, invalid, ucs2length } from './validator-runtime'
import { constMessage, duplicateItemsMessage, enumMessage, escapeFragment, escapePointer, keywordErrors, type KeywordError } from './keyword-errors'

/** A validation function as Ajv's: `errors` holds the one error of the last call that failed. */
export interface InterpretedValidation {
  (data: unknown, options?: { instancePath?: string, parentData?: Record<string | number, unknown>, parentDataProperty?: string | number }): boolean
  errors: unknown
}

interface ErrorObject {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  message: string
}

type Validation = InterpretedValidation
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the value's type is the schema's, checked first
type Data = any

/** Returned by `typed` for a value that is not of the schema's type and cannot be coerced to it. */
const failed = Symbol('failed')

/** Records the error of a keyword of the schema being checked (its paths are filled in while unwinding). */
function fail (v: Validation, [keyword, params, message]: KeywordError): false {
  const error: ErrorObject = { instancePath: '', schemaPath: '/' + keyword, keyword, params, message }
  v.errors = [error]
  return false
}

/** The recorded error lies below `instanceSegment` (`/name`, `/3`), under `schemaSegment` (`/properties/name`). */
function within (v: Validation, instanceSegment: string, schemaSegment: string): false {
  const error = (v.errors as ErrorObject[])[0]
  error.instancePath = instanceSegment + error.instancePath
  error.schemaPath = schemaSegment + error.schemaPath
  return false
}

/** `value` if it has the schema's type, else its coercion; `failed` (error recorded) when there is none. */
function typed (schema: JsonSchema, value: unknown, v: Validation): unknown {
  const type: string | undefined = schema.type
  if (type === undefined || hasType[type](value)) return value
  const coerced = type === 'object' ? invalid : coerce[type as keyof typeof coerce](value)
  if (coerced !== invalid) return coerced
  fail(v, keywordErrors.type(type))
  return failed
}

/** Every keyword but `type`, in Ajv's order, on a value of the schema's type. */
function passes (schema: JsonSchema, data: Data, v: Validation): boolean {
  if (schema.const !== undefined && data !== schema.const) return fail(v, ['const', { allowedValue: schema.const }, constMessage])
  if (schema.enum !== undefined && schema.enum.indexOf(data) === -1) return fail(v, ['enum', { allowedValues: schema.enum }, enumMessage])
  switch (schema.type) {
    case 'number': case 'integer': return passesNumber(schema, data, v)
    case 'string': return passesString(schema, data, v)
    case 'array': return passesArray(schema, data, v)
    case 'object': return passesObject(schema, data, v)
    default: return true
  }
}

/** Validates `container[key]`, storing a coerced value back (even when a later keyword fails, as Ajv does). */
function passesAt (schema: JsonSchema, container: Data, key: string | number, v: Validation): boolean {
  const value = container[key]
  const coerced = typed(schema, value, v)
  if (coerced === failed) return false
  if (coerced !== value) container[key] = coerced
  return passes(schema, coerced, v)
}

/** The limit keywords, as Ajv writes them: `isNaN` included (a coerced value is finite anyway). */
function passesNumber (schema: JsonSchema, data: number, v: Validation): boolean {
  const { maximum, minimum, exclusiveMaximum, exclusiveMinimum, multipleOf } = schema
  if (maximum !== undefined && (data > maximum || isNaN(data))) return fail(v, keywordErrors.limit('maximum', maximum))
  if (minimum !== undefined && (data < minimum || isNaN(data))) return fail(v, keywordErrors.limit('minimum', minimum))
  if (exclusiveMaximum !== undefined && (data >= exclusiveMaximum || isNaN(data))) return fail(v, keywordErrors.limit('exclusiveMaximum', exclusiveMaximum))
  if (exclusiveMinimum !== undefined && (data <= exclusiveMinimum || isNaN(data))) return fail(v, keywordErrors.limit('exclusiveMinimum', exclusiveMinimum))
  if (multipleOf !== undefined) {
    // Ajv's test, `parseInt` of the quotient's text included
    const quotient = data / multipleOf
    if (quotient !== parseInt(quotient as unknown as string)) return fail(v, keywordErrors.multipleOf(multipleOf))
  }
  return true
}

/** Patterns compiled once each (with Ajv's `u` flag), whatever schema they are in. */
const patterns = new Map<string, RegExp>()

function passesString (schema: JsonSchema, data: string, v: Validation): boolean {
  const { maxLength, minLength, pattern, format } = schema
  // a string's code point count is at most its length: only long strings need counting
  if (maxLength !== undefined && data.length > maxLength && ucs2length()(data) > maxLength) return fail(v, keywordErrors.maxLength(maxLength))
  if (minLength !== undefined && ucs2length()(data) < minLength) return fail(v, keywordErrors.minLength(minLength))
  if (pattern !== undefined) {
    let regExp = patterns.get(pattern)
    if (regExp === undefined) patterns.set(pattern, regExp = new RegExp(pattern, 'u'))
    if (!regExp.test(data)) return fail(v, keywordErrors.pattern(pattern))
  }
  if (format !== undefined && !formatAccepts(defaultFormats()[format], data)) return fail(v, keywordErrors.format(format))
  return true
}

/** How a format of ajv-formats applies (`true`: any string). */
function formatAccepts (format: FormatDefinition | undefined, data: string): boolean {
  if (format === true || format === undefined) return true
  if (format instanceof RegExp) return format.test(data)
  if (typeof format === 'function') return format(data)
  const check = format.validate
  return check instanceof RegExp ? check.test(data) : (check as (data: string) => boolean)(data)
}

function passesArray (schema: JsonSchema, data: unknown[], v: Validation): boolean {
  const { maxItems, minItems, items } = schema
  if (maxItems !== undefined && data.length > maxItems) return fail(v, keywordErrors.maxItems(maxItems))
  if (minItems !== undefined && data.length < minItems) return fail(v, keywordErrors.minItems(minItems))
  if (items !== undefined && items !== true) {
    for (let i = 0, n = data.length; i < n; i++) if (!passesAt(items, data, i, v)) return within(v, '/' + i, '/items')
  }
  // Ajv checks uniqueness after `items` (which may have coerced them)
  return schema.uniqueItems !== true || uniqueItems(schema, data, v)
}

/**
 * Ajv's two loops, kept as they are (including what they skip): items of a primitive `items` type are compared
 * through an index object, skipping items of another type; anything else pairwise with deep equality.
 */
function uniqueItems (schema: JsonSchema, data: unknown[], v: Validation): boolean {
  const duplicate = (i: number, j: number): false => fail(v, ['uniqueItems', { i, j }, duplicateItemsMessage(i, j)])
  const itemType: unknown = schema.items === true ? undefined : schema.items?.type
  let i = data.length
  if (i <= 1) return true
  if (typeof itemType === 'string' && itemType !== 'object' && itemType !== 'array') {
    const is = hasType[itemType]
    const indices: Record<string, number> = {}
    for (; i--;) {
      const item = data[i] as string
      if (!is(item)) continue
      if (typeof indices[item] === 'number') return duplicate(i, indices[item])
      indices[item] = i
    }
    return true
  }
  for (; i--;) {
    for (let j = i; j--;) if (equal()(data[i], data[j])) return duplicate(i, j)
  }
  return true
}

/** Ajv's object keywords, in its order: defaults, max/minProperties, required, additional properties, properties. */
function passesObject (schema: JsonSchema, data: Record<string, unknown>, v: Validation): boolean {
  const properties: JsonSchema | undefined = schema.properties
  if (properties !== undefined) fillDefaults(properties, data)
  const { maxProperties, minProperties, required } = schema
  if (maxProperties !== undefined && Object.keys(data).length > maxProperties) return fail(v, keywordErrors.maxProperties(maxProperties))
  if (minProperties !== undefined && Object.keys(data).length < minProperties) return fail(v, keywordErrors.minProperties(minProperties))
  if (required !== undefined) {
    for (let i = 0; i < required.length; i++) if (data[required[i]] === undefined) return fail(v, keywordErrors.required(required[i]))
  }
  // with `removeAdditional: true`, `additionalProperties: false` removes what `properties` does not name
  if (schema.additionalProperties === false) {
    for (const key in data) if (properties === undefined || !Object.hasOwn(properties, key)) delete data[key]
  }
  if (properties === undefined) return true
  for (const name in properties) {
    const property = properties[name]
    if (property === true || data[name] === undefined || passesAt(property, data, name, v)) continue
    return within(v, '/' + escapePointer(name), '/properties/' + escapeFragment(name))
  }
  return true
}

/** Each missing property gets its default: a new copy each time for an object or array, as Ajv writes a literal. */
function fillDefaults (properties: JsonSchema, data: Record<string, unknown>): void {
  for (const name in properties) {
    const fallback: unknown = properties[name] === true ? undefined : properties[name].default
    if (fallback === undefined || data[name] !== undefined) continue
    data[name] = fallback === null || typeof fallback !== 'object' ? fallback : JSON.parse(JSON.stringify(fallback))
  }
}

/**
 * The validation function of a schema `generatorCovers` accepted: its JSON copy, which it reads at each call (`enum`'s
 * and `const`'s params are that copy's own values, as Ajv gives the schema's).
 */
export function interpretValidator (schema: JsonSchema): InterpretedValidation {
  const validate: InterpretedValidation = function validate (data, options) {
    const coerced = typed(schema, data, validate)
    if (coerced !== failed) {
      if (coerced !== data && options !== undefined && options.parentData !== undefined) options.parentData[options.parentDataProperty!] = coerced
      if (passes(schema, coerced, validate)) {
        validate.errors = null
        return true
      }
    }
    const prefix = options === undefined ? undefined : options.instancePath
    return within(validate, prefix ?? '', '#')
  }
  validate.errors = null
  return validate
}
