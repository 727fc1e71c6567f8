/**
 * Type-level assertions for the type tests. These files are only type-checked (`npm run typecheck`), never run.
 */

/** `true` when `A` and `B` are the same type (not merely mutually assignable). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false

/** `true` when `T` is `unknown` (and not `any`). */
export type IsUnknown<T> = unknown extends T ? (0 extends (1 & T) ? false : true) : false

/** Compile error unless `T` is `true`: `assert<Equal<A, B>>()`. */
export function assert<T extends true> (): T | void {}

/**
 * Compile error unless the value's type is exactly `Expected`: `typeOf(request.body).is<{ name: string }>()`.
 * (When the types differ, `is()` requires an argument, so the call fails to compile.)
 */
export function typeOf<Actual> (_value: Actual): { is<Expected>(...mismatch: Equal<Actual, Expected> extends true ? [] : [typesDiffer: never]): void } {
  return { is () {} }
}
