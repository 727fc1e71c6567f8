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

/** What validating one part gives: its error, none, or (an asynchronous validator) a promise of either. */
type PartOutcome = Error | undefined | Promise<Error | undefined>

/**
 * Reads what a validation function returned: `true`/`false` (Ajv, errors on `.errors`), `{ value }` (replaces the
 * part with the coerced value) or `{ error }`. Returns the request error, or undefined when the part is valid.
 */
function settle (result: unknown, validate: ValidationFunction, request: ValidatedRequest, property: string, part: HttpPart,
  validation: RouteValidation, instance: unknown): Error | undefined {
  if (result === false) return buildValidationError(validate.errors, part, validation.schemaErrorFormatter, instance)
  if (result === null || typeof result !== 'object') return undefined
  const { error, value } = result as { error?: unknown, value?: unknown }
  if (error) return buildValidationError(error, part, validation.schemaErrorFormatter, instance)
  if (value !== undefined) request[property] = value
  return undefined
}

/**
 * Runs one part's validator. A promise (an Ajv `$async` schema, an async custom validator such as Joi's
 * `validateAsync`) is settled the same way once it resolves; its rejection is the part's validation error (Ajv's
 * `validation failed`, or what an async keyword threw), as in Fastify.
 */
function validatePart (validate: ValidationFunction, input: unknown, request: ValidatedRequest, property: string, part: HttpPart,
  validation: RouteValidation, instance: unknown): PartOutcome {
  const result: unknown = validate(input)
  if (result === true) return undefined
  if (!isThenable(result)) return settle(result, validate, request, property, part, validation, instance)
  return Promise.resolve(result).then(
    (resolved) => settle(resolved, validate, request, property, part, validation, instance),
    (rejected) => buildValidationError(rejected, part, validation.schemaErrorFormatter, instance)
  )
}

/** Validates a copy of the headers: coercion and removeAdditional must not change what `request.raw.headers` holds. */
function validateHeaders (validate: ValidationFunction, request: ValidatedRequest, validation: RouteValidation, instance: unknown): PartOutcome {
  const original = request.headers
  const headers = { ...original }
  const adopt = (err: Error | undefined): Error | undefined => {
    // a validator that returned `{ value }` has already replaced them
    if (err === undefined && request.headers === original) request.headers = headers
    return err
  }
  const outcome = validatePart(validate, headers, request, 'headers', 'headers', validation, instance)
  return isThenable(outcome) ? outcome.then(adopt) : adopt(outcome)
}

function bodyValidator (validation: RouteValidation, request: ValidatedRequest): ValidationFunction | undefined {
  if (validation.body !== undefined || validation.bodyByContentType === undefined) return validation.body
  return bodyValidatorFor(validation.bodyByContentType, request.headers['content-type'])
}

/** The parts in the order they are validated: params, body, querystring, headers. */
const PART_COUNT = 4

function validateStep (step: number, validation: RouteValidation, request: ValidatedRequest, instance: unknown): PartOutcome {
  switch (step) {
    case 0:
      return validation.params === undefined
        ? undefined
        : validatePart(validation.params, request.params, request, 'params', 'params', validation, instance)
    case 1: {
      const body = bodyValidator(validation, request)
      // a request without a body is validated as null, as in Fastify: `nullable` or `type: ['object', 'null']` admit it
      return body === undefined
        ? undefined
        : validatePart(body, request.body === undefined ? null : request.body, request, 'body', 'body', validation, instance)
    }
    case 2:
      return validation.querystring === undefined
        ? undefined
        : validatePart(validation.querystring, request.query, request, 'query', 'querystring', validation, instance)
    default:
      return validation.headers === undefined ? undefined : validateHeaders(validation.headers, request, validation, instance)
  }
}

/**
 * Runs at request time after `preValidation`, in the order params, body, querystring, headers. Replaces
 * `request.params/body/query/headers` with the validated, coerced values and returns the first validation error
 * (statusCode 400, code FST_ERR_VALIDATION, `validation`, `validationContext`), or undefined; a promise of that once
 * a validator is asynchronous (the parts after it wait for it). Throws (or rejects with) what a schema error
 * formatter throws, and FST_ERR_SCH_VALIDATOR_NOT_FN: the request's error, never attached to it.
 */
export function validateRequest (validation: RouteValidation, request: ValidatedRequest, instance: unknown, from = 0): PartOutcome {
  for (let step = from; step < PART_COUNT; step++) {
    const outcome = validateStep(step, validation, request, instance)
    if (outcome === undefined) continue
    if (!isThenable(outcome)) return outcome
    const next = step + 1
    return outcome.then((err) => err ?? validateRequest(validation, request, instance, next))
  }
  return undefined
}
