/**
 * Enclave's own response-serializer generator, for the schemas most responses use: explicit single `type`s,
 * `properties`, `required`, `items`, `nullable`, `default`, and the `date-time`/`date`/`time` formats. Its output is
 * that of fast-json-stringify 5 (the corpus test in test/serializer-compiler.test.ts holds the two side by side);
 * anything else (`$ref`, `anyOf`, `additionalProperties`, inferred types, tuples, unknown options…) returns
 * `undefined` and the caller uses fast-json-stringify itself.
 *
 * Why our own: fast-json-stringify builds a new Ajv instance for every schema it compiles, which was a fifth of
 * start-up with 1,000 routes; this generator compiles a schema in microseconds and writes the same JSON.
 */
import type { SerializerFn } from './response-serializers'
import { isObjectLike } from '../../core/objects'
import { lazyModule } from '../../core/lazy-module'
import type { JsonSchema } from '../../core/types'

export type Rounding = 'trunc' | 'floor' | 'ceil' | 'round'
const roundings: Record<Rounding, (n: number) => number> = { trunc: Math.trunc, floor: Math.floor, ceil: Math.ceil, round: Math.round }

/**
 * fast-json-stringify's own check of a schema against Draft-07; schemas it rejects are left to it, to report.
 * Loaded with the first schema generated (a warm start takes its serializers from the compile cache).
 */
const isValidSchema = lazyModule(loadSchemaCheck)

/** Without the check (a fast-json-stringify that moved it), no schema is taken: fast-json-stringify compiles them all. */
function loadSchemaCheck (): (schema: unknown) => boolean {
  try {
    const validate = require('fast-json-stringify/lib/schema-validator')
    if (typeof validate === 'function') return validate
  } catch {
    // as below
  }
  return () => false
}

/** Thrown inside the generator for a schema outside the subset; never escapes `compileSerializer`. */
class Unsupported extends Error {}

const primitiveTypes = new Set(['string', 'integer', 'number', 'boolean', 'null'])
// keywords that change what fast-json-stringify writes in ways this generator does not reproduce
const unsupportedKeywords = ['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'const', 'patternProperties', 'additionalItems']


// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON must escape
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/

/**
 * A JSON string literal. Most strings need no escaping: scanning a short one is about twice as fast as calling
 * JSON.stringify, which handles the rest.
 */
function quote (text: string): string {
  const length = text.length
  if (length > 64) return needsEscape.test(text) ? JSON.stringify(text) : '"' + text + '"'
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < 32 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text)
  }
  return '"' + text + '"'
}

/** Per-value conversions, shared by every generated serializer; the generated code handles the common case inline. */
function runtime (rounding: (n: number) => number): Record<string, (value: unknown) => string> {
  return {
    integer (value) {
      if (typeof value === 'bigint') return value.toString()
      const integer = rounding(value as number)
      if (!Number.isFinite(integer)) throw new Error(`The value "${value}" cannot be converted to an integer.`)
      return '' + integer
    },
    number (value) {
      const number = Number(value)
      if (Number.isNaN(number)) throw new Error(`The value "${value}" cannot be converted to a number.`)
      return Number.isFinite(number) ? '' + number : 'null'
    },
    string (value) {
      if (value === null) return '""'
      if (value instanceof Date) return '"' + value.toISOString() + '"'
      const text = value instanceof RegExp ? value.source : (value as object).toString()
      return typeof text === 'string' ? quote(text) : JSON.stringify(text)
    },
    'date-time' (value) {
      if (value instanceof Date) return '"' + value.toISOString() + '"'
      return dateString(value, 'date-time')
    },
    date (value) {
      if (value instanceof Date) return '"' + localIso(value).slice(0, 10) + '"'
      return dateString(value, 'date')
    },
    time (value) {
      if (value instanceof Date) return '"' + localIso(value).slice(11, 19) + '"'
      return dateString(value, 'time')
    }
  }
}

function localIso (date: Date): string {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString()
}

