/**
 * `decorate()`, `decorateRequest()` and `decorateReply()`. A name declared by declaration merging (on
 * `FastifyInstance`, `FastifyRequest` or `FastifyReply`) must be given a value of the declared type; a function
 * value gets the decorated object as `this`, and a `{ getter, setter }` object defines an accessor.
 *
 * `decorate()` also tracks undeclared names in the type it returns: `app.decorate('answer', 42).answer` is a number.
 */

import type { AtLevel } from './level'

/** A decorator value: the value itself, or an accessor. */
type GetterSetter<This, T> = T | {
  getter: (this: This) => T
  setter?: (this: This, value: T) => void
}

/** A function decorator is called with the decorated object as `this`. */
type WithThis<This, T> = T extends (...args: any[]) => any ? (this: This, ...args: Parameters<T>) => ReturnType<T> : T

/** A name not declared on `This` (`never` for a declared one, so that its declared type applies). */
type UndeclaredName<P, This> = P extends keyof This ? never : P

/** What `decorate(name, value)` returns: `Return`, plus the new property when `Track` and the name is new. */
type Decorated<This, Return, Track, P extends PropertyKey, T> =
  Track extends true ? (P extends keyof This ? Return : string extends P ? Return : Return & { [K in P]: T }) : Return

/**
 * A decorate method on objects of type `This` (what a function value gets as `this`), returning `Return`.
 * The first type parameter of the general form is the value's type, as in Fastify:
 * `decorate<(x: string) => void>('name', fn)`.
 */
export interface DecorationMethod<This, Return = This, Track extends boolean = false> {
  /**
   * An undeclared function: its parameters and result are its own, and `this` is the decorated object (Fastify's
   * form below types `this` only for declared names).
   */
  <P extends string | symbol, Args extends unknown[], R>(
    property: UndeclaredName<P, This>,
    value: (this: This, ...args: Args) => R,
    dependencies?: string[]
  ): Decorated<This, Return, Track, P, (...args: Args) => R>
  <T extends (P extends keyof This ? This[P] : unknown), P extends string | symbol = string | symbol>(
    property: P,
    value: GetterSetter<This, WithThis<This, T>>,
    dependencies?: string[]
  ): Decorated<This, Return, Track, P, T>
  /** A placeholder, set later (a request or reply decorator filled per request in a hook). */
  (property: string | symbol): Return
  /**
   * `null` as a placeholder: at the Fastify 4 level for any name, at the Fastify 5 level (as in Fastify 5) only with
   * dependencies, or for an undeclared name (the general form): a declared one must get a value of its type.
   */
  (property: string | symbol, value: AtLevel<null, never>): Return
  (property: string | symbol, value: null | undefined, dependencies: string[]): Return
}
