/**
 * Enclave's response-serializer interpreter: a schema inside the generator's subset (serializer-compiler.ts), written
 * by reading the schema itself (its JSON copy) at each call instead of by code generated for it. Its output and
 * errors are those of the generated code, step for step (the corpus test in
 * test/schema/serialization/serializer-compiler.test.ts holds it beside the generator and fast-json-stringify).
 *
 * Why a second way to the same text: a generated serializer is code for one schema, which every start must generate
 * and compile, or read back from the compile cache. Reading the schema needs nothing built (a tree of closures per
 * schema, tried first, cost a start more in allocation than the code it replaced), and these few functions, shared
 * by every route, are optimized by V8 after a handful of responses. A hot route changes to its generated code
 * (tiered-serializer.ts).
 *
 * It names the path it was at in a "does not match schema definition" error; the generator (and fast-json-stringify)
 * writes one function per schema object and names the path it first met it at, so a schema that reuses a sub-schema
 * object is not given to the interpreter (serializer-compilers.ts).
 */
import type { JsonSchema } from '../../core/types'
import type { SerializerFn } from './serializer-types'
import { mismatchMessage, requiredMessage } from './serializer-compiler'
import { dateFormats, quote, sharedRuntime, type Rounding, type SerializerRuntime } from './serializer-runtime'

/** Thrown for a value an array schema cannot write; its pointer is completed while unwinding. */
class Mismatch {
  constructor (public pointer: string) {}
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a response value, read as its schema says
type Value = any

/** The JSON text of `value` under `schema`, as the generated expression for it writes it. */
function write (schema: JsonSchema, value: Value, rt: SerializerRuntime): string {
  if (value === null && schema.nullable === true) return 'null'
  switch (schema.type) {
    case 'object': return writeObject(schema, value, rt)
    case 'array': return writeArray(schema, value, rt)
    case 'integer': return Number.isInteger(value) ? '' + value : rt.integer(value)
    case 'number': return Number.isFinite(value) ? '' + value : rt.number(value)
    case 'boolean': return value ? 'true' : 'false'
    case 'null': return 'null'
  }
  const format = schema.format
  if (dateFormats.has(format)) return rt[format](value)
  return typeof value === 'string' ? quote(value) : rt.string(value)
}

/**
 * An object's text: required names without a schema are checked first, then the required properties are written,
 * then the others (fast-json-stringify's order). A nullable schema's null was written by `write`; a `toJSON` that
 * returns null then fails on its first read, as the generated code does.
 */
function writeObject (schema: JsonSchema, input: Value, rt: SerializerRuntime): string {
  const obj = (input && typeof input.toJSON === 'function') ? input.toJSON() : input
  if (obj === null && schema.nullable !== true) return '{}'
  const properties: JsonSchema = schema.properties ?? {}
  const required: string[] = schema.required ?? []
  for (let i = 0; i < required.length; i++) {
    if (!Object.hasOwn(properties, required[i]) && obj[required[i]] === undefined) throw new Error(requiredMessage(required[i]))
  }
  let json = '{'
  if (required.length > 0) {
    for (const key in properties) if (required.includes(key)) json = writeProperty(json, obj, key, properties[key], true, rt)
  }
  for (const key in properties) if (!required.includes(key)) json = writeProperty(json, obj, key, properties[key], false, rt)
  return json + '}'
}

/** Appends `obj[key]` (or its schema's default) to `json`, the object's text so far. */
function writeProperty (json: string, obj: Value, key: string, schema: JsonSchema, required: boolean, rt: SerializerRuntime): string {
  const value = obj[key]
  let text: string
  if (value !== undefined) {
    try {
      text = write(schema, value, rt)
    } catch (err) {
      if (err instanceof Mismatch) err.pointer = `/properties/${key}` + err.pointer
      throw err
    }
  } else if (schema.default !== undefined) {
    text = JSON.stringify(schema.default)
  } else if (required) {
    throw new Error(requiredMessage(key))
  } else {
    return json
  }
  return json + (json.length === 1 ? quote(key) + ':' : ',' + quote(key) + ':') + text
}

function writeArray (schema: JsonSchema, obj: Value, rt: SerializerRuntime): string {
  if (obj === null && schema.nullable !== true) return '[]'
  if (!Array.isArray(obj)) throw new Mismatch('')
  const length = obj.length
  if (length === 0) return '[]'
  const items: JsonSchema = schema.items
  try {
    let json = '[' + write(items, obj[0], rt)
    for (let i = 1; i < length; i++) json += ',' + write(items, obj[i], rt)
    return json + ']'
  } catch (err) {
    if (err instanceof Mismatch) err.pointer = '/items' + err.pointer
    throw err
  }
}

/**
 * The serializer of a schema inside the generator's subset (`serializerCovers`), from its JSON copy, which it reads at
 * each call.
 */
export function interpretSerializer (schema: JsonSchema, rounding: Rounding): SerializerFn {
  const rt = sharedRuntime(rounding)
  return function serializeInterpreted (value: unknown): string {
    try {
      return write(schema, value, rt)
    } catch (err) {
      throw err instanceof Mismatch ? new TypeError(mismatchMessage('#' + err.pointer)) : err
    }
  }
}
