/**
 * Enclave's validator generator, for the schemas `validator-subset.ts` accepts, with Fastify's baseline Ajv options
 * (`coerceTypes: 'array'`, `useDefaults`, `removeAdditional: true`, `allErrors: false`, strict). The generated
 * function does what Ajv 8's does, step for step and in Ajv's order — coercion, defaults, removal of additional
 * properties, the first error only — and reports the same error object (`instancePath`, `schemaPath`, `keyword`,
 * `params`, `message`), so messages, `error.validation` and custom formatters see no difference. The property test
 * in test/schema/validation/validator-generator.test.ts holds the two side by side.
 *
 * Why our own: Ajv's code generation and the V8 compilation of its verbose output were most of the time to the
 * first request of every route (~1 ms per schema); this generator writes a compact function in microseconds.
 *
 * The output is the source of a factory `(rt, schema) => validate`: `rt` holds the runtime helpers
 * (`generated-validator.ts`) and `schema` the schema itself (enum arrays are reported by reference, as Ajv does).
 * Every schema-derived string in the source goes through `JSON.stringify`.
 *
 * A failure whose error is the same every time (all but `enum`, `const` and `uniqueItems`) is written as a number,
 * `fail(validate, instancePath, 3)`, the index of its schema path, keyword, params and message in the generator's
 * list of fail sites: the literals were most of a validator's code and of the compile cache's pack. The list is the
 * generator's output for the schema, so it can always be made again from the schema alone (a validator from the
 * compile cache does so at its first failure).
 */
import type { JsonSchema } from '../../core/types'
import { hasRules, type FormatDefinition } from './validator-subset'
import { comparisons, constMessage, enumMessage, escapeFragment, escapePointer, keywordErrors, type KeywordError } from './keyword-errors'

/** Where a value being validated lives in the generated code. */
interface Place {
  /** Variable holding the value. */
  data: string
  /** How to store a coerced value back: `parent[key] = value`, or null at the root (written to `parentData`). */
  store: string | null
  /** JS expression of the value's `instancePath`. */
  path: string
  /** The schema's location, as Ajv reports it in `schemaPath` (URI fragment escaping). */
  schemaPath: string
  /** JS expression reaching this schema from the root `schema` argument. */
  schemaRef: string
}

const literal = (value: unknown): string => JSON.stringify(value)

/** A failure the code reports by number: its schema path, keyword, params (copied for each error) and message. */
export type FailSite = [schemaPath: string, keyword: string, params: Record<string, unknown>, message: string]

/** The generator's output: the factory's source and the fail sites its code numbers. */
export interface GeneratedValidatorCode {
  source: string
  sites: FailSite[]
}

/** The check that a value has type `type`, as Ajv writes it (`strictNumbers`: numbers must be finite). */
function typeCheck (type: string, data: string): string {
  switch (type) {
    case 'null': return `(${data} === null)`
    case 'array': return `Array.isArray(${data})`
    case 'object': return `(${data} && typeof ${data} == "object" && !Array.isArray(${data}))`
    case 'integer': return `(typeof ${data} == "number" && !(${data} % 1) && !isNaN(${data}) && isFinite(${data}))`
    case 'number': return `(typeof ${data} == "number" && isFinite(${data}))`
    default: return `(typeof ${data} === ${literal(type)})`
  }
}

/** The operator that fails each limit: the negation of its comparison. */
const failing: Record<string, string> = { '<=': '>', '>=': '<', '<': '>=', '>': '<=' }

/** The runtime helpers the generated code may call, bound by its prologue only when it does. */
type Helper = 'report' | 'ucs2length' | 'equal' | 'formats'

class ValidatorGenerator {
  readonly #lines: string[] = []
  readonly #constants: string[] = []
  readonly #sites: FailSite[] = []
  /** The helpers from Ajv's packages the code calls: only these are bound (and so loaded, generated-validator.ts). */
  readonly #helpers = new Set<Helper>()
  #names = 0

