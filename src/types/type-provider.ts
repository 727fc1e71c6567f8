/**
 * Type providers: how a route's schemas become the types of its request parts and replies.
 *
 * The default provider is Enclave's own inference (`FromSchema`, schema.ts): an inline schema types the route with
 * no extra package, `$ref`s resolve to the shared schemas the instance type knows (`addSchema()` records them in the
 * provider), request parts are read as input (a property with a `default` is present) and responses as output.
 * `withTypeProvider<P>()` replaces it with a Fastify type provider (TypeBox's, json-schema-to-ts's, or any
 * `interface P extends FastifyTypeProvider { output: … }`), which then maps each schema as Fastify would.
 *
 * Either way a key given in the route generic (`app.get<{ Body: B }>(…)`) wins over the schema.
 */
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { FromSchema, SchemaDirection, SchemaRegistry } from './schema'
import type { FastifySchema } from './compilers'
import type { AnyReply } from './reply'
import type { ExpandShorthand, IsReplyMap, PayloadForStatus, ResponseTypesFromSchema, RouteGenericInterface } from './route-generic'
import type { RecordKeysToLowercase } from './utils'
import type { AtLevel } from './level'

/**
 * A Fastify type provider: a type-level function from a schema to its type, in either of Fastify's two forms.
 * Fastify 4's maps `input` to `output`; Fastify 5's maps `schema` to `validator` (the type of a request part) and
 * `serializer` (the type of a reply). Both forms are read at both levels, so a provider made for either works.
 * Which members are required follows the level, as in each Fastify: a plain object type written as a provider
 * (`{ input: …, output: … }` at Fastify 4, `{ schema, validator, serializer }` at Fastify 5, as their type tests
 * write them) satisfies this interface at its own level; the other form's members are optional.
 */
// an interface (not an alias of the level's form) so that providers and augmentations keep extending it by name
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FastifyTypeProvider extends AtLevel<TypeProviderMembers4, TypeProviderMembers5> {}

/** A type provider at the Fastify 4 level: `input` and `output` (Fastify 4's), Fastify 5's members optional. */
interface TypeProviderMembers4 {
  readonly input: unknown
  readonly output: unknown
  readonly schema?: unknown
  readonly validator?: unknown
  readonly serializer?: unknown
}

/** A type provider at the Fastify 5 level: `schema`, `validator` and `serializer`, as Fastify 5 requires them. */
interface TypeProviderMembers5 {
  readonly schema: unknown
  readonly validator: unknown
  readonly serializer: unknown
  readonly input?: unknown
  readonly output?: unknown
}

/** Phantom key under which Enclave's provider records the instance's shared schemas; it has no runtime value. */
declare const kSharedSchemas: unique symbol

/**
 * Enclave's inference as a type provider, with the shared schemas `$ref` resolves to (by `$id`). `addSchema()`
 * returns an instance whose provider knows the new schema; a plugin can state the ones it relies on:
 * `FastifyPluginAsync<Options, RawServerDefault, EnclaveTypeProvider<{ user: typeof userSchema }>>`.
 *
 * Its only own member is an optional method: any other provider is assignable to it, and (method parameters being
 * compared both ways) so is an Enclave provider that knows other shared schemas. An instance typed with another
 * provider, or with shared schemas, still fits where a default `FastifyInstance` is expected, as in Fastify.
 */
export interface EnclaveTypeProvider<SharedSchemas extends SchemaRegistry = Record<never, never>> extends FastifyTypeProvider {
  [kSharedSchemas]?(sharedSchemas: SharedSchemas): void
}

/** The provider of an instance that did not call `withTypeProvider()`: Enclave's inference. */
export type FastifyTypeProviderDefault = EnclaveTypeProvider

/** The output of provider `F` for the schema `I` (Fastify 4's form). */
export type CallTypeProvider<F extends FastifyTypeProvider, I> = (F & { input: I })['output']

/**
 * What provider `F` gives schema `S` read in `Direction`: Fastify 5's `validator` (request parts, read as input) or
 * `serializer` (replies, read as output) when the provider defines it, else Fastify 4's `output`. The Fastify 5 form
 * is told structurally, by a required member, so a Fastify 4 provider resolves exactly as `CallTypeProvider`.
 */
type CallTypeProviderFor<F extends FastifyTypeProvider, S, Direction extends SchemaDirection> =
  F extends { readonly [K in Direction extends 'input' ? 'validator' : 'serializer']: unknown }
    ? PreferDefined<(F & { schema: S })[Direction extends 'input' ? 'validator' : 'serializer'], CallTypeProvider<F, S>>
    : CallTypeProvider<F, S>

/** `Given` unless it is `unknown` (what a provider of the other form leaves it), else `Fallback`. */
type PreferDefined<Given, Fallback> = unknown extends Given ? Fallback : Given

