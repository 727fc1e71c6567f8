/**
 * Content-type parser types. A parser turns a request payload into `request.body`: it receives the raw request
 * stream, or with `parseAs` the whole body as a string or Buffer, and either calls `done(err, body)` or returns a
 * promise of the body.
 */
import type { FastifyRequest } from './request'
import type { FastifySchema } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'

/** Hands the parsed body (or an error) back. */
type ContentTypeParserDoneFunction = (err: Error | null, body?: any) => void

/** A parser of a collected body (`parseAs: 'string'` or `'buffer'`). */
export type FastifyBodyParser<
  RawBody extends string | Buffer,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> =
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody, done: ContentTypeParserDoneFunction) => void)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody) => Promise<any>)

/** A parser of the raw request stream. */
export type FastifyContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> =
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest) => Promise<any>)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest, done: ContentTypeParserDoneFunction) => void)

/** The content types of one parser: a media type (`'application/json'`), a RegExp, or a list of them. */
export type ContentTypeMatcher = string | RegExp | Array<string | RegExp>

/**
 * A parser in either form, as Enclave's overloads take it: it may call `done`, or return a promise (an async parser
 * declares two parameters). One signature rather than Fastify's union of two, so that an inline parser's
 * parameters are typed in both forms.
 */
type AnyFormParser<Request, Body> = (request: Request, body: Body, done: ContentTypeParserDoneFunction) => unknown

/**
 * `addContentTypeParser(contentType, [options], parser)`: `parseAs` makes the parser receive the collected body.
 *
 * `parseAs: 'string'` / `'buffer'` types the body, and an inline parser's parameters are typed in both forms (Fastify
 * leaves an async one's untyped). The last overload is Fastify's: the body type given as a type argument
 * (`addContentTypeParser<string>(…)`), which the `parseAs` value must match.
 */
export interface AddContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> {
  (contentType: ContentTypeMatcher, opts: { parseAs: 'string', bodyLimit?: number }, parser: AnyFormParser<FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, string>): void
  (contentType: ContentTypeMatcher, opts: { parseAs: 'buffer', bodyLimit?: number }, parser: AnyFormParser<FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, Buffer>): void
  (contentType: ContentTypeMatcher, opts: { bodyLimit?: number }, parser: AnyFormParser<FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, RawRequest>): void
  (contentType: ContentTypeMatcher, parser: AnyFormParser<FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, RawRequest>): void
  <parseAs extends string | Buffer>(
    contentType: ContentTypeMatcher,
    opts: { parseAs: parseAs extends Buffer ? 'buffer' : 'string', bodyLimit?: number },
    parser: FastifyBodyParser<parseAs, RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>
  ): void
}

/** `hasContentTypeParser(contentType)`. */
export type hasContentTypeParser = (contentType: string | RegExp) => boolean

/** What to do with a `__proto__` key in JSON bodies. */
export type ProtoAction = 'error' | 'remove' | 'ignore'
/** What to do with a `constructor.prototype` key in JSON bodies. */
export type ConstructorAction = 'error' | 'remove' | 'ignore'

/** The built-in JSON parser with the given prototype-poisoning handling. */
export type getDefaultJsonParser = (onProtoPoisoning: ProtoAction, onConstructorPoisoning: ConstructorAction) => FastifyBodyParser<string>

export type removeContentTypeParser = (contentType: ContentTypeMatcher) => void

export type removeAllContentTypeParsers = () => void

/** Enclave's name for the poisoning actions. */
export type PoisoningAction = ProtoAction
