/**
 * The instance type: what `enclave()` returns and what plugins, hooks and handlers get as `this`.
 *
 * Two things are tracked in the type of an instance value, through the polymorphic `this` type:
 * - decorators added with `decorate()` (`app.decorate('db', db)` returns `this & { db: Db }`);
 * - shared schemas added with `addSchema()`, so that `$ref`s in later routes resolve (`app.addSchema(user)` returns
 *   `this` with `user` in its schema registry).
 * Decorators can also be declared once for every instance by declaration merging:
 * `declare module 'enclave' { interface EnclaveInstance { db: Db } }`.
 */
import type { InjectOptions, Response as InjectResponse, Chain as InjectChain } from 'light-my-request'
import type { EnclaveRequest } from './request'
import type { EnclaveReply } from './reply'
import type { EnclaveError } from './errors'
import type { ChildLoggerFactory, EnclaveBaseLogger } from './logger'
import type { RawReplyDefault, RawRequestDefault, RawServerDefault } from './raw'
import type { SchemaRegistry } from './schema'
import type { RouteGenericInterface } from './route-generic'
import type {
  SchemaControllerOptions, SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler
} from './compilers'
import type { ErrorHandler, FoundRoute, RouteHandler, RouteMethod, RouteQuery, RouteShorthandMethod } from './route'
import type { HookHandlers, RequestHook } from './hooks'
import type { RegisterMethod } from './plugin'
import type { AddContentTypeParser, BodyParser, ContentTypeMatcher, PoisoningAction } from './content-type-parser'
import type { ConstraintStrategy, EnclaveOptions, ListenAddress, ListenOptions } from './options'

/** Phantom key under which an instance type records its shared schemas; it has no runtime value. */
declare const kSharedSchemas: unique symbol

/** Whether `X` is an Enclave instance type (as opposed to, say, Fastify's instance type). */
export type IsEnclaveInstance<X> = typeof kSharedSchemas extends keyof X ? true : false

/** The shared schemas an instance type knows (see `addSchema`). */
export type SchemasOf<I> = I extends { readonly [kSharedSchemas]?: infer R } ? Exclude<R, undefined> : Record<never, never>

/**
 * The value of a declared decorator of type `T`: a value of that type (a function is called with the decorated
 * object as `this`), or a getter (and setter) object defining an accessor.
 */
export type DecoratorValue<T, This> =
  | (T extends (...args: infer A) => infer R ? (this: This, ...args: A) => R : T)
  | { getter: (this: This) => T, setter?: (this: This, value: T) => void }

/** The value of an undeclared decorator: anything; a function gets the decorated object as `this`. */
export type UndeclaredDecoratorValue<This> =
  | ((this: This, ...args: any[]) => unknown)
  | object | string | number | bigint | boolean | symbol | null | undefined

/** A decorator name not declared on `T` (`never` for a declared one, so that its declared type applies). */
export type UndeclaredName<K, T> = K extends keyof T ? never : K

/** The property type a decorator value gives: a getter's return type, or the value's type. */
export type DecoratedType<V> = V extends { getter: (...args: any[]) => infer R } ? R : V

/** Answers `callback` style, or returns a promise when no callback is given. */
type ErrorCallback = (err: Error | null) => void

/** Options of `printRoutes()`. */
export interface PrintRoutesOptions {
  method?: string
  includeMeta?: boolean | Array<string | symbol>
  includeHooks?: boolean
  commonPrefix?: boolean
}

/** The hooks a not-found handler may run. */
export interface NotFoundHandlerOptions<I = EnclaveInstance> {
  preValidation?: RequestHook<Record<never, never>, I> | Array<RequestHook<Record<never, never>, I>>
  preHandler?: RequestHook<Record<never, never>, I> | Array<RequestHook<Record<never, never>, I>>
}

/**
 * An Enclave instance: the root one from `enclave()`, or a plugin's encapsulated one.
 *
 * @typeParam SharedSchemas - the schemas `$ref` resolves to in routes declared on this instance, by `$id`
 * (filled in by `addSchema`; may be given by hand, e.g. for a plugin's instance parameter).
 */
export interface EnclaveInstance<SharedSchemas extends SchemaRegistry = Record<never, never>> {
  readonly [kSharedSchemas]?: SharedSchemas

