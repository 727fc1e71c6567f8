/**
 * Standalone code of Ajv and fast-json-stringify as compile-cache entries. Both libraries can write a compiled
 * validator or serializer as a CommonJS module that needs only their own runtime helpers; such a module is kept in
 * the pack as the body of a factory `(rt, arg)` that runs it with a `module` of its own and a `require` limited to
 * those helpers. Used for the schemas Enclave's generators do not cover (`$ref`, combinators, other options).
 *
 * Only what can be keyed is cached: options made of plain JSON values (no plugins, no functions, whose code the key
 * could not see), shared schemas and schemas that are plain JSON data too; options and shared schemas are part of
 * the entry's key.
 */
import { createHash } from 'node:crypto'
import { isPlainObject } from '../core/objects'
import type { GeneratedFactory } from './compile-cache'

/** The parameters of a module entry's factory. */
export const moduleEntryParams = 'rt, arg'

/** The factory body for CommonJS module code (its own `'use strict'` moves first, where it is a directive). */
export function moduleEntryBody (moduleCode: string): string {
  const code = moduleCode.replace(/^\s*(['"])use strict\1;?/, '')
  return `"use strict"\nconst module = { exports: {} }, require = rt.require\n${code}\nreturn module.exports`
}

/**
 * The entry body for the module code `write` returns, or undefined when there is none: `write` threw, or the body
 * does not compile as a function (ES module code, say), which would keep the whole pack from loading.
 */
export function compilableEntryBody (write: () => string): string | undefined {
  try {
    const body = moduleEntryBody(write())
    new Function(moduleEntryParams, body) // compiled to check the syntax, never run
    return body
  } catch {
    return undefined
  }
}

/** Runs a module entry's factory; its `require` answers only the module ids `allowed` matches. */
export function runModuleEntry (factory: GeneratedFactory, allowed: RegExp): unknown {
  const runtime = {
    require (id: string): unknown {
      if (!allowed.test(id)) throw new Error(`cached code requires "${id}", which the compile cache does not provide`)
      return require(id)
    }
  }
  return factory(runtime, undefined)
}

/**
 * A hash of what a library's compiled code depends on besides its schema and the versions in the pack's
 * fingerprint: its options and the shared schemas. Null when either is not plain JSON data.
 */
export function configurationKey (options: unknown, sharedSchemas: unknown): string | null {
  if (!isJsonData(options) || !isJsonData(sharedSchemas)) return null
  try {
    return createHash('sha256').update(JSON.stringify([options ?? null, sharedSchemas])).digest('base64url')
  } catch {
    return null // a cyclic shared schema
  }
}

/**
 * Whether `value` is what its JSON says: plain objects, arrays, strings, finite numbers, booleans, null (and
 * undefined members, which JSON leaves out as they are absent). A key made from the JSON of anything else (a RegExp,
 * a function) could not tell two different values apart. Deeper than 64 levels counts as not.
 */
export function isJsonData (value: unknown, depth = 0): boolean {
  if (value === null || value === undefined) return true
  const type = typeof value
  if (type === 'string' || type === 'boolean') return true
  if (type === 'number') return Number.isFinite(value)
  if (depth > 64) return false
  if (Array.isArray(value)) return value.every((item) => item !== undefined && isJsonData(item, depth + 1))
  return isPlainObject(value) && Object.values(value).every((item) => isJsonData(item, depth + 1))
}
