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
import { dateFormats, quote, roundings, sharedRuntime, type Rounding } from './serializer-runtime'

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

/**
 * Thrown inside the generator (and the interpreter, serializer-interpreter.ts) for a schema outside the subset;
 * never escapes `compileSerializer` or `interpretSerializer`.
 */
export class Unsupported extends Error {}

export const primitiveTypes = new Set(['string', 'integer', 'number', 'boolean', 'null'])
// keywords that change what fast-json-stringify writes in ways this generator does not reproduce
export const unsupportedKeywords = ['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'const', 'patternProperties', 'additionalItems']

/** Generates one function per object and array schema; primitives are written inline. */
class Generator {
  readonly functions: string[] = []
  private readonly names = new Map<object, string>()
  /** Whether a schema object was met twice: one function then writes both places (naming the first in errors). */
  reused = false

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
    if (existing !== undefined) {
      this.reused = true
      return existing
    }
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
    if (existing !== undefined) {
      this.reused = true
      return existing
    }
    const name = `serialize${this.names.size}`
    this.names.set(schema, name)
    if (!isObjectLike(schema.items)) throw new Unsupported()
    const mismatch = JSON.stringify(mismatchMessage(pointer))
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
  return `throw new Error(${JSON.stringify(requiredMessage(key))})`
}

/** The message of the Error thrown for a required property the value lacks (fast-json-stringify's). */
export function requiredMessage (key: string): string {
  return `"${key}" is required!`
}

/** The message of the TypeError thrown for a non-array under an array schema at `pointer` (fast-json-stringify's). */
export function mismatchMessage (pointer: string): string {
  return `The value of '${pointer}' does not match schema definition.`
}

function primitive (schema: JsonSchema, type: string, input: string): string {
  switch (type) {
    case 'integer': return `(Number.isInteger(${input}) ? '' + ${input} : rt.integer(${input}))`
    case 'number': return `(Number.isFinite(${input}) ? '' + ${input} : rt.number(${input}))`
    case 'boolean': return `(${input} ? 'true' : 'false')`
    case 'null': return '\'null\''
  }
  const format = schema.format
  if (dateFormats.has(format)) return `rt[${JSON.stringify(format)}](${input})`
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

/** The generator's output: the source of a factory of `serializerParams`, and whether a sub-schema object is reused. */
export interface SerializerCode {
  source: string
  reusesSchemas: boolean
}

/**
 * The generator's code for `schema`, or undefined when the schema (or an option) is outside what this generator
 * reproduces exactly, or when fast-json-stringify would reject the schema (it then reports why).
 */
export function serializerCode (schema: unknown, options?: Record<string, unknown>): SerializerCode | undefined {
  if (roundingOf(options) === undefined || !isValidSchema()(schema)) return undefined
  const generator = new Generator()
  let body: string
  try {
    body = generator.value(schema, 'input', '#')
  } catch (err) {
    if (err instanceof Unsupported) return undefined
    throw err
  }
  const source = `${generator.functions.join('\n')}\nreturn (function serialize (input) {\n  return ${body}\n})`
  return { source, reusesSchemas: generator.reused }
}

/** A serializer from the generated factory (compiled from source, or loaded from the compile cache). */
export function serializerFromFactory (factory: (rt: unknown, quote: unknown) => unknown, rounding: Rounding): SerializerFn {
  return factory(sharedRuntime(rounding), quote) as SerializerFn
}

/** Compiles generated source into a serializer. */
export function compiledSerializer (source: string, rounding: Rounding): SerializerFn {
  return serializerFromFactory(new Function(serializerParams, source) as (rt: unknown, quote: unknown) => unknown, rounding)
}

/** Compiles `schema` into a serializer, or undefined when `serializerCode` declines it. */
export function compileSerializer (schema: unknown, options?: Record<string, unknown>): SerializerFn | undefined {
  const code = serializerCode(schema, options)
  return code === undefined ? undefined : compiledSerializer(code.source, roundingOf(options)!)
}
