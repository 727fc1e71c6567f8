/**
 * Request validation: compiling a route's body/querystring/params/headers schemas once, when the app becomes ready,
 * and running the compiled functions on every request (after `preValidation`, before `preHandler`).
 */
import type { IncomingHttpHeaders } from 'node:http'
import { codes } from '../../core/errors'
import { warnDeprecated } from '../../core/deprecations'
import { normalizeMediaType } from '../../core/media-type'
import { isObjectLike, isPlainObject, isThenable } from '../../core/objects'
import { kRequestHeaders } from '../../core/symbols'
import type { AnyFn, JsonSchema } from '../../core/types'
import type { SchemaScope } from '../schema-scope'
import { normalizeRouteSchema } from '../route-schema'
import { takesParentData, type ValidationFunction, type ValidatorCompiler } from './validator-types'
import { lowerCaseHeaderSchema, warnUnreachableHeaderNames } from './header-schema'
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
  /**
   * The parts (`PARENT_DATA` bits) whose validators are called with Ajv's `{ parentData, parentDataProperty }`, so a
   * root value they coerce (a body `"10"` under `type: 'integer'`) replaces the request's: the schemas whose root is
   * not an object, at a level whose policy says so (`coercedRootReachesRequest`). Without the bit, the validator gets the data alone (no object allocated per request).
   */
  parentData: number
  /** The level policy's `validatorThrowIsValidationError`: what a validator throws becomes the part's error. */
  throwIsValidationError: boolean
  schemaErrorFormatter: SchemaErrorFormatter
  /** `METHOD url`, for messages. */
  routeName: string
}

/** The bits of `RouteValidation.parentData` (written as literals where requests are validated). */
const PARENT_DATA: Record<HttpPart, number> = { params: 1, body: 2, querystring: 4, headers: 8 }

/**
 * Whether validating against `schema` may coerce the root value itself: anything but a schema whose root type is
 * `object`, directly or through a shared schema (a body schema `{ type: 'integer' }`, a combinator at the root may).
 * Objects are never coerced.
 */
function mayCoerceRoot (schema: unknown, shared: (id: string) => unknown, depth = 0): boolean {
  if (!isObjectLike(schema)) return false
  const type = schema.type
  if (type === 'object' || (Array.isArray(type) && type.length === 1 && type[0] === 'object')) return false
  // `{ $ref: '<shared $id>#' }` alone (a common body or querystring) is as coercible as the shared schema it names
  const ref = schema.$ref
  if (typeof ref === 'string' && ref.endsWith('#') && depth < 4 && Object.keys(schema).every((key) => refAnnotations.has(key))) {
    const target = shared(ref.slice(0, -1))
    return target === undefined || mayCoerceRoot(target, shared, depth + 1)
  }
  return true
}

const refAnnotations = new Set(['$ref', 'description', 'title', '$comment', 'examples'])

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

  #coercingRoot = 0
  /** A part with a validator called with the data alone (a body per media type has several). */
  #dataAlone = 0

  /** Bits of `RouteValidation.parentData`, for the parts compiled so far. */
  get parentData (): number {
    return this.#coercingRoot & ~this.#dataAlone
  }

  compile (part: HttpPart, schema: unknown): ValidationFunction {
    let validate: unknown
    try {
      // The default compiler (an Ajv instance) is built only when some part of some route needs it.
      this.#compiler ??= (this.route.validatorCompiler as ValidatorCompiler | undefined) ?? this.#contextCompiler()
      const given = part === 'headers' ? this.#headerSchema(schema) : schema
      validate = this.#compiler({ schema: given as JsonSchema, method: this.route.method, url: this.route.url, httpPart: part })
    } catch (cause) {
      // Fastify's message ends with the compiler's; which part failed is told by `httpPart`
      const message = cause instanceof Error ? cause.message : String(cause)
      throw Object.assign(new codes.FST_ERR_SCH_VALIDATION_BUILD(describeMethod(this.route.method), this.route.url, message), { cause, httpPart: part })
    }
    if (typeof validate !== 'function') return refuseEveryRequest(validate, part, this.routeName)
    if (!takesParentData(validate as ValidationFunction)) this.#dataAlone |= PARENT_DATA[part]
    else if (this.schemas.app.coercedRootReachesRequest && mayCoerceRoot(schema, (id) => this.schemas.getSchema(id))) this.#coercingRoot |= PARENT_DATA[part]
    return validate as ValidationFunction
  }

  /**
   * Header names lower-cased through the schema (header-schema.ts), as Fastify does for its default compiler only:
   * a compiler of the user's (`validatorCompiler`, `setValidatorCompiler`, `compilersFactory.buildValidator`) gets
   * the schema as written, and so does a schema that is not an object literal (TypeBox, Joi…).
   */
  #headerSchema (schema: unknown): unknown {
    if (this.route.validatorCompiler !== undefined || this.schemas.customValidator || !isPlainObject(schema) ||
      Object.getPrototypeOf(schema) === null) return schema
    warnUnreachableHeaderNames(schema, describeMethod(this.route.method), this.route.url)
    return lowerCaseHeaderSchema(schema)
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
  const schema = normalizeRouteSchema(route.url, route.schema, schemas.app)
  if (schema === undefined || schema === null) return null
  warnMissingParts(schema, route)
  const sources: Record<HttpPart, unknown> = {
    params: schema.params,
    body: schema.body,
    querystring: schema.querystring,
    headers: schema.headers
  }
  // `false` (refuse every request) and `null` (not a schema: ready fails) are compiled like any other value, as in
  // Fastify 5; only a part left out, or given as `undefined`, is not validated
  if (sources.params === undefined && sources.body === undefined && sources.querystring === undefined && sources.headers === undefined) return null

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
    parentData: 0,
    throwIsValidationError: schemas.app.validatorThrowIsValidationError,
    schemaErrorFormatter: formatter,
    routeName
  }
  // Fastify's order of compilation (requests are validated params first): the first part failing to build is reported
  if (sources.headers !== undefined) validation.headers = compiler.compile('headers', sources.headers)
  if (sources.body !== undefined) {
    const content = bodyContentSchemas(sources.body)
    if (content === undefined) validation.body = compiler.compile('body', sources.body)
    else validation.bodyByContentType = compileBodyByContentType(compiler, content)
  }
  if (sources.querystring !== undefined) validation.querystring = compiler.compile('querystring', sources.querystring)
  if (sources.params !== undefined) validation.params = compiler.compile('params', sources.params)
  validation.parentData = compiler.parentData
  return validation
}

