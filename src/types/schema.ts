/**
 * JSON Schema types and `FromSchema`, the inference of a TypeScript type from a schema written `as const` (or built
 * with TypeBox). No extra package is involved: route methods call `FromSchema` on the route's schemas.
 *
 * The inference is a set of non-recursive-by-default conditional types with an explicit depth budget
 * (`MaxDepth`): every nested schema costs one unit, and a schema nested deeper than the budget is `unknown`.
 * That keeps the checker far from its "type instantiation is excessively deep" limit, even for recursive `$ref`s.
 *
 * @see ../../docs/typescript.md
 */

/** The values of the `type` keyword. */
export type JSONSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

/**
 * A JSON Schema (draft-07 keywords, plus OpenAPI's `nullable` which Ajv supports). The known keywords are typed;
 * any other keyword (`description`, `format`, custom Ajv keywords, …) is accepted.
 */
export interface JSONSchema {
  $id?: string
  $ref?: string
  $schema?: string
  title?: string
  description?: string
  type?: JSONSchemaTypeName | readonly JSONSchemaTypeName[]
  properties?: { readonly [name: string]: JSONSchemaDefinition }
  required?: readonly string[]
  additionalProperties?: JSONSchemaDefinition
  patternProperties?: { readonly [pattern: string]: JSONSchemaDefinition }
  items?: JSONSchemaDefinition | readonly JSONSchemaDefinition[]
  prefixItems?: readonly JSONSchemaDefinition[]
  enum?: readonly unknown[]
  const?: unknown
  nullable?: boolean
  default?: unknown
  oneOf?: readonly JSONSchemaDefinition[]
  anyOf?: readonly JSONSchemaDefinition[]
  allOf?: readonly JSONSchemaDefinition[]
  not?: JSONSchemaDefinition
  definitions?: { readonly [name: string]: JSONSchemaDefinition }
  $defs?: { readonly [name: string]: JSONSchemaDefinition }
  [keyword: string]: unknown
}

/** A schema or a boolean schema (`true` accepts anything, `false` nothing). */
export type JSONSchemaDefinition = JSONSchema | boolean

/**
 * Shared schemas known to the type system, keyed by `$id`. `app.addSchema(schema)` returns an instance whose
 * registry includes the schema, so that `{ $ref: 'id#' }` resolves to the schema's type.
 */
export type SchemaRegistry = { [id: string]: unknown }

/**
 * Whether a schema describes data coming in (request parts: a property with a `default` is always present after
 * validation, because Ajv fills it in) or going out (responses: such a property may be omitted).
 */
export type SchemaDirection = 'input' | 'output'

/** How many nested schemas `FromSchema` follows before it gives up with `unknown`. */
export type MaxDepth = 10

/**
 * The TypeScript type of the data a JSON Schema accepts.
 *
 * Supports `type` (a name or an array of names), `properties`, `required`, `additionalProperties`,
 * `patternProperties`, `items` (a schema or a tuple), `prefixItems`, `enum`, `const`, `nullable`, `default`,
 * `oneOf`/`anyOf` (a union), `allOf` (an intersection), `$ref` to a shared schema in `Refs` (`'id'`, `'id#'`,
 * `'id#/json/pointer'`) or inside the same schema (`'#/definitions/x'`), and TypeBox schemas (their static type).
 * A schema that is not a literal type (not written `as const`) gives `unknown`, never `any`.
 *
 * Objects are closed: a property the schema does not declare is an error to read, unless the schema has
 * `additionalProperties` or `patternProperties`, or declares no `properties` at all.
 *
 * @example
 * const user = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const
 * type User = FromSchema<typeof user> // { name: string }
 */
export type FromSchema<S, Refs = Record<never, never>, Direction extends SchemaDirection = 'input'> = Infer<S, Refs, S, Direction, MaxDepth>

/** Remaining depth budget after one more level; `never` when exhausted. */
type Next<D extends number> = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][D]

