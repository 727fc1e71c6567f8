/**
 * Turning the generator's source (`validator-generator.ts`) into a validation function, with the runtime helpers
 * the source expects: Ajv's own `ucs2length` and `equal`, the formats of `ajv-formats` (the very objects the default
 * Ajv instance uses), and `fail` and `report`, which record the one error as Ajv's validators do (`fail` from the
 * validator's numbered fail sites, `report` from what the code gives it).
 *
 * The three helpers from Ajv's packages are loaded when first asked for: a warm start takes its validators from the
 * compile cache, and a validator binds only the helpers its code calls (validator-generator.ts), so an application
 * whose schemas use no format never loads ajv-formats.
 */
import type ucs2lengthFn from 'ajv/dist/runtime/ucs2length'
import type equalFn from 'ajv/dist/runtime/equal'
import type { fullFormats } from 'ajv-formats/dist/formats'
import { lazyModule } from '../../core/lazy-module'
import type { JsonSchema } from '../../core/types'
import { kTakesParentData, type ValidationFunction } from './validator-types'
import { generatorCovers, type FormatDefinition } from './validator-subset'
import { generateValidator, type FailSite, type GeneratedValidatorCode } from './validator-generator'

/** The formats a default Ajv instance has: `ajv-formats` in its default ("full") mode. */
const defaultFormats = lazyModule(() =>
  (require('ajv-formats/dist/formats') as { fullFormats: typeof fullFormats }).fullFormats as Record<string, FormatDefinition | undefined>)
const ucs2length = lazyModule(() => (require('ajv/dist/runtime/ucs2length') as { default: typeof ucs2lengthFn }).default)
const equal = lazyModule(() => (require('ajv/dist/runtime/equal') as { default: typeof equalFn }).default)

/** A validator's fail sites, or how to make them again (for a validator from the compile cache, on first failure). */
const kFailSites = Symbol('enclave.failSites')

type GeneratedValidator = ValidationFunction & {
  errors: unknown
  schema: unknown
  [kTakesParentData]?: true
  [kFailSites]: FailSite[] | (() => FailSite[])
}

/** Ajv's error object, keys in Ajv's order (`error.validation` is often serialized as it is). */
function report (validate: GeneratedValidator, instancePath: string, schemaPath: string, keyword: string, params: unknown, message: string): false {
  validate.errors = [{ instancePath, schemaPath, keyword, params, message }]
  return false
}

/** The error of fail site number `site`; its params are a new object each time, as Ajv's are. */
function fail (validate: GeneratedValidator, instancePath: string, site: number): false {
  let sites = validate[kFailSites]
  if (typeof sites === 'function') validate[kFailSites] = sites = sites()
  const [schemaPath, keyword, params, message] = sites[site]
  return report(validate, instancePath, schemaPath, keyword, { ...params }, message)
}

/** Returned by a coercion that does not apply: the value stays invalid (any other result may be `null` or `false`). */
const invalid = Symbol('invalid')

/**
 * Ajv's coercions (`coerceTypes: 'array'`), called only for a value not of the type already. First a one-element
 * array stands for its element, then Ajv's rules for the type. Numeric strings must also be finite: the `isFinite`
 * Enclave adds to Ajv's own code (`finiteCoercion` in ajv-compiler.ts), so "1e400" is no number here either.
 */