// fast-json-stringify writes such strings unescaped; escaping them differs only where its output was not JSON
function dateString (value: unknown, format: string): string {
  if (value === null) return '""'
  if (typeof value === 'string') return quote(value)
  throw new Error(`The value "${String(value)}" cannot be converted to a ${format}.`)
}

/** Generates one function per object and array schema; primitives are written inline. */
class Generator {
  readonly functions: string[] = []
  private readonly names = new Map<object, string>()

  /** JS expression for the JSON text of `input` (a variable name) under `schema`. */
  value (schema: unknown, input: string, pointer: string): string {
    if (!isObjectLike(schema)) throw new Unsupported()
    for (const keyword of unsupportedKeywords) if (keyword in schema) throw new Unsupported()
    const type = schema.type
    let expression: string
    if (type === 'object') expression = `${this.object(schema, pointer)}(${input})`
    else if (type === 'array') expression = `${this.array(schema, pointer)}(${input})`
    else if (typeof type === 'string' && primitiveTypes.has(type)) expression = primitive(schema, type, input)
    else throw new Unsupported()
    return schema.nullable === true ? `(${input} === null ? 'null' : ${expression})` : expression
  }

  private object (schema: JsonSchema, pointer: string): string {
    const existing = this.names.get(schema)
    if (existing !== undefined) return existing
    const name = `serialize${this.names.size}`
    this.names.set(schema, name)
    const properties = schema.properties ?? {}
    const required = schema.required ?? []
    if (!isObjectLike(properties) || !Array.isArray(required) || !required.every(k => typeof k === 'string')) throw new Unsupported()
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) throw new Unsupported()

    const lines = ['const obj = (input && typeof input.toJSON === \'function\') ? input.toJSON() : input']
    if (schema.nullable !== true) lines.push('if (obj === null) return \'{}\'')
    for (const key of required) {
      if (!Object.hasOwn(properties, key)) lines.push(`if (obj[${JSON.stringify(key)}] === undefined) ${requiredError(key)}`)
    }
    lines.push('let json = \'{\'', 'let value')
    // required properties first, as fast-json-stringify writes them; once one is written, every later one needs a comma
    const keys = Object.keys(properties)
    const ordered = [...keys.filter(k => required.includes(k)), ...keys.filter(k => !required.includes(k))]
    let written = false
    for (const key of ordered) {
      const literal = JSON.stringify(key)
      const prefix = written ? JSON.stringify(',' + literal + ':') : `(json.length === 1 ? ${JSON.stringify(literal + ':')} : ${JSON.stringify(',' + literal + ':')})`
      const property = properties[key]
      lines.push(`value = obj[${literal}]`)
      let statement = `if (value !== undefined) { json += ${prefix} + ${this.value(property, 'value', `${pointer}/properties/${key}`)} }`
      const fallback = isObjectLike(property) ? property.default : undefined
      if (fallback !== undefined) {
        const text = JSON.stringify(fallback)
        if (typeof text !== 'string') throw new Unsupported()
        statement += ` else { json += ${prefix} + ${JSON.stringify(text)} }`
        written = true
      } else if (required.includes(key)) {
        statement += ` else { ${requiredError(key)} }`
        written = true
      }
      lines.push(statement)
    }
    lines.push('return json + \'}\'')
    this.functions.push(eagerFunction(name, 'input', lines))
    return name
  }

  private array (schema: JsonSchema, pointer: string): string {
    const existing = this.names.get(schema)
    if (existing !== undefined) return existing
    const name = `serialize${this.names.size}`
    this.names.set(schema, name)
    if (!isObjectLike(schema.items)) throw new Unsupported()
    const mismatch = JSON.stringify(`The value of '${pointer}' does not match schema definition.`)
    const lines = [
      schema.nullable === true ? '' : 'if (obj === null) return \'[]\'',
      `if (!Array.isArray(obj)) throw new TypeError(${mismatch})`,
      'const length = obj.length',
      'if (length === 0) return \'[]\'',
      'let value = obj[0]',
      `let json = '[' + ${this.value(schema.items, 'value', `${pointer}/items`)}`,
      'for (let i = 1; i < length; i++) {',
      '  value = obj[i]',
      `  json += ',' + ${this.value(schema.items, 'value', `${pointer}/items`)}`,
      '}',
      'return json + \']\''
    ]
    this.functions.push(eagerFunction(name, 'obj', lines.filter(Boolean)))
    return name
  }
}

