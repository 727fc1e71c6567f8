/**
 * The default validator compiler: Ajv 8 (Draft-07) with Fastify 4's baseline options, `ajv-formats`, the
 * application's `ajv.customOptions` and `ajv.plugins`, and the shared schemas visible to one encapsulation context.
 *
 * One compiler (one Ajv instance) is built per distinct set of shared schemas, because two sibling contexts may each
 * add a different schema under the same `$id`; `SchemaScope` caches the compilers app-wide.
 */
import Ajv, { type Options as AjvOptions } from 'ajv'
import addFormats from 'ajv-formats'
import { canDefer, deferredValidator } from './lazy-validator'
import type { AjvPlugin, AjvServerOptions, ValidationFunction, ValidatorCompilerArgs, ValidatorFactory } from './validator-types'
import type { JsonSchema } from '../../core/types'


/** Fastify 4's baseline. `allErrors` stays false on purpose: reporting every error lets a crafted payload cost more. */
const baselineOptions: AjvOptions = {
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  addUsedSchema: false,
  allErrors: false,
  // Ajv's extra optimisation pass costs ~40% of schema compilation at start-up and does not make the generated
  // validators measurably faster (36 vs 37 ns per call in bench/); customOptions may turn it back on.
  code: { optimize: false }
}

/** Ajv 6's `jsonPointers` is always on in Ajv 8, which logs "NOT SUPPORTED" for it; users copy it from old examples. */
const ajv6OnlyOptions = ['jsonPointers']

function isFormatsPlugin (entry: AjvPlugin | [AjvPlugin, unknown]): boolean {
  const plugin = Array.isArray(entry) ? entry[0] : entry
  return plugin === addFormats || plugin.name === addFormats.name
}

/**
 * Ajv coerces the strings "Infinity" and "1e309" to a number (its test is `data == +data`), and its limit keywords
 * skip non-finite numbers, so `?limit=Infinity` would pass `maximum: 100` and reach the handler. The coercion of
 * every generated validator gets `isFinite` added, so such a string fails the type instead ("must be integer").
 * The match needs the literal `"string"` with bare quotes, which a string constant of a schema (emitted with escaped
 * quotes) cannot contain. Starting the pattern with that literal lets the regexp engine skip ahead to candidates:
 * one that starts with `\w+` tried every position and cost ~40 ms per 1000 validators.
 */
const numericCoercion = /"string" && (\w+) && \1 == \+\1/g

function finiteCoercion (source: string): string {
  return source.replace(numericCoercion, '"string" && $1 && $1 == +$1 && isFinite($1)')
}

/** Ajv's `code` options with `finiteCoercion` applied before any `process` of the user's own. */
function codeOptions (given: unknown): Record<string, unknown> {
  const code: JsonSchema = typeof given === 'object' && given !== null ? { ...given } : {}
  const userProcess = code.process
  code.process = typeof userProcess === 'function'
    ? (source: string, env: unknown) => userProcess(finiteCoercion(source), env)
    : finiteCoercion
  return code
}

/** Builds an Ajv instance with the baseline, formats, user options and plugins, and the given external schemas. */
export function buildAjv (options: AjvServerOptions, externalSchemas: JsonSchema): Ajv {
  const ajvOptions: Record<string, unknown> = { ...baselineOptions, ...options.customOptions }
  for (const name of ajv6OnlyOptions) delete ajvOptions[name]
  ajvOptions.code = codeOptions(ajvOptions.code)
  const ajv = new Ajv(ajvOptions)

  // The user's plugins first, then ajv-formats unless they listed it (maybe with options such as `mode: 'fast'`):
  // applying it twice would define its `formatMaximum` keyword twice. Their copy is recognised by what it is, as
  // Fastify does (its function's name), since an application usually has its own copy of the package.
  for (const entry of options.plugins) {
    if (Array.isArray(entry)) entry[0](ajv, entry[1])
    else entry(ajv)
  }
  if (!options.plugins.some(isFormatsPlugin)) addFormats(ajv)

  for (const key of Object.keys(externalSchemas)) {
    const schema = externalSchemas[key]
    // A custom bucket may key a schema without `$id`: Ajv then needs the key to resolve `$ref: 'key#'`.
    if (schema !== null && typeof schema === 'object' && typeof schema.$id === 'string') ajv.addSchema(schema)
    else ajv.addSchema(schema, key)
  }
  return ajv
}

function cacheKey (schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema)
  } catch {
    return undefined // cyclic schema: compile it without caching
  }
}

/**
 * Compiles a schema that `canDefer` has already checked against the meta-schema, without Ajv checking it again
 * (~5% of each first-use compilation). Ajv reads the option during the synchronous `compile` only.
 */
function compileChecked (ajv: Ajv, schema: unknown): ValidationFunction {
  const options = ajv.opts
  const validateSchema = options.validateSchema
  options.validateSchema = false
  try {
    return ajv.compile(schema as object)
  } finally {
    options.validateSchema = validateSchema
  }
}

/**
 * The default `buildValidator`. The returned compiler ignores `httpPart`, so a schema seen twice (same JSON) is
 * compiled once and the function reused by every route of the contexts sharing this compiler. A schema that
 * certainly compiles is compiled on its first use (see lazy-validator.ts); any other compiles here, so that
 * `ready()` fails on it.
 */
export const buildDefaultValidator: ValidatorFactory = (externalSchemas, ajvOptions) => {
  const ajv = buildAjv(ajvOptions, externalSchemas)
  const compiled = new Map<string, ValidationFunction>()
  return function defaultValidatorCompiler ({ schema }: ValidatorCompilerArgs): ValidationFunction {
    const key = cacheKey(schema)
    if (key !== undefined) {
      const hit = compiled.get(key)
      if (hit !== undefined) return hit
    }
    // deferred compilation works on a copy, so that a schema object changed after ready cannot change the validator
    const validate = key !== undefined && canDefer(ajv, schema)
      ? deferredValidator(schema, () => compileChecked(ajv, JSON.parse(key)))
      : ajv.compile(schema)
    if (key !== undefined) compiled.set(key, validate)
    return validate
  }
}
