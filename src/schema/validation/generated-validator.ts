/**
 * Turning the generator's source (`validator-generator.ts`) into a validation function, with the runtime helpers
 * the source expects (`validator-runtime.ts`: Ajv's coercions, `ucs2length`, `equal`, the formats of `ajv-formats`)
 * and `fail` and `report`, which record the one error as Ajv's validators do (`fail` from the validator's numbered
 * fail sites, `report` from what the code gives it). A validator binds only the helpers its code calls
 * (validator-generator.ts), so a warm start whose schemas use no format never loads ajv-formats.
 */
import type { JsonSchema } from '../../core/types'
import { kTakesParentData, type ValidationFunction } from './validator-types'
import { coerce, defaultFormats, equal, invalid, ucs2length } from './validator-runtime'
import { generateValidator, type FailSite, type GeneratedValidatorCode } from './validator-generator'

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

const runtime = {
  fail,
  report,
  coerce,
  invalid,
  get ucs2length () { return ucs2length() },
  get equal () { return equal() },
  get formats () { return defaultFormats() }
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