  /** `formats` is asked for only when a schema has a `format`: making fail sites again need not load ajv-formats. */
  constructor (readonly formats: () => Record<string, FormatDefinition | undefined>) {}

  generate (schema: JsonSchema): GeneratedValidatorCode {
    this.#schema(schema, { data: 'data', store: null, path: 'instancePath', schemaPath: '#', schemaRef: 'schema' })
    return { source: this.#source(), sites: this.#sites }
  }

  #source (): string {
    return [
      '"use strict"',
      ['const fail = rt.fail, coerce = rt.coerce, invalid = rt.invalid', ...[...this.#helpers].map((name) => `${name} = rt.${name}`)].join(', '),
      ...this.#constants,
      // parenthesized, so that V8 compiles it with the factory instead of pre-parsing it then compiling it on first use
      'return (function validate (data, options) {',
      '  const instancePath = options === undefined || options.instancePath === undefined ? "" : options.instancePath',
      ...this.#lines.map((line) => '  ' + line),
      '  validate.errors = null',
      '  return true',
      '})'
    ].join('\n')
  }

  /** A helper's name in the code, bound by the prologue. */
  #helper (name: Helper): string {
    this.#helpers.add(name)
    return name
  }

  #name (prefix: string): string {
    return `${prefix}${this.#names++}`
  }

