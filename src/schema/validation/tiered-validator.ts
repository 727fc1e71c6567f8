/**
 * The validators of schemas inside Enclave's subset (`validator-subset.ts`) that a start has no compiled code for
 * (no compile cache, or a schema new to it), in two tiers, as V8 runs JavaScript: a route's validator starts on the
 * interpreter (validator-interpreter.ts), which needs nothing built, and changes to the generator's code
 * (generated-validator.ts), compiled then, after `TIER_UP_CALLS` values (../tier-up.ts). Both give Ajv's answers
 * (the property test holds them to it), so the change is invisible but for speed.
 *
 * Compiling a function per schema was most of a cold start with many routes (`new Function` for 2,000 schemas at
 * `ready()`), though most routes of a large application are called rarely. Now a route compiles its code when it is
 * used, and one never called costs its JSON only.
 */
import type { JsonSchema } from '../../core/types'
import { kTakesParentData, type ValidationFunction } from './validator-types'
import { interpretValidator, type InterpretedValidation } from './validator-interpreter'
import { instantiateValidator } from './generated-validator'
import { defaultFormats } from './validator-runtime'
import { generateValidator, type GeneratedValidatorCode } from './validator-generator'
import { TIER_UP_CALLS } from '../tier-up'

type TieredValidator = ValidationFunction & { errors: unknown, schema: JsonSchema, [kTakesParentData]: true }

/**
 * The validator of a schema `generatorCovers` accepted: `schema` is its JSON copy (`validate.schema`, as a generated
 * validator's is), `code` the generator's code for it when the caller made it already (to record in a compile cache).
 */
export function tieredValidator (schema: JsonSchema, code?: GeneratedValidatorCode): ValidationFunction {
  let calls = 0
  let current: InterpretedValidation | ValidationFunction = interpretValidator(schema)
  const validate = function validateTiered (data: unknown, options?: unknown): unknown {
    if (++calls === TIER_UP_CALLS) current = instantiateValidator(code ?? generateValidator(schema, defaultFormats), schema)
    const valid = current(data, options as undefined)
    validate.errors = current.errors
    return valid
  } as TieredValidator
  validate.errors = null
  validate.schema = schema
  validate[kTakesParentData] = true
  return validate
}
