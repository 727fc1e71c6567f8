/**
 * Validator and serializer compilers: the functions that turn a route's schemas into a validation function (Ajv 8
 * by default) and a serialization function (fast-json-stringify by default), and the schema controller that
 * lets an application replace both and the schema store.
 */
import type { Options as AjvOptions, Plugin as AjvPlugin } from 'ajv'
import type { Options as SerializerOptions } from 'fast-json-stringify'
import type { SchemaErrorDataVar, ValidationResult } from './errors'
import type { HTTPMethods } from './route'

/** The request part a validator is compiled for. */
export type HttpPart = SchemaErrorDataVar

/** What a validator compiler is called with, once per route and request part. */
export interface ValidatorCompilerInput {
  schema: any
  method: HTTPMethods | string
  url: string
  httpPart?: HttpPart
}

/**
 * A compiled validator. Ajv's form returns a boolean and sets `errors`; the other accepted forms return
 * `{ value }` (the value to use) or `{ error }`.
 */
export type ValidatorFunction = ((data: any) => boolean | { value?: unknown, error?: Error } | Promise<unknown>) & {
  errors?: ValidationResult[] | null
}

/** Builds the validator of one schema. */
export type ValidatorCompiler = (input: ValidatorCompilerInput) => ValidatorFunction

/** What a serializer compiler is called with, once per route, status code and content type. */
export interface SerializerCompilerInput {
  schema: any
  method: HTTPMethods | string
  url: string
  httpStatus: string
  contentType?: string
}

/** A compiled serializer: data in, JSON text out. */
export type SerializerFunction = (data: any) => string

/** Builds the serializer of one response schema. */
export type SerializerCompiler = (input: SerializerCompilerInput) => SerializerFunction

/** Turns validation failures into the error sent to the error handler (a synchronous function). */
export type SchemaErrorFormatter = (errors: ValidationResult[], dataVar: SchemaErrorDataVar) => Error

/** The `ajv` factory option: Ajv options and plugins (a plugin, or `[plugin, options]`). */
export interface AjvServerOptions {
  customOptions?: AjvOptions
  plugins?: Array<AjvPlugin<any> | [AjvPlugin<any>, unknown]>
}

/** The `serializerOpts` factory option: fast-json-stringify's options. */
export type SerializerServerOptions = SerializerOptions

/** Where shared schemas are stored; the `schemaController.bucket` factory creates one per encapsulation context. */
export interface SchemaBucket {
  add(schema: unknown): void
  getSchema(id: string): unknown
  getSchemas(): Record<string, unknown>
}

/** The `schemaController` factory option (`setSchemaController` takes the same object). */
export interface SchemaControllerOptions {
  bucket?: (parentSchemas?: Record<string, unknown>) => SchemaBucket
  compilersFactory?: {
    buildValidator?: (externalSchemas: Record<string, unknown>, ajvServerOptions: AjvServerOptions) => ValidatorCompiler
    buildSerializer?: (externalSchemas: Record<string, unknown>, serializerOptions: SerializerServerOptions | undefined) => SerializerCompiler
  }
}
