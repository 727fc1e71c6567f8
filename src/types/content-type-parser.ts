/**
 * Content-type parser types. A parser turns a request payload into `request.body`: it receives the raw stream,
 * or with `parseAs` the whole body as a string or Buffer, and either calls `done(err, body)` or returns a promise.
 */
import type { EnclaveInstance } from './instance'
import type { EnclaveRequest } from './request'
import type { RawRequestDefault } from './raw'

/** Hands the parsed body (or an error) back. */
export type ContentTypeParserDone = (err: Error | null, body?: unknown) => void

/**
 * A parser of the payload `P`: the raw request stream, or the collected body with `parseAs`. `this` is the
 * instance. A parser either calls `done` or returns a promise of the body.
 */
export type ContentTypeParser<P = RawRequestDefault, I = EnclaveInstance> = (
  this: I,
  request: EnclaveRequest,
  payload: P,
  done: ContentTypeParserDone
) => unknown

/** A parser of a collected body (`parseAs: 'string'` or `'buffer'`). */
export type BodyParser<Body extends string | Buffer = string | Buffer, I = EnclaveInstance> = ContentTypeParser<Body, I>

/** The content types a parser is registered for: a media type (`'application/json'`), a RegExp, or a list. */
export type ContentTypeMatcher = string | RegExp | Array<string | RegExp>

/** Options of a parser. */
export interface ContentTypeParserOptions {
  /** Largest body accepted by this parser, in bytes (default: the route's or server's `bodyLimit`). */
  bodyLimit?: number
}

/** Options of a parser that receives the collected body. */
export interface BodyParserOptions<As extends 'string' | 'buffer' = 'string' | 'buffer'> extends ContentTypeParserOptions {
  /** Collect the body as a string or a Buffer before calling the parser. */
  parseAs: As
}

/** What to do with `__proto__` / `constructor.prototype` keys in JSON bodies. */
export type PoisoningAction = 'error' | 'remove' | 'ignore'

/** The `addContentTypeParser` overloads, on instance `I`. */
export interface AddContentTypeParser<I = EnclaveInstance> {
  (contentType: ContentTypeMatcher, parser: ContentTypeParser<RawRequestDefault, I>): I
  (contentType: ContentTypeMatcher, opts: BodyParserOptions<'string'>, parser: BodyParser<string, I>): I
  (contentType: ContentTypeMatcher, opts: BodyParserOptions<'buffer'>, parser: BodyParser<Buffer, I>): I
  (contentType: ContentTypeMatcher, opts: ContentTypeParserOptions, parser: ContentTypeParser<RawRequestDefault, I>): I
}