/** `schema: { body: undefined }` is most likely a schema that failed to import: Fastify's FSTWRN001 says so. */
function warnMissingParts (schema: JsonSchema, route: RouteValidationSource): void {
  for (const part of ['headers', 'body', 'querystring', 'params'] as const) {
    if (Object.hasOwn(schema, part) && schema[part] === undefined) warnDeprecated('missingSchema', `${part} schema for ${describeMethod(route.method)}: ${route.url}`)
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
 * `validateAsync`) passes or fails only: it resolves with the validated data itself, so its `error` or `value`
 * properties are the client's data, never read as a result (Fastify 5's fix of GHSA-667r-xxjv-c9mm, at both
 * levels). It fails by resolving `false` (the errors on `.errors`) or rejecting (Ajv's `validation failed`, or what
 * an async keyword threw), as in Fastify.
 */
function validatePart (validate: ValidationFunction, input: unknown, request: ValidatedRequest, property: string, part: HttpPart,
  validation: RouteValidation, instance: unknown, withParent: boolean): PartOutcome {
  let result: unknown
  try {
    result = withParent ? validate(input, { parentData: request, parentDataProperty: property }) : validate(input)
  } catch (err) {
    // a validator the compiler did not give (refuseEveryRequest) stays the request's error: attachValidation must not
    // let the handler run on input nothing validated
    if (!validation.throwIsValidationError || !(err instanceof Error) || err instanceof codes.FST_ERR_SCH_VALIDATOR_NOT_FN) throw err
    return buildValidationError(Object.assign(err, { statusCode: 500 }), part, validation.schemaErrorFormatter, instance)
  }
  if (result === true) return undefined
  if (!isThenable(result)) return settle(result, validate, request, property, part, validation, instance)
  return Promise.resolve(result).then(
    (resolved) => resolved === false ? buildValidationError(validate.errors, part, validation.schemaErrorFormatter, instance) : undefined,
    (rejected) => buildValidationError(rejected, part, validation.schemaErrorFormatter, instance)
  )
}

/**
 * Validates a copy of the headers: coercion and removeAdditional must not change what `request.raw.headers` holds.
 * The copy becomes `request.headers` as it is (not through the setter, which adds to the incoming headers), so a
 * header the schema removed is gone from `request.headers`, `request.host` and `hostname`, as in Fastify.
 */
function validateHeaders (validate: ValidationFunction, request: ValidatedRequest, validation: RouteValidation, instance: unknown): PartOutcome {
  const original = request.headers
  const headers = { ...original }
  const adopt = (err: Error | undefined): Error | undefined => {
    // a validator that returned `{ value }` has already replaced them
    if (err === undefined && request.headers === original) (request as { [kRequestHeaders]?: IncomingHttpHeaders })[kRequestHeaders] = headers
    return err
  }
  const outcome = validatePart(validate, headers, request, 'headers', 'headers', validation, instance, (validation.parentData & 8) !== 0)
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
        : validatePart(validation.params, request.params, request, 'params', 'params', validation, instance, (validation.parentData & 1) !== 0)
    case 1: {
      const body = bodyValidator(validation, request)
      // a request without a body is validated as null, as in Fastify: `nullable` or `type: ['object', 'null']` admit it
      return body === undefined
        ? undefined
        : validatePart(body, request.body === undefined ? null : request.body, request, 'body', 'body', validation, instance, (validation.parentData & 2) !== 0)
    }
    case 2:
      return validation.querystring === undefined
        ? undefined
        : validatePart(validation.querystring, request.query, request, 'query', 'querystring', validation, instance, (validation.parentData & 4) !== 0)
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