/**
 * Flattens an intersection of object types into one object type. The `& {}` makes editors and error messages show
 * the resulting properties rather than the alias.
 */
export type Simplify<T> = { [K in keyof T]: T[K] } & {}

/**
 * Keywords that need more than the `type` keyword's mapping. A schema without any of them (the common case:
 * `{ type: 'string' }`, `{ type: 'object', properties }`) takes the fast path, which keeps the checker's work per
 * schema small.
 */
type SpecialSchema =
  | { readonly $ref: unknown } | { readonly const: unknown } | { readonly enum: unknown } | { readonly nullable: true }
  | { readonly anyOf: unknown } | { readonly oneOf: unknown } | { readonly allOf: unknown } | { readonly static: unknown }

type Infer<S, R, Root, M, D extends number> =
  [D] extends [never] ? unknown
    : S extends SpecialSchema ? InferSpecial<S, R, Root, M, D>
      : S extends { readonly type: infer T } ? TypeNames<T extends readonly (infer N)[] ? N : T, S, R, Root, M, D>
        : S extends boolean ? (S extends false ? never : unknown)
          : Untyped<S, R, Root, M, D>

type InferSpecial<S, R, Root, M, D extends number> =
  // TypeBox schemas carry their static type in a phantom `static` property.
  S extends { readonly static: infer T } ? (unknown extends T ? InferKeywords<S, R, Root, M, D> : T)
    : InferKeywords<S, R, Root, M, D>

type InferKeywords<S, R, Root, M, D extends number> =
  S extends { readonly $ref: infer Ref extends string } ? ResolveRef<Ref, R, Root, M, D>
    : S extends { readonly const: infer C } ? C
      : S extends { readonly enum: readonly (infer E)[] } ? E | NullOf<S>
        : (Core<S, R, Root, M, D> & Combinators<S, R, Root, M, D>) | NullOf<S>

type NullOf<S> = S extends { readonly nullable: true } ? null : never

type Core<S, R, Root, M, D extends number> =
  S extends { readonly type: infer T } ? TypeNames<T extends readonly (infer N)[] ? N : T, S, R, Root, M, D> : Untyped<S, R, Root, M, D>

/** A schema without `type`: an object or array by its keywords, else anything. */
type Untyped<S, R, Root, M, D extends number> =
  S extends { readonly properties: unknown } | { readonly additionalProperties: unknown } | { readonly patternProperties: unknown } | { readonly required: unknown } ? ObjectOf<S, R, Root, M, D>
    : S extends { readonly items: unknown } | { readonly prefixItems: unknown } ? ArrayOf<S, R, Root, M, D>
      : unknown

/** Distributes over the type names, so `type: ['string', 'null']` gives `string | null`. */
type TypeNames<N, S, R, Root, M, D extends number> =
  N extends 'string' ? string
    : N extends 'number' | 'integer' ? number
      : N extends 'boolean' ? boolean
        : N extends 'null' ? null
          : N extends 'object' ? ObjectOf<S, R, Root, M, D>
            : N extends 'array' ? ArrayOf<S, R, Root, M, D>
              : unknown

type Combinators<S, R, Root, M, D extends number> =
  (S extends { readonly anyOf: infer A extends readonly unknown[] } ? Infer<A[number], R, Root, M, Next<D>> : unknown) &
  (S extends { readonly oneOf: infer O extends readonly unknown[] } ? Infer<O[number], R, Root, M, Next<D>> : unknown) &
  (S extends { readonly allOf: infer A extends readonly unknown[] } ? AllOf<A, R, Root, M, Next<D>> : unknown)

type AllOf<A, R, Root, M, D extends number> =
  A extends readonly [infer Head, ...infer Tail] ? Infer<Head, R, Root, M, D> & AllOf<Tail, R, Root, M, D> : unknown

// ---- objects ----

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never

/** Keys of properties with a `default`: present in validated input. */
type DefaultKeys<P, M> = M extends 'input' ? { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P] : never