/**
 * Whether `TP` is Enclave's inference (as opposed to a provider given to `withTypeProvider()`). Written with
 * `infer` rather than `keyof`, so that the provider stays covariant in the types that use it.
 */
export type IsEnclaveTypeProvider<TP> = TP extends { readonly [kSharedSchemas]?: infer Marker } ? (unknown extends Marker ? false : true) : false

/** The shared schemas a provider knows (none, for other providers than Enclave's). */
export type SharedSchemasOf<TP> = TP extends { [kSharedSchemas]?(sharedSchemas: infer R): void } ? R : Record<never, never>

/** Enclave's provider after `addSchema(schema)`: it also knows `schema` by its `$id`; other providers are kept. */
export type WithSharedSchema<TP, Schema> =
  IsEnclaveTypeProvider<TP> extends true
    ? Schema extends { readonly $id: infer Id extends string }
      ? (string extends Id ? TP : EnclaveTypeProvider<SharedSchemasOf<TP> & { [K in Id]: Schema }>)
      : TP
    : TP

/**
 * The type of the data a schema describes under provider `TP`, read as input or output. The provider and the direction
 * are taken through `infer` (an instance typed with one provider stays assignable where Fastify's is, as Fastify 4's
 * register type tests check); the schema is kept out of that tuple, which would copy it (see `UndefinedToUnknown`).
 */
export type SchemaType<TP extends FastifyTypeProvider, Schema, Direction extends SchemaDirection> =
  [TP, Direction] extends [infer Provider extends FastifyTypeProvider, infer Dir extends SchemaDirection]
    ? IsEnclaveTypeProvider<Provider> extends true
      ? (NoInfer<Schema> extends undefined ? unknown : FromSchema<ExpandShorthand<Schema>, SharedSchemasOf<Provider>, Dir>)
      : CallTypeProviderFor<Provider, Schema, Dir>
    : never

// ---- requests ----

/**
 * `unknown` for a part without a type. The whole type is tested, not each member of a union, with
 * `NoInfer<T> extends …` rather than the usual `[T] extends […]`: TypeScript first checks a conditional type on a
 * "permissive" copy of its operands, which it keeps with a bare type but makes afresh for a wrapped one, so a tuple
 * around a schema's type instantiates all of it again at each test (with such forms here and in `SchemaType`, the
 * 200-route bench took 361 k instantiations; 350 k without). `NoInfer` of a type without type parameters is that type
 * itself.
 */
type UndefinedToUnknown<T> = NoInfer<T> extends undefined ? unknown : T
/** `keyof` over each member of a union: a generic key counts as given when it has any key at all. */
type KeysOf<T> = T extends unknown ? keyof T : never

/**
 * One request part: the route generic's key when it gives one, else the part's schema (`Schema`, or `undefined`
 * when the route has none) through the provider. The schema is taken out of the route schema by the caller with
 * `infer`, in the same conditional as this type: two routes whose schemas differ only in identity (as the two
 * copies of an inline schema the checker makes) are then related without comparing what their schemas infer.
 */
type RequestPart<TP extends FastifyTypeProvider, Given, Schema> =
  UndefinedToUnknown<[KeysOf<Given>] extends [never] ? SchemaType<TP, Schema, 'input'> : Given>

/** The shape `FastifyRequest` reads its request parts from. */
export interface FastifyRequestType<Params = unknown, Querystring = unknown, Headers = unknown, Body = unknown> {
  params: Params
  query: Querystring
  headers: Headers
  body: Body
}

/** The request parts of a route, from its generic, its schema and the instance's provider. */
export interface ResolveFastifyRequestType<
  TypeProvider extends FastifyTypeProvider,
  SchemaCompiler extends FastifySchema,
  RouteGeneric extends RouteGenericInterface
> extends FastifyRequestType {
  params: SchemaCompiler extends { readonly params: infer X } ? RequestPart<TypeProvider, RouteGeneric['Params'], X>
    : RequestPart<TypeProvider, RouteGeneric['Params'], undefined>
  query: SchemaCompiler extends { readonly querystring: infer X } ? RequestPart<TypeProvider, RouteGeneric['Querystring'], X>
    : SchemaCompiler extends { readonly query: infer X } ? RequestPart<TypeProvider, RouteGeneric['Querystring'], X>
      : RequestPart<TypeProvider, RouteGeneric['Querystring'], undefined>
  headers: RecordKeysToLowercase<SchemaCompiler extends { readonly headers: infer X } ? RequestPart<TypeProvider, RouteGeneric['Headers'], X>
    : RequestPart<TypeProvider, RouteGeneric['Headers'], undefined>>
  body: SchemaCompiler extends { readonly body: infer X } ? RequestPart<TypeProvider, RouteGeneric['Body'], X>
    : RequestPart<TypeProvider, RouteGeneric['Body'], undefined>
}