  #emit (line: string): void {
    this.#lines.push(line)
  }

  /**
   * `return fail(validate, path, site)`: sets `validate.errors` to the one error, as Ajv does with `allErrors: false`,
   * from the fail site numbered `site`.
   */
  #fail (place: Place, [keyword, params, message]: KeywordError): string {
    this.#sites.push([`${place.schemaPath}/${keyword}`, keyword, params, message])
    return `return fail(validate, ${place.path}, ${this.#sites.length - 1})`
  }

  /** The same for an error that varies (params and message are JavaScript expressions): all of it in the code. */
  #report (place: Place, keyword: string, params: string, message: string): string {
    return `return ${this.#helper('report')}(validate, ${place.path}, ${literal(`${place.schemaPath}/${keyword}`)}, ${literal(keyword)}, ${params}, ${message})`
  }

  #schema (schema: JsonSchema | true, place: Place): void {
    if (schema === true) return
    const type: string | undefined = schema.type
    if (type !== undefined) this.#type(type, place)
    // Ajv's order of the keywords that apply to any type: const, then enum
    if (schema.const !== undefined) {
      this.#emit(`if (${literal(schema.const)} !== ${place.data}) ${this.#report(place, 'const', `{allowedValue: ${place.schemaRef}.const}`, literal(constMessage))}`)
    }
    if (schema.enum !== undefined) this.#enum(schema.enum, place)
    if (type === 'number' || type === 'integer') this.#number(schema, place)
    else if (type === 'string') this.#string(schema, place)
    else if (type === 'array') this.#array(schema, place)
    else if (type === 'object') this.#object(schema, place)
  }

  /**
   * Ajv's `coerceAndCheckDataType`: a value of the wrong type is coerced by the runtime's `coerce[type]` (Ajv's own
   * rules, `generated-validator.ts`) and stored back where it was read; one it cannot coerce is the type error.
   */
  #type (type: string, place: Place): void {
    const d = place.data
    const error = this.#fail(place, keywordErrors.type(type))
    if (type === 'object') {
      this.#emit(`if (!${typeCheck('object', d)}) ${error}`)
      return
    }
    const store = place.store === null
      ? `if (options !== undefined && options.parentData !== undefined) options.parentData[options.parentDataProperty] = ${d}`
      : `${place.store} = ${d}`
    this.#emit(`if (!${typeCheck(type, d)}) { if ((${d} = coerce.${type}(${d})) === invalid) ${error}; ${store} }`)
  }

  #enum (values: unknown[], place: Place): void {
    const test = values.map((value) => `${place.data} === ${literal(value)}`).join(' || ')
    this.#emit(`if (!(${test})) ${this.#report(place, 'enum', `{allowedValues: ${place.schemaRef}.enum}`, literal(enumMessage))}`)
  }

  #number (schema: JsonSchema, place: Place): void {
    const d = place.data
    for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']) {
      const limit = schema[keyword]
      if (limit === undefined) continue
      this.#emit(`if (${d} ${failing[comparisons[keyword]]} ${limit} || isNaN(${d})) ${this.#fail(place, keywordErrors.limit(keyword, limit))}`)
    }
    if (schema.multipleOf !== undefined) {
      const divisor = schema.multipleOf as number
      const r = this.#name('r')
      this.#emit(`{ const ${r} = ${d} / ${divisor}; if (${r} !== parseInt(${r})) ${this.#fail(place, keywordErrors.multipleOf(divisor))} }`)
    }
  }

  #string (schema: JsonSchema, place: Place): void {
    const d = place.data
    if (schema.maxLength !== undefined) {
      // a string's code point count is at most its length: only long strings need counting
      this.#emit(`if (${d}.length > ${schema.maxLength} && ${this.#helper('ucs2length')}(${d}) > ${schema.maxLength}) ${this.#fail(place, keywordErrors.maxLength(schema.maxLength))}`)
    }
    if (schema.minLength !== undefined) {
      this.#emit(`if (${this.#helper('ucs2length')}(${d}) < ${schema.minLength}) ${this.#fail(place, keywordErrors.minLength(schema.minLength))}`)
    }
    if (schema.pattern !== undefined) {
      const pattern = this.#name('pattern')
      this.#constants.push(`const ${pattern} = new RegExp(${literal(schema.pattern)}, "u")`)
      this.#emit(`if (!${pattern}.test(${d})) ${this.#fail(place, keywordErrors.pattern(schema.pattern))}`)
    }
    if (schema.format !== undefined) this.#format(schema.format, place)
  }

  #format (name: string, place: Place): void {
    const format = this.formats()[name]
    if (format === true) return
    const ref = this.#name('format')
    this.#constants.push(`const ${ref} = ${this.#helper('formats')}[${literal(name)}]`)
    const check = format instanceof RegExp
      ? `${ref}.test(${place.data})`
      : typeof format === 'function'
        ? `${ref}(${place.data})`
        : (format as { validate: unknown }).validate instanceof RegExp ? `${ref}.validate.test(${place.data})` : `${ref}.validate(${place.data})`
    this.#emit(`if (!(${check})) ${this.#fail(place, keywordErrors.format(name))}`)
  }

  #array (schema: JsonSchema, place: Place): void {
    const d = place.data
    if (schema.maxItems !== undefined) {
      this.#emit(`if (${d}.length > ${schema.maxItems}) ${this.#fail(place, keywordErrors.maxItems(schema.maxItems))}`)
    }
    if (schema.minItems !== undefined) {
      this.#emit(`if (${d}.length < ${schema.minItems}) ${this.#fail(place, keywordErrors.minItems(schema.minItems))}`)
    }
    this.#items(schema.items, place)
    // Ajv checks uniqueness after `items` (which may have coerced them)
    if (schema.uniqueItems === true) this.#uniqueItems(schema, place)
  }

  #items (items: JsonSchema | true | undefined, place: Place): void {
    if (items === undefined || items === true || !hasRules(items)) return
    const d = place.data
    const i = this.#name('i')
    const n = this.#name('n')
    const item = this.#name('d')
    this.#emit(`for (let ${i} = 0, ${n} = ${d}.length; ${i} < ${n}; ${i}++) {`)
    this.#emit(`let ${item} = ${d}[${i}]`)
    this.#schema(items, {
      data: item,
      store: `${d}[${i}]`,
      path: `${place.path} + "/" + ${i}`,
      schemaPath: `${place.schemaPath}/items`,
      schemaRef: `${place.schemaRef}.items`
    })
    this.#emit('}')
  }

  /**
   * Ajv's two loops, kept as they are (including what they skip): items of a primitive `items` type are compared
   * through an index object, skipping items of another type; anything else pairwise with deep equality.
   */
  #uniqueItems (schema: JsonSchema, place: Place): void {
    const d = place.data
    const i = this.#name('i')
    const j = this.#name('j')
    const error = this.#report(place, 'uniqueItems', `{i: ${i}, j: ${j}}`, `"must NOT have duplicate items (items ## " + ${j} + " and " + ${i} + " are identical)"`)
    const itemType: unknown = schema.items === true ? undefined : schema.items?.type
    this.#emit(`{ let ${i} = ${d}.length, ${j}`)
    if (typeof itemType === 'string' && itemType !== 'object' && itemType !== 'array') {
      const item = this.#name('item')
      const indices = this.#name('indices')
      this.#emit(`if (${i} > 1) { const ${indices} = {}; for (; ${i}--;) { let ${item} = ${d}[${i}]; if (!${typeCheck(itemType, item)}) continue; ` +
        `if (typeof ${indices}[${item}] == "number") { ${j} = ${indices}[${item}]; ${error} } ${indices}[${item}] = ${i} } }`)
    } else {
      this.#emit(`if (${i} > 1) { for (; ${i}--;) { for (${j} = ${i}; ${j}--;) { if (${this.#helper('equal')}(${d}[${i}], ${d}[${j}])) ${error} } } }`)
    }
    this.#emit('}')
  }

  /** Ajv's object keywords, in its order: defaults, max/minProperties, required, additional properties, properties. */
  #object (schema: JsonSchema, place: Place): void {
    const d = place.data
    const properties: JsonSchema = schema.properties ?? {}
    const names = Object.keys(properties)
    for (const name of names) {
      const fallback = properties[name] === true ? undefined : properties[name].default
      if (fallback !== undefined) this.#emit(`if (${d}[${literal(name)}] === undefined) ${d}[${literal(name)}] = ${literal(fallback)}`)
    }
    if (schema.maxProperties !== undefined) {
      this.#emit(`if (Object.keys(${d}).length > ${schema.maxProperties}) ${this.#fail(place, keywordErrors.maxProperties(schema.maxProperties))}`)
    }
    if (schema.minProperties !== undefined) {
      this.#emit(`if (Object.keys(${d}).length < ${schema.minProperties}) ${this.#fail(place, keywordErrors.minProperties(schema.minProperties))}`)
    }
    for (const name of schema.required ?? []) {
      this.#emit(`if (${d}[${literal(name)}] === undefined) ${this.#fail(place, keywordErrors.required(name))}`)
    }
    // with `removeAdditional: true`, `additionalProperties: false` removes what `properties` does not name
    if (schema.additionalProperties === false) {
      const key = this.#name('key')
      const declared = names.length === 0 ? 'false' : names.map((name) => `${key} === ${literal(name)}`).join(' || ')
      this.#emit(`for (const ${key} in ${d}) { if (!(${declared})) delete ${d}[${key}] }`)
    }
    for (const name of names) {
      const property = properties[name]
      if (property === true || !hasRules(property)) continue
      const value = this.#name('d')
      this.#emit(`{ let ${value} = ${d}[${literal(name)}]`)
      this.#emit(`if (${value} !== undefined) {`)
      this.#schema(property, {
        data: value,
        store: `${d}[${literal(name)}]`,
        path: `${place.path} + ${literal('/' + escapePointer(name))}`,
        schemaPath: `${place.schemaPath}/properties/${escapeFragment(name)}`,
        schemaRef: `${place.schemaRef}.properties[${literal(name)}]`
      })
      this.#emit('} }')
    }
  }
}

/**
 * The source of `(rt, schema) => validate` for a schema `generatorCovers` accepted, and its fail sites; `formats`
 * gives the formats the coverage check saw.
 */
export function generateValidator (schema: JsonSchema, formats: () => Record<string, FormatDefinition | undefined>): GeneratedValidatorCode {
  return new ValidatorGenerator(formats).generate(schema)
}