type ObjectOf<S, R, Root, M, D extends number> =
  S extends { readonly properties: infer P extends object }
    ? (S extends { readonly additionalProperties: unknown } | { readonly patternProperties: unknown }
        ? Properties<P, RequiredKeys<S> | DefaultKeys<P, M>, R, Root, M, Next<D>> & ExtraProperties<S, true, R, Root, M, Next<D>>
        : Properties<P, RequiredKeys<S> | DefaultKeys<P, M>, R, Root, M, Next<D>>)
    : MissingRequired<RequiredKeys<S>, Record<never, never>> & ExtraProperties<S, false, R, Root, M, Next<D>>

type Properties<P, Req, R, Root, M, D extends number> = Simplify<
  { -readonly [K in keyof P & Req]: Infer<P[K], R, Root, M, D> } &
  { -readonly [K in Exclude<keyof P, Req>]?: Infer<P[K], R, Root, M, D> } &
  MissingRequired<Req, P>
>

/** `required` names that `properties` does not describe: present, of unknown type. */
type MissingRequired<Req, P> = [Exclude<Req, keyof P>] extends [never] ? unknown : { [K in Exclude<Req, keyof P> & string]: unknown }

/**
 * The index signature an object gets: from `additionalProperties`, else `patternProperties`, else none when
 * `properties` are declared (a closed object) and `unknown` values when nothing is declared.
 */
type ExtraProperties<S, HasProperties, R, Root, M, D extends number> =
  S extends { readonly additionalProperties: infer A }
    ? ([A] extends [false] ? unknown : IndexOf<S, Infer<A, R, Root, M, D>, R, Root, M, D>)
    : S extends { readonly patternProperties: infer PP }
      ? IndexOf<S, Infer<PP[keyof PP], R, Root, M, D>, R, Root, M, D>
      : HasProperties extends true ? unknown : { [key: string]: unknown }

/** An index signature whose value type also admits the declared properties' types, so they stay readable. */
type IndexOf<S, V, R, Root, M, D extends number> =
  unknown extends V ? { [key: string]: unknown }
    : { [key: string]: V | (S extends { readonly properties: infer P } ? Infer<P[keyof P], R, Root, M, D> : never) }

// ---- arrays ----

type ArrayOf<S, R, Root, M, D extends number> =
  S extends { readonly items: infer I }
    ? (I extends readonly unknown[] ? TupleOf<I, R, Root, M, Next<D>> : Array<Infer<I, R, Root, M, Next<D>>>)
    : S extends { readonly prefixItems: infer I extends readonly unknown[] } ? TupleOf<I, R, Root, M, Next<D>>
      : unknown[]

type TupleOf<I, R, Root, M, D extends number> = { -readonly [K in keyof I]: Infer<I[K], R, Root, M, D> }

// ---- $ref ----

// The registry is matched with `R extends { [id]: infer Target }` rather than `Id extends keyof R`: `keyof` would make
// the types that carry a registry (the instance's type provider) contravariant in it, and an instance typed with
// another provider would no longer fit where a default instance is expected.
type ResolveRef<Ref extends string, R, Root, M, D extends number> =
  Ref extends `#${infer Pointer}` ? Infer<Walk<Root, Pointer>, R, Root, M, Next<D>>
    : Ref extends `${infer Id}#${infer Pointer}`
      ? (R extends { readonly [K in Id]: infer Target } ? Infer<Walk<Target, Pointer>, R, Target, M, Next<D>> : unknown)
      : R extends { readonly [K in Ref]: infer Target } ? Infer<Target, R, Target, M, Next<D>> : unknown

/** Follows a JSON pointer (`/definitions/user`) into a schema; `true` (any value) when a segment is missing. */
type Walk<T, Pointer extends string> =
  Pointer extends `/${infer Segment}/${infer Rest}` ? (Segment extends keyof T ? Walk<T[Segment], `/${Rest}`> : true)
    : Pointer extends `/${infer Segment}` ? (Segment extends keyof T ? T[Segment] : true)
      : T
