/**
 * Request validation: compiling a route's body/querystring/params/headers schemas once, when the app becomes ready,
 * and running the compiled functions on every request (after `preValidation`, before `preHandler`).
 */
import type { IncomingHttpHeaders } from 'node:http'
import { codes } from '../../core/errors'
import { warnDeprecated } from '../../core/deprecations'
import { normalizeMediaType } from '../../core/media-type'
import { isPlainObject, isThenable } from '../../core/objects'
import type { AnyFn, JsonSchema } from '../../core/types'
import type { SchemaScope } from '../schema-scope'
import { normalizeRouteSchema } from '../route-schema'
import type { ValidationFunction, ValidatorCompiler } from './validator-types'
import {
  assertSchemaErrorFormatter, buildValidationError, type HttpPart, type SchemaErrorFormatter
} from './validation-errors'

/** What compiling a route's validators reads of its options. */
export interface RouteValidationSource {
  method: string | string[]
  url: string
  schema?: JsonSchema
  validatorCompiler?: AnyFn
  schemaErrorFormatter?: AnyFn
}

/** The parts of a request that validation reads and replaces with the validated values. */
export interface ValidatedRequest {
  params: unknown
  body: unknown
  query: unknown
  headers: IncomingHttpHeaders
  [part: string]: unknown
}

/** The compiled validators of one route; a part without a schema is undefined. */
export interface RouteValidation {
  params?: ValidationFunction
  body?: ValidationFunction
  querystring?: ValidationFunction
  headers?: ValidationFunction
  /** Body validators by media type (`schema.body.content`), used instead of `body` when the route declares them. */
  bodyByContentType?: Map<string, ValidationFunction>
  schemaErrorFormatter: SchemaErrorFormatter
  /** `METHOD url`, for messages. */
  routeName: string
}

/** Node lower-cases header names, so `X-Token` in a schema could never match: lower-case names and `required`. */
function lowerCaseHeaderNames (schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema
  const out: JsonSchema = { ...schema }
  if (isPlainObject(schema.properties)) {
    out.properties = {}
    for (const name of Object.keys(schema.properties)) out.properties[name.toLowerCase()] = schema.properties[name]
  }
  if (Array.isArray(schema.required)) {
    out.required = schema.required.map((name: unknown) => typeof name === 'string' ? name.toLowerCase() : name)
  }
  return out
}

/** `schema.body.content`: `{ 'application/json': { schema }, ... }`, one schema per media type (none at all: no body validation). */
function bodyContentSchemas (body: unknown): JsonSchema | undefined {
  return isPlainObject(body) && isPlainObject(body.content) ? body.content : undefined
}

function describeMethod (method: string | string[]): string {
  return Array.isArray(method) ? method.join(',') : method
}

/** Compiles one part's schema, turning any failure into an error that names the route, the part and the cause. */
class PartCompiler {
  #compiler: ValidatorCompiler | undefined

  constructor (readonly route: RouteValidationSource, readonly schemas: SchemaScope, readonly routeName: string) {}

  compile (part: HttpPart, schema: unknown): ValidationFunction {
    const normalized = part === 'headers' ? lowerCaseHeaderNames(schema) : schema
    // Ajv would accept it, but an async validator would let a request wait on I/O before it is even validated.
    if (isPlainObject(normalized) && normalized.$async === true) {
      throw new codes.FST_ERR_SCH_ASYNC_NOT_SUPPORTED(part, this.routeName)
    }
    let validate: unknown
    try {
      // The default compiler (an Ajv instance) is built only when some part of some route needs it.
      this.#compiler ??= (this.route.validatorCompiler as ValidatorCompiler | undefined) ?? this.#contextCompiler()
      validate = this.#compiler({ schema: normalized as JsonSchema, method: this.route.method, url: this.route.url, httpPart: part })
    } catch (cause) {
      // Fastify's message ends with the compiler's; which part failed is told by `httpPart`
      const message = cause instanceof Error ? cause.message : String(cause)
      throw Object.assign(new codes.FST_ERR_SCH_VALIDATION_BUILD(describeMethod(this.route.method), this.route.url, message), { cause, httpPart: part })
    }
    return typeof validate === 'function' ? validate as ValidationFunction : refuseEveryRequest(validate, part, this.routeName)
  }

  #contextCompiler (): ValidatorCompiler {
    const schemas = this.schemas
    if (schemas.validatorCompiler !== null) return schemas.validatorCompiler
    schemas.validatorInUse = schemas.defaultValidatorCompiler()
    return schemas.validatorInUse
  }
}

/**
 * A compiler that gave no function is accepted when the app starts, as in Fastify; each request of the route then
 * fails with a 500 (Fastify skips the validation when it gave `undefined`: Enclave never lets input through
 * unvalidated).
 */
function refuseEveryRequest (returned: unknown, part: HttpPart, routeName: string): ValidationFunction {
  const type = returned === null ? 'null' : typeof returned
  return function validatorMissing () {
    throw new codes.FST_ERR_SCH_VALIDATOR_NOT_FN(type, part, routeName)
  }
}

/**
 * Compiles all validators of one route, at ready time. Throws FST_ERR_SCH_VALIDATION_BUILD (naming the route, the
 * part and the cause, e.g. an unresolvable `$ref`) for a schema that does not compile. Returns null without schemas.
 */