const coerce = {
  string (value: unknown): unknown {
    if (Array.isArray(value) && value.length === 1 && typeof (value = value[0]) === 'string') return value
    const type = typeof value
    if (type === 'number' || type === 'boolean') return '' + value
    return value === null ? '' : invalid
  },
  number (value: unknown): unknown {
    if (Array.isArray(value) && value.length === 1 && typeof (value = value[0]) === 'number' && isFinite(value as number)) return value
    const type = typeof value
    // Ajv's own test of a numeric string (loose equality), kept as it is
    if (type === 'boolean' || value === null || (type === 'string' && value && value == +(value as string) && isFinite(value as number))) return +(value as string)
    return invalid
  },
  integer (value: unknown): unknown {
    if (Array.isArray(value) && value.length === 1 && isInteger(value = value[0])) return value
    const type = typeof value
    // Ajv's own test of a numeric string (loose equality), kept as it is
    if (type === 'boolean' || value === null || (type === 'string' && value && value == +(value as string) && isFinite(value as number) && !((value as number) % 1))) return +(value as string)
    return invalid
  },
  boolean (value: unknown): unknown {
    if (Array.isArray(value) && value.length === 1 && typeof (value = value[0]) === 'boolean') return value
    if (value === 'false' || value === 0 || value === null) return false
    return value === 'true' || value === 1 ? true : invalid
  },
  null (value: unknown): unknown {
    if (Array.isArray(value) && value.length === 1 && (value = value[0]) === null) return value
    return value === '' || value === 0 || value === false ? null : invalid
  },
  array (value: unknown): unknown {
    const type = typeof value
    return type === 'string' || type === 'number' || type === 'boolean' || value === null ? [value] : invalid
  }
}

function isInteger (value: unknown): boolean {
  return typeof value === 'number' && !(value % 1) && !isNaN(value) && isFinite(value)
}

const runtime = {
  fail,
  report,
  coerce,
  invalid,
  get ucs2length () { return ucs2length() },
  get equal () { return equal() },
  get formats () { return defaultFormats() }
}

/** The generator's code for `schema`, or undefined when the schema is outside what it reproduces exactly. */
export function validatorCode (schema: JsonSchema): GeneratedValidatorCode | undefined {
  const formats = defaultFormats()
  return generatorCovers(schema, formats) ? generateValidator(schema, defaultFormats) : undefined
}

/** The parameters of the generated source's factory. */
export const validatorParams = 'rt, schema'

type GeneratedFactory = (rt: unknown, schema: unknown) => unknown

/** A validation function from generated code; `schema` is the (JSON) schema the code was generated from. */
export function instantiateValidator ({ source, sites }: GeneratedValidatorCode, schema: JsonSchema): ValidationFunction {
  const validate = (new Function(validatorParams, source) as GeneratedFactory)(runtime, schema) as GeneratedValidator
  validate.schema = schema
  return finish(validate, sites)
}

/**
 * A validation function from a factory of the compile cache, for the schema whose JSON is `json`. The generated code
 * reads its schema only to report an `enum` or `const` error (Ajv gives their values by reference): any other schema
 * is parsed from its JSON when first asked for (`validate.schema`), not at start-up (at 1,000 routes, ~5 ms of a warm
 * `ready()`: every schema of its own shape is new work for `JSON.parse`).
 */
export function validatorFromCachedFactory (factory: GeneratedFactory, json: string): ValidationFunction {
  // the fail sites, made again from the schema (the pack holds only an entry the generator made from it)
  const sites = (): FailSite[] => generateValidator(JSON.parse(json) as JsonSchema, defaultFormats).sites
  if (json.includes('"enum"') || json.includes('"const"')) {
    const schema = JSON.parse(json) as JsonSchema
    const validate = factory(runtime, schema) as GeneratedValidator
    validate.schema = schema
    return finish(validate, sites)
  }
  const validate = factory(runtime, undefined) as GeneratedValidator
  // read or assigned, the property becomes a plain value, as Ajv's `validate.schema` is
  const settle = (schema: unknown): void => {
    Object.defineProperty(validate, 'schema', { value: schema, writable: true, configurable: true, enumerable: true })
  }
  Object.defineProperty(validate, 'schema', {
    configurable: true,
    enumerable: true,
    get () {
      const schema = JSON.parse(json) as JsonSchema
      settle(schema)
      return schema
    },
    set: settle
  })
  return finish(validate, sites)
}

function finish (validate: GeneratedValidator, sites: GeneratedValidator[typeof kFailSites]): ValidationFunction {
  validate.errors = null
  validate[kTakesParentData] = true
  validate[kFailSites] = sites
  return validate
}
