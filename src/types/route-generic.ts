/**
 * What a route's types are made of. A route's request and reply are typed by a "route generic" with the keys
 * `Body`, `Querystring`, `Params`, `Headers` and `Reply`. It is either written by hand, as in Fastify
 * (`app.get<{ Querystring: Q }>(…)`), or inferred from the route's schema (`RouteGenericFromSchema`).
 */
import type { FromSchema, SchemaDirection } from './schema'

/**
 * The types of one route's request parts and reply. A key that is absent is `unknown` (`Headers`: Node's headers).
 * `Reply` is either the payload type, or a map from status codes (`200`, `'4xx'`, `'default'`) to payload types.
 */
export interface RouteGenericInterface {
  Body?: unknown
  Querystring?: unknown
  Params?: unknown
  Headers?: unknown
  Reply?: unknown
}

/**
 * A route's `schema` option. Each request part takes a JSON Schema, or with Fastify's JSON shorthand the
 * `properties` of an object schema. Other keys (`tags`, `summary`, … for OpenAPI generators) are allowed.
 */
export interface EnclaveSchema {
  body?: unknown
  querystring?: unknown
  /** Alias of `querystring`. */
  query?: unknown
  params?: unknown
  headers?: unknown
  /** Response schemas by status code (`200`, `'2xx'`, `'default'`); a code may map content types to schemas. */
  response?: { readonly [status: string]: unknown }
  [keyword: string]: unknown
}

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
type ResponseFromSchema<X, Refs, M extends SchemaDirection = 'output'> =
  X extends { readonly content: infer C } ? (X extends { readonly type: unknown } ? FromSchema<X, Refs, M> : ContentSchemas<C, Refs>)
    : FromSchema<ExpandShorthand<X>, Refs, M>

type ContentSchemas<C, Refs> = { [T in keyof C]: C[T] extends { readonly schema: infer S } ? FromSchema<ExpandShorthand<S>, Refs, 'output'> : unknown }[keyof C]

/** Payload types by status code, from `schema.response`. */
export type ResponseTypesFromSchema<Response, Refs = Record<never, never>> = { -readonly [Code in keyof Response]: ResponseFromSchema<Response[Code], Refs> }

/**
 * The route generic of a route: each key comes from `G` when given there (Fastify style), else from the
 * schema `S`, else it is `unknown`. `Refs` are the shared schemas `$ref` can point to.
 */
export interface RouteTypes<G, S, Refs = Record<never, never>> {
  Body: G extends { Body: infer B } ? B : S extends { readonly body: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Querystring: G extends { Querystring: infer Q } ? Q
    : S extends { readonly querystring: infer X } ? RequestPartFromSchema<X, Refs>
      : S extends { readonly query: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Params: G extends { Params: infer P } ? P : S extends { readonly params: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Headers: G extends { Headers: infer H } ? H : S extends { readonly headers: infer X } ? RequestPartFromSchema<X, Refs> : unknown
  Reply: G extends { Reply: infer R } ? R : S extends { readonly response: infer X } ? ResponseTypesFromSchema<X, Refs> : unknown
}

/** The route generic a schema describes. */
export type RouteGenericFromSchema<S, Refs = Record<never, never>> = RouteTypes<Record<never, never>, S, Refs>

// ---- reply payloads ----

type StatusDigit = '1' | '2' | '3' | '4' | '5'

/** A key of a reply map: a status code, a range (`'4xx'`) or `'default'`. */
export type StatusCodeKey = number | `${number}` | `${StatusDigit}xx` | `${StatusDigit}XX` | 'default'

/** Whether a `Reply` type is a map from status codes to payload types rather than a payload type. */
export type IsStatusMap<R> =
  unknown extends R ? false
    : R extends readonly unknown[] | ((...args: any[]) => unknown) ? false
      : R extends object ? ([keyof R] extends [never] ? false : [keyof R] extends [StatusCodeKey] ? true : false)
        : false

/** The `Reply` of a route generic (`unknown` when absent). */
export type ReplyTypeOf<G> = G extends { Reply: infer R } ? R : unknown

/** What a route may send: its payload type, or the union over its status codes. `unknown` without a response schema. */
export type ReplyPayload<G> = PayloadOf<ReplyTypeOf<G>>

type PayloadOf<R> = IsStatusMap<R> extends true ? R[keyof R] : R

/** The payload type for one status code: the exact code, else its range, else `'default'`, else `unknown`. */
export type PayloadForStatus<Map, Code extends number> =
  Code extends keyof Map ? Map[Code]
    : `${Code}` extends keyof Map ? Map[`${Code}` & keyof Map]
      : `${Code}` extends `${infer D extends StatusDigit}${string}`
        ? (`${D}xx` extends keyof Map ? Map[`${D}xx` & keyof Map] : `${D}XX` extends keyof Map ? Map[`${D}XX` & keyof Map] : DefaultPayload<Map>)
        : DefaultPayload<Map>

type DefaultPayload<Map> = 'default' extends keyof Map ? Map['default' & keyof Map] : unknown

/**
 * The route generic after `reply.code(code)`: `Reply` narrowed to that code's payload type. A code that is not a
 * literal (a `number` variable) keeps every declared payload.
 */
export type RouteGenericForStatus<G, Code extends number> =
  number extends Code ? G
    : IsStatusMap<ReplyTypeOf<G>> extends true ? Omit<G, 'Reply'> & { Reply: PayloadForStatus<ReplyTypeOf<G>, Code> }
      : G
