/**
 * What a route's types are made of. A route's request and reply are typed by a "route generic" with the keys
 * `Body`, `Querystring`, `Params`, `Headers` and `Reply`, written by hand as in Fastify (`app.get<{ Querystring: Q }>`),
 * and by the route's schema through the type provider (Enclave's own inference by default, see type-provider.ts).
 * This file holds the route generic interfaces and the schema-to-type helpers of Enclave's inference.
 */
import type { FromSchema } from './schema'
import type { CodeClasses, IsHttpCode } from './utils'

/** The request half of a route generic. A key that is absent is `unknown` (`Headers`: Node's headers). */
export interface RequestGenericInterface {
  Body?: unknown
  Querystring?: unknown
  Params?: unknown
  Headers?: unknown
}

/**
 * The reply half of a route generic: the payload type, or a map from status codes (`200`, `'4xx'`, `'default'`)
 * to payload types.
 */
export interface ReplyGenericInterface {
  Reply?: unknown
}

/** The types of one route's request parts and reply. */
export interface RouteGenericInterface extends RequestGenericInterface, ReplyGenericInterface {}

/** A schema with one of these keys is a full schema, not a shorthand (the same test as Fastify's `jsonShorthand`). */
type FullSchema =
  | { readonly type: unknown } | { readonly properties: unknown } | { readonly $ref: unknown } | { readonly oneOf: unknown }
  | { readonly anyOf: unknown } | { readonly allOf: unknown } | { readonly $merge: unknown } | { readonly $patch: unknown }
  | { readonly static: unknown }

/** Expands Fastify's JSON shorthand: `{ name: { type: 'string' } }` means `{ type: 'object', properties: … }`. */
export type ExpandShorthand<X> =
  X extends boolean | FullSchema ? X
    : X extends object ? { type: 'object', properties: X }
      : X

/** The type of one request part's data from its schema (shorthand allowed). */
export type RequestPartFromSchema<X, Refs = Record<never, never>> = FromSchema<ExpandShorthand<X>, Refs, 'input'>

/** One status code's payload type; the code may map content types to `{ schema }`. */
type ResponseFromSchema<X, Refs> =
  X extends { readonly content: infer C } ? (X extends { readonly type: unknown } ? FromSchema<X, Refs, 'output'> : ContentSchemas<C, Refs>)
    : FromSchema<ExpandShorthand<X>, Refs, 'output'>

type ContentSchemas<C, Refs> = { [T in keyof C]: C[T] extends { readonly schema: infer S } ? FromSchema<ExpandShorthand<S>, Refs, 'output'> : unknown }[keyof C]

/** Payload types by status code, from `schema.response`. */
export type ResponseTypesFromSchema<Response, Refs = Record<never, never>> = { -readonly [Code in keyof Response]: ResponseFromSchema<Response[Code], Refs> }

/** The route generic a route schema describes (what Enclave's inference gives each part). */
export interface RouteGenericFromSchema<S, Refs = Record<never, never>> {
  Body: S extends { readonly body: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Querystring: S extends { readonly querystring: infer X } ? RequestPartFromSchema<X, Refs>
    : S extends { readonly query: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Params: S extends { readonly params: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Headers: S extends { readonly headers: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Reply: S extends { readonly response: infer X } ? ResponseTypesFromSchema<X, Refs> : unknown
}

// ---- reply maps ----

/** Whether `Key` may key a reply map: a status code (number or string), a range (`'4xx'`, `'4XX'`) or `'default'`. */
type IsReplyMapKey<Key> =
  Key extends number ? IsHttpCode<Key>
    : Key extends `${CodeClasses}xx` | `${CodeClasses}XX` | 'default' ? true
      : Key extends `${infer Code extends number}` ? IsHttpCode<Code>
        : false

/** Whether a `Reply` type is a map from status codes to payload types rather than a payload type. */
export type IsReplyMap<R> =
  unknown extends R ? false
    : R extends readonly unknown[] | ((...args: any[]) => unknown) ? false
      : R extends object ? ([keyof R] extends [never] ? false : false extends IsReplyMapKey<keyof R> ? false : true)
        : false

/**
 * The payload type for one status code of a reply map: the exact code, else its range (`'4xx'`), else
 * `'default'`, else `unknown` (anything). A code that is not a literal (a `number`) allows every declared payload.
 */
export type PayloadForStatus<Map, Code extends number> =
  number extends Code ? Map[keyof Map]
    : Code extends keyof Map ? Map[Code]
      : `${Code}` extends keyof Map ? Map[`${Code}` & keyof Map]
        : `${Code}` extends `${infer Class extends CodeClasses}${string}`
          ? (`${Class}xx` extends keyof Map ? Map[`${Class}xx` & keyof Map]
              : `${Class}XX` extends keyof Map ? Map[`${Class}XX` & keyof Map] : DefaultPayload<Map>)
          : DefaultPayload<Map>

type DefaultPayload<Map> = 'default' extends keyof Map ? Map['default' & keyof Map] : unknown
