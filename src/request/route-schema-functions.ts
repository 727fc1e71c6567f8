/**
 * Validation and serialization on demand, from a handler: `request.getValidationFunction / compileValidationSchema /
 * validateInput` and `reply.getSerializationFunction / compileSerializationSchema / serializeInput`. They reuse the
 * route's compiled validators and response serializers, or compile a schema with the compiler the route would use;
 * what they compile is cached on the route context by schema identity, so a handler calling them per request
 * compiles once.
 */
import { codes } from '../core/errors'
import { kRoute } from '../core/symbols'
import { ContentTypeSerializers, type SerializerFn, type ResponseSerializer } from '../schema/serialization/response-serializers'
import { resolveCompiler } from '../schema/serialization/serializer-compilers'
import type { CompiledRoute } from '../routing/route-model'
import type { ValidationFunction, ValidatorCompiler } from '../schema/validation/validator-types'
import type { SerializerCompiler, SerializerCompilerInput } from '../schema/serialization/response-serializers'

/** A request or a reply: what these methods read is the route serving it. */
interface Routed { [kRoute]: CompiledRoute }

/**
 * What one route compiled on demand. Created on first use (most routes never call these methods), and the
 * compilers are resolved then too: the default Ajv compiler is only built when some schema needs it.
 */
export class RouteSchemaFunctions {
  readonly validators = new WeakMap<object, ValidationFunction>()
  readonly serializers = new WeakMap<object, SerializerFn>()
  #validatorCompiler: ValidatorCompiler | undefined
  #serializerCompiler: SerializerCompiler | undefined

  constructor (readonly context: CompiledRoute) {}

  /** The route's `validatorCompiler` > the context's `setValidatorCompiler` > the default (Ajv). */
  get validatorCompiler (): ValidatorCompiler {
    const { options, plugin } = this.context
    this.#validatorCompiler ??= (options.validatorCompiler as ValidatorCompiler | undefined) ??
      plugin.schema.validatorCompiler ?? plugin.schema.defaultValidatorCompiler()
    return this.#validatorCompiler
  }

  /** The route's `serializerCompiler` > the nearest `setSerializerCompiler` > the default (fast-json-stringify). */
  get serializerCompiler (): SerializerCompiler {
    this.#serializerCompiler ??= resolveCompiler(this.context.options, this.context.plugin.schema)
    return this.#serializerCompiler
  }
}

function schemaFunctionsOf (context: CompiledRoute): RouteSchemaFunctions {
  context.schemaFunctions ??= new RouteSchemaFunctions(context)
  return context.schemaFunctions
}