export function compileRouteValidation (route: RouteValidationSource, schemas: SchemaScope): RouteValidation | null {
  const schema = normalizeRouteSchema(route.url, route.schema, schemas.app.jsonShorthand)
  if (schema === undefined || schema === null) return null
  warnMissingParts(schema, route)
  const sources: Record<HttpPart, unknown> = {
    params: schema.params,
    body: schema.body,
    querystring: schema.querystring,
    headers: schema.headers
  }
  if (sources.params == null && sources.body == null && sources.querystring == null && sources.headers == null) return null

  let formatter = schemas.schemaErrorFormatter
  if (route.schemaErrorFormatter !== undefined) {
    assertSchemaErrorFormatter(route.schemaErrorFormatter)
    formatter = route.schemaErrorFormatter
  }
  const routeName = `${describeMethod(route.method)} ${route.url}`
  const compiler = new PartCompiler(route, schemas, routeName)
  const validation: RouteValidation = {
    params: undefined,
    body: undefined,
    querystring: undefined,
    headers: undefined,
    bodyByContentType: undefined,
    schemaErrorFormatter: formatter,
    routeName
  }
  // Fastify 4's order of compilation (requests are validated params first): the first part failing to build is reported
  if (sources.headers != null) validation.headers = compiler.compile('headers', sources.headers)
  if (sources.body != null) {
    const content = bodyContentSchemas(sources.body)
    if (content === undefined) validation.body = compiler.compile('body', sources.body)
    else validation.bodyByContentType = compileBodyByContentType(compiler, content)
  }
  if (sources.querystring != null) validation.querystring = compiler.compile('querystring', sources.querystring)
  if (sources.params != null) validation.params = compiler.compile('params', sources.params)
  return validation
}

/** `schema: { body: undefined }` is most likely a schema that failed to import: Fastify's FSTWRN001 says so. */
function warnMissingParts (schema: JsonSchema, route: RouteValidationSource): void {
  for (const part of ['headers', 'body', 'querystring', 'params'] as const) {
    if (Object.hasOwn(schema, part) && !schema[part]) warnDeprecated('missingSchema', `${part} schema for ${describeMethod(route.method)}: ${route.url}`)
  }
}

function compileBodyByContentType (compiler: PartCompiler, content: JsonSchema): Map<string, ValidationFunction> {
  const byType = new Map<string, ValidationFunction>()
  for (const type of Object.keys(content)) {
    const entry = content[type]
    if (!isPlainObject(entry) || entry.schema == null) throw new codes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(type)
    byType.set(type.toLowerCase(), compiler.compile('body', entry.schema))
  }
  return byType
}

function bodyValidatorFor (byType: Map<string, ValidationFunction>, contentType: unknown): ValidationFunction | undefined {
  if (typeof contentType !== 'string') return undefined
  return byType.get(normalizeMediaType(contentType))
}

function ignore (): void {}

/**
 * Reads what a validation function returned: `true`/`false` (Ajv, errors on `.errors`), `{ value }` (replaces the
 * part with the coerced value) or `{ error }`. Returns the request error, or undefined when the part is valid.
 */
function settle (result: unknown, validate: ValidationFunction, request: ValidatedRequest, property: string, part: HttpPart,
  validation: RouteValidation, instance: unknown): Error | undefined {
  if (result === false) return buildValidationError(validate.errors, part, validation.schemaErrorFormatter, instance)
  if (result === null || typeof result !== 'object') return undefined
  if (isThenable(result)) {
    // Never treat a pending promise as success: answer with an error, and keep its rejection from crashing Node.
    result.then(ignore, ignore)
    return new codes.FST_ERR_SCH_ASYNC_NOT_SUPPORTED(part, validation.routeName)
  }
  const { error, value } = result as { error?: unknown, value?: unknown }
  if (error) return buildValidationError(error, part, validation.schemaErrorFormatter, instance)
  if (value !== undefined) request[property] = value
  return undefined
}

/**
 * Runs at request time after `preValidation`, in the order params, body, querystring, headers. Replaces
 * `request.params/body/query/headers` with the validated, coerced values and returns the first validation error
 * (statusCode 400, code FST_ERR_VALIDATION, `validation`, `validationContext`), or undefined. Throws what a
 * schema error formatter throws, and FST_ERR_SCH_VALIDATOR_NOT_FN: the request's error, never attached to it.
 */
export function validateRequest (validation: RouteValidation, request: ValidatedRequest, instance: unknown): Error | undefined {
  let result: unknown
  let err: Error | undefined

  if (validation.params !== undefined) {
    result = validation.params(request.params)
    if (result !== true && (err = settle(result, validation.params, request, 'params', 'params', validation, instance)) !== undefined) return err
  }

  let body = validation.body
  if (body === undefined && validation.bodyByContentType !== undefined) {
    body = bodyValidatorFor(validation.bodyByContentType, request.headers['content-type'])
  }
  if (body !== undefined) {
    // a request without a body is validated as null, as in Fastify: `nullable` or `type: ['object', 'null']` admit it
    result = body(request.body === undefined ? null : request.body)
    if (result !== true && (err = settle(result, body, request, 'body', 'body', validation, instance)) !== undefined) return err
  }

  if (validation.querystring !== undefined) {
    result = validation.querystring(request.query)
    if (result !== true && (err = settle(result, validation.querystring, request, 'query', 'querystring', validation, instance)) !== undefined) return err
  }

  if (validation.headers !== undefined) {
    // Validate a copy: coercion and removeAdditional must not change what `request.raw.headers` holds.
    const headers = { ...request.headers }
    result = validation.headers(headers)
    if (result !== true && (err = settle(result, validation.headers, request, 'headers', 'headers', validation, instance)) !== undefined) return err
    if (result === true || (result as { value?: unknown } | null)?.value === undefined) request.headers = headers
  }
  return undefined
}