/**
 * A function written as a parenthesized expression: V8 compiles it along with the factory (and keeps it in a compile
 * cache's code) instead of pre-parsing it, then parsing it again on its first call.
 */
function eagerFunction (name: string, param: string, lines: string[]): string {
  return `const ${name} = (function ${name} (${param}) {\n  ${lines.join('\n  ')}\n})`
}

function requiredError (key: string): string {
  return `throw new Error(${JSON.stringify(`"${key}" is required!`)})`
}

function primitive (schema: JsonSchema, type: string, input: string): string {
  switch (type) {
    case 'integer': return `(Number.isInteger(${input}) ? '' + ${input} : rt.integer(${input}))`
    case 'number': return `(Number.isFinite(${input}) ? '' + ${input} : rt.number(${input}))`
    case 'boolean': return `(${input} ? 'true' : 'false')`
    case 'null': return '\'null\''
  }
  const format = schema.format
  if (format === 'date-time' || format === 'date' || format === 'time') return `rt[${JSON.stringify(format)}](${input})`
  if (format === 'unsafe') throw new Unsupported()
  return `(typeof ${input} === 'string' ? quote(${input}) : rt.string(${input}))`
}

/**
 * The rounding of the serializer options this generator honours (`'trunc'` when none is given); undefined for any
 * other key (largeArrayMechanism, ajv, mode…), which means fast-json-stringify.
 */
export function roundingOf (options: Record<string, unknown> | undefined): Rounding | undefined {
  if (options === undefined || options === null) return 'trunc'
  for (const key of Object.keys(options)) if (key !== 'rounding') return undefined
  const rounding = options.rounding ?? 'trunc'
  return Object.hasOwn(roundings, rounding as string) ? rounding as Rounding : undefined
}

/** The parameters of the generated source's factory. */
export const serializerParams = 'rt, quote'

/**
 * The generator's source for `schema` (the body of a factory of `serializerParams`), or undefined when the schema
 * (or an option) is outside what this generator reproduces exactly, or when fast-json-stringify would reject the
 * schema (it then reports why).
 */
export function serializerSource (schema: unknown, options?: Record<string, unknown>): string | undefined {
  if (roundingOf(options) === undefined || !isValidSchema()(schema)) return undefined
  const generator = new Generator()
  let body: string
  try {
    body = generator.value(schema, 'input', '#')
  } catch (err) {
    if (err instanceof Unsupported) return undefined
    throw err
  }
  return `${generator.functions.join('\n')}\nreturn (function serialize (input) {\n  return ${body}\n})`
}

/** One runtime per rounding mode, shared by every serializer that rounds that way (generated code only reads it). */
const runtimes: Partial<Record<Rounding, Record<string, (value: unknown) => string>>> = {}

/** A serializer from the generated factory (compiled from source, or loaded from the compile cache). */
export function serializerFromFactory (factory: (rt: unknown, quote: unknown) => unknown, rounding: Rounding): SerializerFn {
  const rt = runtimes[rounding] ??= Object.freeze(runtime(roundings[rounding]))
  return factory(rt, quote) as SerializerFn
}

/** Compiles `schema` into a serializer, or undefined when `serializerSource` declines it. */
export function compileSerializer (schema: unknown, options?: Record<string, unknown>): SerializerFn | undefined {
  const source = serializerSource(schema, options)
  if (source === undefined) return undefined
  return serializerFromFactory(new Function(serializerParams, source) as (rt: unknown, quote: unknown) => unknown, roundingOf(options)!)
}