function isSchema (value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The route's compiled validator for a request part; `query` is accepted for `querystring`. */
function partValidator (context: CompiledRoute, httpPart: string): ValidationFunction | undefined {
  const validation = context.validation
  if (validation === null) return undefined
  switch (httpPart.toLowerCase()) {
    case 'body': return validation.body
    case 'querystring':
    case 'query': return validation.querystring
    case 'params': return validation.params
    case 'headers': return validation.headers
    default: return undefined
  }
}

function compileValidation (request: Routed, schema: object, httpPart: string | undefined): ValidationFunction {
  const context = request[kRoute]
  const functions = schemaFunctionsOf(context)
  let validate = functions.validators.get(schema)
  if (validate === undefined) {
    validate = functions.validatorCompiler({ schema, method: context.method, url: context.url, httpPart: httpPart as string })
    if (typeof validate !== 'function') throw new TypeError(`the validator compiler returned ${typeof validate} instead of a function`)
    functions.validators.set(schema, validate)
  }
  return validate
}

/** Mixed into the base request prototype (`request.ts`). */
export const requestSchemaMethods = {
  /** The route's validator for a part ('body', 'querystring', 'params', 'headers'), or one compiled before for a schema. */
  getValidationFunction (this: Routed, httpPartOrSchema: string | object): ValidationFunction | undefined {
    const context = this[kRoute]
    if (typeof httpPartOrSchema === 'string') return partValidator(context, httpPartOrSchema)
    if (!isSchema(httpPartOrSchema)) return undefined
    return context.schemaFunctions?.validators.get(httpPartOrSchema)
  },

  /** Compiles a schema with the compiler the route uses; `httpPart` is passed on to that compiler. */
  compileValidationSchema (this: Routed, schema: object, httpPart?: string): ValidationFunction {
    return compileValidation(this, schema, httpPart)
  },

  /**
   * Validates `input` with the route's validator of `httpPart` when the route has one (the part wins over the
   * schema, as Fastify documents), else with `schema` compiled for this route. Returns what the validator returns.
   */
  validateInput (this: Routed, input: unknown, schemaOrPart: object | string, httpPart?: string): unknown {
    const part = typeof schemaOrPart === 'string' ? schemaOrPart : httpPart
    let validate = typeof part === 'string' ? partValidator(this[kRoute], part) : undefined
    if (validate === undefined) {
      if (!isSchema(schemaOrPart)) throw new codes.FST_ERR_REQ_INVALID_VALIDATION_INVOCATION(part)
      validate = compileValidation(this, schemaOrPart, part)
    }
    return validate(input)
  }
}

/**
 * The route's serializer declared under a status key. A `content` entry (per media type) needs the media type:
 * without one there is no single function to give.
 */
function statusSerializer (context: CompiledRoute, httpStatus: string | number, contentType: string | undefined): SerializerFn | undefined {
  const entry: ResponseSerializer | undefined = context.serializers?.forKey(String(httpStatus))
  if (entry === undefined) return undefined
  if (entry instanceof ContentTypeSerializers) {
    return typeof contentType === 'string' ? entry.byType.get(contentType.toLowerCase()) : undefined
  }
  return typeof contentType === 'string' ? undefined : entry
}

function compileSerialization (reply: Routed, schema: object, httpStatus: string | number | undefined, contentType: string | undefined): SerializerFn {
  const context = reply[kRoute]
  const functions = schemaFunctionsOf(context)
  let serialize = functions.serializers.get(schema)
  if (serialize === undefined) {
    // like Fastify, a schema compiled without a status gets `httpStatus: undefined`
    const input = { schema, method: context.method, url: context.url, httpStatus: httpStatus === undefined ? undefined : String(httpStatus), contentType }
    serialize = functions.serializerCompiler(input as SerializerCompilerInput)
    if (typeof serialize !== 'function') throw new TypeError(`the serializer compiler returned ${typeof serialize} instead of a function`)
    functions.serializers.set(schema, serialize)
  }
  return serialize
}

function isStatus (value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number'
}

/** Mixed into the base reply prototype (`reply.ts`). */
export const replySchemaMethods = {
  /** The route's serializer for a status key (and media type), or one compiled before for a schema. */
  getSerializationFunction (this: Routed, schemaOrStatus: object | string | number, contentType?: string): SerializerFn | undefined {
    const context = this[kRoute]
    if (isStatus(schemaOrStatus)) return statusSerializer(context, schemaOrStatus, contentType)
    if (!isSchema(schemaOrStatus)) return undefined
    return context.schemaFunctions?.serializers.get(schemaOrStatus)
  },

  /** Compiles a schema with the compiler the route uses; `httpStatus` and `contentType` are passed on to it. */
  compileSerializationSchema (this: Routed, schema: object, httpStatus?: string | number, contentType?: string): SerializerFn {
    return compileSerialization(this, schema, httpStatus, contentType)
  },

  /**
   * `(input, schema, [httpStatus], [contentType])` or `(input, httpStatus, [contentType])`. The route's serializer
   * for the status wins when it has one; else the schema is compiled for this route. Without either it throws
   * FST_ERR_MISSING_SERIALIZATION_FN (or FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN with a media type).
   */
  serializeInput (this: Routed, input: unknown, schemaOrStatus: object | string | number, httpStatusOrType?: string | number, contentType?: string): string {
    let schema: object | undefined
    let httpStatus: string | number | undefined
    if (isStatus(schemaOrStatus)) {
      httpStatus = schemaOrStatus
      contentType = httpStatusOrType as string | undefined
    } else {
      schema = isSchema(schemaOrStatus) ? schemaOrStatus : undefined
      httpStatus = httpStatusOrType
    }
    let serialize = httpStatus !== undefined ? statusSerializer(this[kRoute], httpStatus, contentType) : undefined
    if (serialize === undefined) {
      if (schema === undefined) {
        if (typeof contentType === 'string') throw new codes.FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN(httpStatus, contentType)
        throw new codes.FST_ERR_MISSING_SERIALIZATION_FN(httpStatus)
      }
      serialize = compileSerialization(this, schema, httpStatus, contentType)
    }
    return serialize(input)
  }
}
