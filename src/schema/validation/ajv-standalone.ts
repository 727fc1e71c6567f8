/**
 * Ajv's own validators in the compile cache (../cached-module.ts). A schema outside Enclave's generator ($ref to
 * shared schemas, combinators, conditionals, non-baseline options…) is compiled by Ajv; with a compile cache, Ajv's
 * standalone code for it (`ajv/dist/standalone`) is kept in the pack, so a warm start neither generates nor compiles
 * it again. Not with Ajv plugins or `onCreate`: code whose version the key cannot see.
 */
import type Ajv from 'ajv'
import type { JsonSchema } from '../../core/types'
import { lazyModule } from '../../core/lazy-module'
import { configurationKey, runModuleEntry } from '../cached-module'
import type { GeneratedFactory } from '../compile-cache'
import { kTakesParentData, type AjvServerOptions, type ValidationFunction } from './validator-types'

const loadStandalone = lazyModule(() => require('ajv/dist/standalone').default as (ajv: Ajv, validate: unknown) => string)

/** What Ajv's standalone code requires: its runtime helpers and the formats of ajv-formats. */
const ajvRuntime = /^(ajv\/dist\/runtime\/[\w-]+|ajv-formats\/dist\/formats)$/

/** The key of the options and shared schemas an Ajv validator depends on; null when they cannot be keyed. */
export function ajvConfigurationKey (options: AjvServerOptions, externalSchemas: JsonSchema): string | null {
  return options.plugins.length > 0 || options.onCreate !== undefined ? null : configurationKey(options.customOptions, externalSchemas)
}

/** Ajv's standalone module code for a validator `ajv` compiled (the instance keeps sources: `code.source`). */
export function standaloneSource (ajv: Ajv, validate: ValidationFunction): string {
  return loadStandalone()(ajv, validate)
}

/** The validation function of a cached entry; `schema` is the (JSON) schema it was compiled from. */
export function validatorFromAjvEntry (factory: GeneratedFactory, schema: JsonSchema): ValidationFunction {
  const validate = runModuleEntry(factory, ajvRuntime) as ValidationFunction & { schema: unknown, [kTakesParentData]?: true }
  validate.errors = null
  validate.schema = schema
  validate[kTakesParentData] = true
  return validate
}