// ---- replies ----

/** A provider's payload type of one response: a schema, or a map of content types to `{ schema }`. */
type ProviderResponse<TP extends FastifyTypeProvider, X> =
  X extends { readonly content: infer C } ? { [T in keyof C]: C[T] extends { readonly schema: infer S } ? CallTypeProviderFor<TP, S, 'output'> : unknown }[keyof C]
    : CallTypeProviderFor<TP, X, 'output'>

/**
 * What a reply sends as it is, never through the response schema's serializer: bytes and streams (a file, a proxied
 * body). Enclave's inference accepts them beside the schema's type, since a route written for Fastify's default
 * provider (which types no reply) sends them under any schema, an image under `{ type: 'string', format: 'binary' }`.
 */
type RawReplyPayload = Uint8Array | NodeJS.ReadableStream | WebReadableStream

/**
 * Payload types by status code, from `schema.response`, under provider `TP`. Users of its keys take it through
 * `extends infer Map`: a `keyof` of a provider-dependent type would make the instance type invariant in its provider.
 */
export type ResponseTypes<TP extends FastifyTypeProvider, SchemaCompiler> =
  SchemaCompiler extends { readonly response: infer R }
    ? (TP extends infer Provider extends FastifyTypeProvider
        ? (IsEnclaveTypeProvider<Provider> extends true ? WithRawPayloads<ResponseTypesFromSchema<R, SharedSchemasOf<Provider>>> : { [Code in keyof R]: ProviderResponse<Provider, R[Code]> })
        : never)
    : never

type WithRawPayloads<Map> = { [Code in keyof Map]: Map[Code] | RawReplyPayload }

/** Any payload of a response map (`never`: no response schema, so anything). */
type AnyPayload<Map> = NoInfer<Map> extends never ? unknown : Map[keyof Map]

/** The route generic's `Reply`: a payload type, or the union of a reply map's payloads. */
type GivenReply<R> = IsReplyMap<R> extends true ? R[keyof R] : R

/** The payload type of a route generic's `Reply` type. */
export type FastifyReplyType<Reply = unknown> = Reply

/**
 * What a route's replies may send: the route generic's `Reply` when given, else the payload types of its response
 * schemas (any of them), else anything.
 */
export type ResolveFastifyReplyType<
  TypeProvider extends FastifyTypeProvider,
  SchemaCompiler extends FastifySchema,
  RouteGeneric extends RouteGenericInterface
> = UndefinedToUnknown<[KeysOf<RouteGeneric['Reply']>] extends [never]
  ? (ResponseTypes<TypeProvider, SchemaCompiler> extends infer Map ? AnyPayload<Map> : never)
  : GivenReply<RouteGeneric['Reply']>>

/**
 * What a reply may send after `reply.code(code)`: the payload declared for that code (or its range, or
 * `'default'`) by the route generic's reply map or by the response schemas; anything for a code neither declares.
 */
export type ResolveReplyTypeWithRouteGeneric<
  RouteGenericReply,
  Code extends number,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = EnclaveTypeProvider
> = [KeysOf<RouteGenericReply>] extends [never]
  ? (ResponseTypes<TypeProvider, SchemaCompiler> extends infer Map ? (NoInfer<Map> extends never ? unknown : PayloadForStatus<Map, Code>) : never)
  : IsReplyMap<RouteGenericReply> extends true ? PayloadForStatus<RouteGenericReply, Code> : RouteGenericReply

/**
 * What a handler may return when the route declares a reply type (anything otherwise). At the Fastify 4 level: a
 * payload the route may send, the reply (after sending with it), or nothing, or a promise of these. At the Fastify 5
 * level, Fastify 5's: a payload or nothing, or a promise of these, and a route generic's reply map itself beside its
 * payloads. (An async handler may still return its reply: a reply is awaited as nothing. A synchronous one may not.)
 */
export type ResolveFastifyReplyReturnType<
  TypeProvider extends FastifyTypeProvider,
  SchemaCompiler extends FastifySchema,
  RouteGeneric extends RouteGenericInterface
> = ResolveFastifyReplyType<TypeProvider, SchemaCompiler, RouteGeneric> extends infer Payload
  ? AtLevel<HandlerReturn<Payload>, HandlerReturn5<Payload | ReplyMapOf<RouteGeneric['Reply']>>>
  : unknown

type HandlerReturn<P> = unknown extends P ? unknown : P | void | AnyReply | Promise<P | void | AnyReply>
type HandlerReturn5<P> = unknown extends P ? unknown : P | void | Promise<P | void>
type ReplyMapOf<R> = IsReplyMap<R> extends true ? R : never
