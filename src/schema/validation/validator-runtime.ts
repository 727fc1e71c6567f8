/**
 * What Enclave's validators (generated, `generated-validator.ts`, and interpreted, `validator-interpreter.ts`) run
 * on: Ajv's coercions and type checks, and the helpers of Ajv's packages (`ucs2length`, `equal`, the formats of
 * `ajv-formats`: the very objects the default Ajv instance uses), loaded when first asked for: an application whose
 * schemas use no format never loads ajv-formats.
 */
import type ucs2lengthFn from 'ajv/dist/runtime/ucs2length'
import type equalFn from 'ajv/dist/runtime/equal'
import type { fullFormats } from 'ajv-formats/dist/formats'
import { lazyModule } from '../../core/lazy-module'
import type { FormatDefinition } from './validator-subset'

/** The formats a default Ajv instance has: `ajv-formats` in its default ("full") mode. */
export const defaultFormats = lazyModule(() =>
  (require('ajv-formats/dist/formats') as { fullFormats: typeof fullFormats }).fullFormats as Record<string, FormatDefinition | undefined>)
export const ucs2length = lazyModule(() => (require('ajv/dist/runtime/ucs2length') as { default: typeof ucs2lengthFn }).default)
/** Ajv's deep equality (fast-deep-equal), for `uniqueItems` of items that are not primitives. */
export const equal = lazyModule(() => (require('ajv/dist/runtime/equal') as { default: typeof equalFn }).default as unknown as (a: unknown, b: unknown) => boolean)

/** Returned by a coercion that does not apply: the value stays invalid (any other result may be `null` or `false`). */
export const invalid = Symbol('invalid')

/**
 * Ajv's coercions (`coerceTypes: 'array'`), called only for a value not of the type already. First a one-element
 * array stands for its element, then Ajv's rules for the type. Numeric strings must also be finite: the `isFinite`
 * Enclave adds to Ajv's own code (`finiteCoercion` in ajv-compiler.ts), so "1e400" is no number here either.
 */
export const coerce = {
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

export function isInteger (value: unknown): boolean {
  return typeof value === 'number' && !(value % 1) && !isNaN(value) && isFinite(value)
}

/** Whether `value` has JSON type `type`, as Ajv checks it (`strictNumbers`: numbers must be finite). */
export const hasType: Record<string, (value: unknown) => boolean> = {
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  integer: isInteger,
  number: (value) => typeof value === 'number' && isFinite(value),
  string: (value) => typeof value === 'string',
  boolean: (value) => typeof value === 'boolean'
}
