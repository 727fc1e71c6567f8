/** Shapes shared by every folder. */

/** A user function of unknown signature (hooks, handlers, plugins), called with the arguments its role defines. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arguments and results are the user's
export type AnyFn = (...args: any[]) => any

/**
 * A JSON Schema (or part of one) as the schema code walks it: a JSON document of any shape, read key by key. The
 * one place its values are typed `any`; everything that reads a schema goes through this name.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type JsonSchema = Record<string, any>

/** An object of the user's shape read key by key (an options bag, a route's `config`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type LooseObject = Record<string, any>
