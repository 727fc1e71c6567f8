/**
 * Compiling request validators on first use. Ajv's code generation is most of start-up with many routes, and a
 * route that is never called never needs its validator. But `ready()` must still fail on any schema Ajv would
 * reject, so a schema is deferred only when a cheap check proves its compilation cannot fail: it passes Ajv's
 * meta-schema check and uses only the plain keywords below, consistently typed, with known formats and valid
 * patterns. Anything else (`$ref`, `$id`, combinators, plugin keywords, tuples…) compiles at ready as before.
 */
import type Ajv from 'ajv'
import { kTakesParentData, type ValidationFunction } from './validator-types'
import { isObjectLike } from '../../core/objects'

const annotations = new Set(['title', 'description', 'examples', '$comment'])
// keyword -> the one `type` it needs; Ajv's strict mode warns (or throws) when the two disagree
const typed: Record<string, string> = {
  properties: 'object',
  required: 'object',
  additionalProperties: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  items: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  format: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number'
}
const untyped = new Set(['type', 'enum', 'const'])
const jsonTypes = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'])


/** Whether compiling `schema` with `ajv` certainly succeeds (false means: compile it now, to report any error). */
export function canDefer (ajv: Ajv, schema: unknown): boolean {
  if (!isObjectLike(schema) || 'default' in schema) return false // Ajv rejects a default at the root
  try {
    if (ajv.validateSchema(schema) !== true) return false
  } catch {
    return false
  }
  return plain(ajv, schema, 0)
}

function plain (ajv: Ajv, schema: unknown, depth: number): boolean {
  if (!isObjectLike(schema) || depth > 32) return false
  const type = schema.type
  if (type !== undefined && !(typeof type === 'string' && jsonTypes.has(type))) return false
  for (const keyword of Object.keys(schema)) {
    if (annotations.has(keyword) || untyped.has(keyword) || keyword === 'default') continue
    const needs = typed[keyword]
    if (needs === undefined) return false
    if (type !== needs && !(needs === 'number' && type === 'integer')) return false
  }
  if (typeof schema.format === 'string' && (ajv.formats as Record<string, unknown>)[schema.format] === undefined) return false
  if (schema.pattern !== undefined && !isPattern(schema.pattern)) return false
  const properties = schema.properties ?? {}
  if (!isObjectLike(properties)) return false
  // Ajv's strictRequired (off by default, but a user may turn it on) rejects a required name with no property
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((name: unknown) => typeof name === 'string' && Object.hasOwn(properties, name)))) return false
  for (const name of Object.keys(properties)) if (!plain(ajv, properties[name], depth + 1)) return false
  const additional = schema.additionalProperties
  if (additional !== undefined && typeof additional !== 'boolean' && !plain(ajv, additional, depth + 1)) return false
  return schema.items === undefined || plain(ajv, schema.items, depth + 1)
}

function isPattern (pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false
  try {
    RegExp(pattern, 'u')
    return true
  } catch {
    return false
  }
}

/**
 * The deferred validators of an application not compiled yet. Once the application is ready they are compiled in
 * the background, a few milliseconds at a time between requests, so that a route's first request rarely pays for
 * its compilation; a request that comes first compiles its own validator, as before.
 */
export class DeferredCompilations {
  readonly #pending: Array<() => void> = []
  #running = false

  add (compile: () => void): void {
    this.#pending.push(compile)
  }

  /** Compiles the pending validators in slices of `sliceMs`, yielding to I/O between slices. */
  start (sliceMs = 5): void {
    if (this.#running || this.#pending.length === 0) return
    this.#running = true
    const step = (): void => {
      const until = performance.now() + sliceMs
      while (this.#pending.length > 0 && performance.now() < until) this.#pending.shift()!()
      if (this.#pending.length > 0 && this.#running) setImmediate(step)
      else this.#running = false
    }
    setImmediate(step)
  }

  /** When the application closes: what is not compiled yet stays for its first use. */
  stop (): void {
    this.#running = false
    this.#pending.length = 0
  }
}

/**
 * A validation function that compiles on its first call (or earlier, in the background, when `background` is
 * given); `errors` (and `schema`) mirror the compiled function's, so callers use it exactly as an Ajv validator.
 */
export function deferredValidator (schema: unknown, compile: () => ValidationFunction, background?: DeferredCompilations): ValidationFunction {
  let compiled: ValidationFunction | undefined
  const validate: ValidationFunction & { schema?: unknown, [kTakesParentData]?: true } = function validateOnFirstUse (data: unknown, options?: unknown): unknown {
    compiled ??= compile()
    const result = compiled(data, options)
    validate.errors = compiled.errors
    return result
  }
  validate.errors = null
  validate.schema = schema
  validate[kTakesParentData] = true
  background?.add(() => {
    try {
      compiled ??= compile()
    } catch {
      // cannot happen for a schema canDefer accepted; if it did, the first request compiles it and reports why
    }
  })
  return validate
}
