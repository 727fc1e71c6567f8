/**
 * Route schemas and their compilers: the functions that turn a route's schemas into a validation function (Ajv 8
 * by default) and a serialization function (fast-json-stringify by default), and the schema controller that lets
 * an application replace both and the schema store.
 */
import type { default as Ajv, Options as AjvOptions, Plugin as AjvPlugin } from 'ajv'
import type { Options as SerializerOptions } from 'fast-json-stringify'
import type { FastifyInstance } from './instance'
import type { AtLevel } from './level'

/**
 * A route's `schema` option. Each request part takes a JSON Schema (or, with Fastify's JSON shorthand, the
 * `properties` of an object schema); `response` maps status codes to schemas. Written inline in the route options,
 * the schema also types the request and reply (see type-provider.ts). OpenAPI plugins add their keys (`tags`,
 * `summary`, …) by augmenting this interface.
 */
export interface FastifySchema {
  body?: unknown
  querystring?: unknown
  /** Alias of `querystring`. */
  query?: unknown
  params?: unknown
  headers?: unknown
  response?: unknown
}

/** What a compiler is called with, once per route and request part (validators) or status code (serializers). */
export interface FastifyRouteSchemaDef<T> {
  schema: T
  method: string
  url: string
  httpPart?: string
  httpStatus?: string
  contentType?: string
}

/** One validation failure, in Ajv's error format. */
export interface FastifySchemaValidationError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message?: string
}

/**
 * A compiled validator. Ajv's form returns a boolean and sets `errors`; the other accepted forms return
 * `{ value }` (the value to use) or `{ error }` (an Error, or validation errors for the schema error formatter).
 * (A promise is refused at run time: see docs/validation.md.)
 */
export interface FastifyValidationResult {
  (data: any): boolean | PromiseLike<any> | { error?: Error | FastifySchemaValidationError[], value?: any }
  errors?: FastifySchemaValidationError[] | null
}

/** Builds the validator of one schema. */
export type FastifySchemaCompiler<T> = (routeSchema: FastifyRouteSchemaDef<T>) => FastifyValidationResult

/** Builds the serializer of one response schema: data in, JSON text out. */
export type FastifySerializerCompiler<T> = (routeSchema: FastifyRouteSchemaDef<T>) => (data: any) => string

/** The request part a validation error comes from. */
export type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring'

/** Turns validation failures into the error sent to the error handler (a synchronous function). */
export type SchemaErrorFormatter = (errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar) => Error

/** Builds the validator compiler of a context from its shared schemas and the `ajv` factory option. */
export type ValidatorFactory = (externalSchemas: any, options?: any) => unknown

/** Builds the serializer compiler of a context from its shared schemas and the `serializerOpts` factory option. */
export type SerializerFactory = (externalSchemas: any, options?: any) => unknown

/** The `schemaController` factory option (`setSchemaController` takes the same object). */
export interface FastifySchemaControllerOptions {
  /** Creates the shared-schema store of each encapsulation context. */
  bucket?: (parentSchemas?: unknown) => {
    add(schema: unknown): FastifyInstance
    getSchema(schemaId: string): unknown
    getSchemas(): Record<string, unknown>
  }
  compilersFactory?: {
    buildValidator?: ValidatorFactory
    buildSerializer?: SerializerFactory
  }
}

/** The `ajv` factory option: Ajv options, plugins (a plugin, or `[plugin, options]`) and `onCreate`. */
export interface AjvServerOptions {
  customOptions?: AjvOptions
  /** Ajv plugins (`ajv-formats`, `ajv-errors`…), each or with its options. Fastify 5 types them as Ajv's plugins only. */
  plugins?: AtLevel<
    Array<AjvPlugin<any> | [AjvPlugin<any>, unknown] | ((...args: any[]) => unknown) | [(...args: any[]) => unknown, unknown]>,
    Array<AjvPlugin<unknown> | [AjvPlugin<unknown>, unknown]>
  >
  /** Called with each Ajv instance the default compiler makes, after its plugins and formats (`ajv.addFormat(…)`). */
  onCreate?: (ajv: Ajv) => void
}

/** The `serializerOpts` factory option: fast-json-stringify's options. */
export type SerializerServerOptions = SerializerOptions | Record<string, unknown>

/** Enclave's names for the compiler types. */
export type ValidatorCompiler = FastifySchemaCompiler<any>
export type SerializerCompiler = FastifySerializerCompiler<any>
export type ValidatorFunction = FastifyValidationResult
export type SerializerFunction = (data: any) => string
export type SchemaControllerOptions = FastifySchemaControllerOptions
/** The request part a validator is compiled for. */
export type HttpPart = SchemaErrorDataVar
