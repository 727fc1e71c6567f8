/** Small checks on values, shared by every folder. Each has one meaning; pick by what the caller must rule out. */
import type { LooseObject } from './types'

/** A non-null object that is not an array: anything a schema keyword or an options bag may be. */
export function isObjectLike (value: unknown): value is LooseObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An object literal (prototype `Object.prototype` or null): rules out class instances such as schemas of other
 * libraries (Joi, fluent builders), dates and maps.
 */
export function isPlainObject (value: unknown): value is LooseObject {
  if (!isObjectLike(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Whether a value can be awaited: a promise or any thenable a user function returned. */
export function isThenable (value: unknown): value is PromiseLike<unknown> {
  return value !== null && value !== undefined && typeof (value as { then?: unknown }).then === 'function'
}
