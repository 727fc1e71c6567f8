/**
 * The validator contract, independent of Ajv: what a validator compiler receives and what the validation function
 * it returns may answer. Ajv (`ajv-compiler.ts`) is one implementation; users may give their own.
 */
import type Ajv from 'ajv'
import type { Options as AjvOptions } from 'ajv'
import type { JsonSchema } from '../../core/types'

/** An Ajv plugin: `plugin(ajv, options?)`, for example `ajv-errors` or `ajv-keywords`. */
export type AjvPlugin = (ajv: Ajv, options?: unknown) => unknown

/** The factory option `ajv` (alias `validator`), after validation. */
export interface AjvServerOptions {
  customOptions: AjvOptions & Record<string, unknown>
  plugins: Array<AjvPlugin | [AjvPlugin, unknown]>
  /** Called with each Ajv instance once its plugins and formats are added, before the shared schemas. */
  onCreate?: (ajv: Ajv) => void
}

/** What a validator compiler receives for one part of one route. */
export interface ValidatorCompilerArgs {
  schema: JsonSchema
  method: string | string[]
  url: string
  httpPart: string
}

/**
 * A validation function: returns `true`/`false` (Ajv style, errors on `.errors`) or `{ value }` / `{ error }`, or a
 * promise (pass or fail only: see `route-validation.ts`). `options` is Ajv's (see `kTakesParentData`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a user's validator declares the data it takes
export type ValidationFunction = ((data: any, options?: any) => unknown) & { errors?: unknown }
export type ValidatorCompiler = (args: ValidatorCompilerArgs) => ValidationFunction

/**
 * Set on Enclave's own validation functions (generated, compiled on first use, loaded from the compile cache): they
 * take Ajv's second argument, `{ parentData, parentDataProperty }`, through which a coerced root value (`"10"` under
 * `type: 'integer'`) is written back to the request. Ajv's own functions are known by their `schemaEnv`, as Fastify
 * knows them; any other function is called with the data alone.
 */
export const kTakesParentData = Symbol('enclave.takesParentData')

export function takesParentData (validate: ValidationFunction): boolean {
  return (validate as { schemaEnv?: unknown }).schemaEnv !== undefined || (validate as { [kTakesParentData]?: true })[kTakesParentData] === true
}
/** `schemaController.compilersFactory.buildValidator`: builds a compiler that can resolve the external schemas. */
export type ValidatorFactory = (externalSchemas: JsonSchema, ajvOptions: AjvServerOptions) => ValidatorCompiler