  /** Node's server. */
  server: RawServerDefault
  /** The route prefix of this encapsulation context. */
  readonly prefix: string
  /** The Fastify API version implemented (for plugins' version checks). */
  readonly version: string
  /** Enclave's own version. */
  readonly enclaveVersion: string
  log: EnclaveBaseLogger
  /** The name of the current plugin (`'fastify'` for the root, as in Fastify). */
  readonly pluginName: string
  /** The factory options, frozen. */
  readonly initialConfig: Readonly<EnclaveOptions>
  /** The origin the server listens on (`http://127.0.0.1:3000`), once listening. */
  readonly listeningOrigin: string

  // ---- lifecycle ----
  /** Waits until every plugin registered so far is loaded. */
  after(): this & PromiseLike<undefined>
  after(listener: ErrorCallback): this
  /** Loads every plugin and runs `onReady` hooks. */
  ready(): Promise<this>
  ready(listener: ErrorCallback): this
  /** Starts listening; resolves to the address. */
  listen(opts?: ListenOptions): Promise<string>
  listen(opts: ListenOptions, callback: (err: Error | null, address: string) => void): void
  listen(callback: (err: Error | null, address: string) => void): void
  /** The addresses the server listens on (empty before `listen()`). */
  addresses(): ListenAddress[]
  /** Stops listening, runs `preClose` and `onClose` hooks. */
  close(): Promise<undefined>
  close(listener: (err?: Error) => void): this
  [Symbol.asyncDispose](): Promise<undefined>

  // ---- testing ----
  /** Sends a fake request through the whole lifecycle (light-my-request); no socket needed. */
  inject(opts: InjectOptions | string): Promise<InjectResponse>
  inject(opts: InjectOptions | string, callback: (err: Error | undefined, response: InjectResponse | undefined) => void): void
  inject(): InjectChain

  // ---- routes ----
  route: RouteMethod<this>
  get: RouteShorthandMethod<this>
  head: RouteShorthandMethod<this>
  post: RouteShorthandMethod<this>
  put: RouteShorthandMethod<this>
  delete: RouteShorthandMethod<this>
  options: RouteShorthandMethod<this>
  patch: RouteShorthandMethod<this>
  /** Every supported method. */
  all: RouteShorthandMethod<this>
  hasRoute(query: RouteQuery): boolean
  findRoute(query: RouteQuery): FoundRoute | null
  /** Routes a raw request (the server's request listener). */
  routing(request: RawRequestDefault, response: RawReplyDefault): void
  printRoutes(opts?: PrintRoutesOptions): string
  printPlugins(): string
  addConstraintStrategy(strategy: ConstraintStrategy<any>): void
  hasConstraintStrategy(name: string): boolean

  // ---- plugins ----
  register: RegisterMethod<this>
  /** Whether a plugin with this name (fastify-plugin `name` metadata) is registered. */
  hasPlugin(name: string): boolean

  // ---- decorators ----
  /**
   * Adds a property to the instance (and the instances of child contexts). A name declared on `EnclaveInstance` by
   * declaration merging must be given a value of the declared type; any other name is added to the returned type:
   * `const app2 = app.decorate('answer', 42); app2.answer // number`. Functions get the instance as `this`.
   */
  decorate<K extends keyof this>(property: K, value: DecoratorValue<this[K], this>, dependencies?: string[]): this
  decorate<K extends string | symbol, Args extends unknown[], R>(
    property: UndeclaredName<K, this>,
    value: (this: this, ...args: Args) => R,
    dependencies?: string[]
  ): this & { [P in K]: (...args: Args) => R }
  decorate<K extends string | symbol, V>(
    property: UndeclaredName<K, this>,
    value: V,
    dependencies?: string[]
  ): this & { [P in K]: DecoratedType<V> }
  /**
   * Adds a property to the requests of this context. Type it by declaration merging on `EnclaveRequest`; the value
   * is then checked (`null` is allowed as the placeholder of a reference value set per request in a hook).
   */
  decorateRequest<K extends keyof EnclaveRequest>(
    property: K,
    value: DecoratorValue<EnclaveRequest[K], EnclaveRequest> | null,
    dependencies?: string[]
  ): this
  decorateRequest<K extends string | symbol>(
    property: UndeclaredName<K, EnclaveRequest>,
    value: UndeclaredDecoratorValue<EnclaveRequest>,
    dependencies?: string[]
  ): this
  /** Adds a property to the replies of this context; typed by declaration merging on `EnclaveReply`. */
  decorateReply<K extends keyof EnclaveReply>(
    property: K,
    value: DecoratorValue<EnclaveReply[K], EnclaveReply> | null,
    dependencies?: string[]
  ): this
  decorateReply<K extends string | symbol>(
    property: UndeclaredName<K, EnclaveReply>,
    value: UndeclaredDecoratorValue<EnclaveReply>,
    dependencies?: string[]
  ): this
  hasDecorator(name: string | symbol): boolean
  hasRequestDecorator(name: string | symbol): boolean
  hasReplyDecorator(name: string | symbol): boolean

