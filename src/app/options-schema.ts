/**
 * The factory options checked as Fastify 4 checks them: a JSON Schema of the documented option types, validated by
 * Ajv with type coercion (`connectionTimeout: '100'` is 100), failing with `FST_ERR_INIT_OPTS_INVALID` and Ajv's
 * messages (`Invalid initialization options: '["must be boolean"]'`). Written from Fastify's documentation of its
 * server options. Options it does not describe are not checked here; unknown names are ignored.
 */
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import { codes } from '../core/errors'

const integer = { type: 'integer' }
// a negative time would make Node's server throw a RangeError at construction
const duration = { type: 'integer', minimum: 0 }
const boolean = { type: 'boolean' }
const string = { type: 'string' }

const optionsSchema = {
  type: 'object',
  properties: {
    connectionTimeout: duration,
    keepAliveTimeout: duration,
    requestTimeout: duration,
    maxRequestsPerSocket: { type: 'integer', nullable: true },
    forceCloseConnections: { oneOf: [{ type: 'string', pattern: 'idle' }, boolean] },
    closeTimeout: duration,
    handlerTimeout: duration,
    pluginTimeout: duration,
    http2SessionTimeout: duration,
    maxParamLength: integer,
    http2: boolean,
    caseSensitive: boolean,
    allowUnsafeRegex: boolean,
    ignoreTrailingSlash: boolean,
    ignoreDuplicateSlashes: boolean,
    disableRequestLogging: boolean,
    jsonShorthand: boolean,
    exposeHeadRoutes: boolean,
    allowErrorHandlerOverride: boolean,
    useSemicolonDelimiter: boolean,
    requestIdLogLabel: string,
    // secure-json-parse would treat any other word as 'ignore': a typo must not switch the protection off
    onProtoPoisoning: { type: 'string', enum: ['error', 'remove', 'ignore'] },
    onConstructorPoisoning: { type: 'string', enum: ['error', 'remove', 'ignore'] },
    // a strategy Fastify 4 accepts: `validate` included (find-my-way calls it on every route's constraint value)
    // Fastify 5's grouping of the router's settings (src/routing/router-options.ts); other keys pass through
    routerOptions: {
      type: 'object',
      properties: { compile: boolean, ignoreTrailingSlash: boolean, ignoreDuplicateSlashes: boolean, maxParamLength: integer, allowUnsafeRegex: boolean, useSemicolonDelimiter: boolean }
    },
    constraints: {
      type: 'object',
      additionalProperties: { type: 'object', required: ['name', 'storage', 'validate', 'deriveConstraint'] }
    }
  }
}

const checkedNames = Object.keys(optionsSchema.properties)
let validateOptions: ValidateFunction | undefined

/**
 * Checks and coerces the documented option types in place (`options` is the factory's own copy). The schema only
 * constrains the options it names, so it is compiled (~45 ms with Ajv's start) by the first application that gives
 * one of them.
 */
export function checkOptionTypes (options: Record<string, unknown>): void {
  if (!checkedNames.some((name) => options[name] !== undefined)) return
  if (validateOptions === undefined) {
    const AjvClass = require('ajv').default as typeof Ajv
    validateOptions = new AjvClass({ coerceTypes: true, useDefaults: false, allErrors: false, strict: false }).compile(optionsSchema)
  }
  if (validateOptions(options)) return
  const messages = (validateOptions.errors ?? []).map((error) => error.message)
  throw new codes.FST_ERR_INIT_OPTS_INVALID(JSON.stringify(messages))
}
