/**
 * Small shared types: HTTP methods, the defaults of the generic parameters, status-code keys and header names.
 */
import type * as http from 'node:http'
import type { AtLevel } from './level'

type MethodName =
  | 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT' | 'OPTIONS' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY'
  | 'MOVE' | 'LOCK' | 'UNLOCK' | 'TRACE' | 'SEARCH' | 'REPORT' | 'MKCALENDAR' | 'QUERY'

/**
 * The HTTP methods a route can answer, in upper or lower case. At the Fastify 5 level, as in Fastify 5, any other
 * name too (a method added with `addHttpMethod()`), the known ones still offered by editors' completion.
 */
// one union written here (not an AtLevel of two), so that messages name it `HTTPMethods`, as Fastify's do
export type HTTPMethods = MethodName | Lowercase<MethodName> | AtLevel<never, string & Record<never, never>>

/** A request part without a type from a generic or a schema is `unknown`: it must be narrowed before use. */
export type RequestBodyDefault = unknown
export type RequestQuerystringDefault = unknown
export type RequestParamsDefault = unknown
export type RequestHeadersDefault = unknown
/** The route `config` type when a route declares none. */
export type ContextConfigDefault = unknown
export type ReplyDefault = unknown

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
/** The first digit of an HTTP status code. */
export type CodeClasses = 1 | 2 | 3 | 4 | 5
type NumberOf<T extends string> = T extends `${infer N extends number}` ? N : never

// Status codes are tested against a pattern, and the codes of a range listed only when a reply map has a range key:
// the union of all 500 codes would be built (and checked) in every program that loads these types.

/** Whether `Code` is an HTTP status code (100 to 599). */
export type IsHttpCode<Code extends number> = `${Code}` extends `${CodeClasses}${Digit}${Digit}` ? true : false

/** Every status code of a range (`4` → 400 to 499). */
type CodesOfClass<Class extends CodeClasses> = NumberOf<`${Class}${Digit}${Digit}`>

/**
 * The status codes `reply.code()` accepts for a reply map's keys: its codes, and every code of its ranges (`'4xx'`).
 * Any code when the route declares no reply map (or a key that is not a code).
 */
export type ReplyKeysToCodes<Key> = [Key] extends [never] ? number
  : Key extends number ? (IsHttpCode<Key> extends true ? Key : number)
    : Key extends `${infer Class extends CodeClasses}xx` ? CodesOfClass<Class>
      : number

/** The range key (`'4xx'`) of a status code. */
export type CodeToReplyKey<Code extends number> = `${Code}` extends `${infer Class extends CodeClasses}${number}` ? `${Class}xx` : never

/** Lower-cases the keys of an object type (header names, as Node parses them). */
export type RecordKeysToLowercase<Input> = Input extends Record<string, unknown>
  ? { [Key in keyof Input as Key extends string ? Lowercase<Key> : Key]: Input[Key] }
  : Input

type WithoutIndexSignature<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** A header name: one Node knows (offered by editors) or any other string. */
export type HttpHeader = keyof WithoutIndexSignature<http.OutgoingHttpHeaders> | (string & Record<never, never>)

/**
 * Fastify 5's name for what `ready()`, `after()`, `register()` and the factory return beside the instance: a
 * `PromiseLike` branded so that linters' no-floating-promise rules know the instance may be used without awaiting it.
 * The brand has no runtime value.
 */
export type SafePromiseLike<T> = PromiseLike<T> & { __linterBrands: 'SafePromiseLike' }

/** The awaitable side of an instance: Fastify 4's `PromiseLike`, or Fastify 5's `SafePromiseLike`. */
export type InstancePromiseLike<T> = AtLevel<PromiseLike<T>, SafePromiseLike<T>>

/** A copy of `T` that inference does not look into (what `NoInfer` does, for code written before TypeScript 5.4). */
export type NoInferCompat<T> = { [K in keyof T]: T[K] }