  // ---- hooks ----
  /** Adds a hook to this encapsulation context; the hook's parameters are typed by its name. */
  addHook<Name extends keyof HookHandlers>(name: Name, hook: HookHandlers<this>[Name]): this

  /**
   * Fastify's type-provider hook, kept so that Fastify code ports unchanged. Enclave infers types from schemas
   * itself, so the provider is ignored and the instance is returned as it is.
   */
  withTypeProvider<_Provider = unknown>(): this

  // ---- schemas ----
  /**
   * Adds a shared schema, usable with `$ref: '<$id>#'` in routes of this context and its children. The returned
   * type knows it: routes declared on the result infer the referenced type (write the schema inline or `as const`).
   */
  addSchema<const S extends object>(schema: S): S extends { readonly $id: infer Id extends string }
    ? (string extends Id ? this : this & { readonly [kSharedSchemas]?: { [K in Id]: S } })
    : this
  /** The shared schemas of this context, by `$id`. */
  getSchemas(): Record<string, unknown>
  /** A shared schema by `$id` (typed when the instance type knows it). */
  getSchema<Id extends string>(id: Id): Id extends keyof SchemasOf<this> ? SchemasOf<this>[Id] : unknown
  setValidatorCompiler(compiler: ValidatorCompiler): this
  setSerializerCompiler(compiler: SerializerCompiler): this
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): this
  setSchemaController(options: SchemaControllerOptions): this
  /** Serializes every reply payload of this context that has no route serializer. */
  setReplySerializer(serializer: (payload: unknown, statusCode: number) => string): this
  /** The validator compiler in use (set by `setValidatorCompiler`, or the default one once started). */
  validatorCompiler: ValidatorCompiler | null
  /** The serializer compiler in use (set by `setSerializerCompiler`), or null for the default one. */
  serializerCompiler: SerializerCompiler | null
  schemaErrorFormatter: SchemaErrorFormatter | undefined

  // ---- errors and not found ----
  /** Handles errors of this context's routes; `this` is the instance. */
  setErrorHandler<E extends Error = EnclaveError>(handler: ErrorHandler<E, RouteGenericInterface, this>): this
  /** The error handler in effect (Enclave's default one unless set). */
  errorHandler: ErrorHandler<EnclaveError, RouteGenericInterface, EnclaveInstance>
  /** Answers requests that match no route under this context's prefix. */
  setNotFoundHandler(handler?: RouteHandler<Record<never, never>, this>): this
  setNotFoundHandler(opts: NotFoundHandlerOptions<this>, handler?: RouteHandler<Record<never, never>, this>): this
  /** @deprecated (FSTDEP014) Use `setNotFoundHandler` or a wildcard route. */
  getDefaultRoute(): (req: RawRequestDefault, res: RawReplyDefault) => void
  /** @deprecated (FSTDEP014) Application-wide raw handler of unmatched requests; bypasses the not-found handlers. */
  setDefaultRoute(defaultRoute: (req: RawRequestDefault, res: RawReplyDefault) => void): void

  // ---- logging and request ids ----
  setChildLoggerFactory(factory: ChildLoggerFactory<this>): this
  childLoggerFactory: ChildLoggerFactory
  setGenReqId(genReqId: (rawRequest: RawRequestDefault) => string): this
  /** The request id generator of this context (with the `requestIdHeader` rule applied). */
  readonly genReqId: (rawRequest: RawRequestDefault) => string

  // ---- content-type parsers ----
  addContentTypeParser: AddContentTypeParser<this>
  hasContentTypeParser(contentType: string | RegExp): boolean
  removeContentTypeParser(contentType: ContentTypeMatcher): void
  removeAllContentTypeParsers(): void
  /** The built-in JSON parser with the given prototype-poisoning handling. */
  getDefaultJsonParser(onProtoPoisoning: PoisoningAction, onConstructorPoisoning: PoisoningAction): BodyParser<string | Buffer>
  /** The built-in text parser. */
  defaultTextParser: BodyParser<string>
}
