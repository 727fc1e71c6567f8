/**
 * The router: find-my-way, configured from the factory options (case, trailing and duplicate slashes, parameter
 * length, unsafe regexps, query-string parser, constraint strategies), printing routes as Fastify 4 does.
 */
import type { IncomingMessage } from 'node:http'
import FindMyWay from 'find-my-way'
import { codes } from '../core/errors'
import type { NormalizedOptions } from '../app/options'
import type { Router } from '../encapsulation/app-state'
import { buildPrettyMeta } from './route-printing'
import type { RouteOptions } from './route-model'

export function createRouter (options: NormalizedOptions): Router {
  const config = {
    caseSensitive: options.caseSensitive,
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
    maxParamLength: options.maxParamLength,
    allowUnsafeRegex: options.allowUnsafeRegex,
    useSemicolonDelimiter: options.useSemicolonDelimiter,
    querystringParser: options.querystringParser,
    constraints: constraintStrategies(options),
    // a bad percent-encoding is found by the lookup, which then returns a record without a store: dispatch answers it
    onBadUrl: () => {},
    buildPrettyMeta
  }
  return FindMyWay(config as FindMyWay.Config<FindMyWay.HTTPVersion.V1>) as Router
}

/**
 * The custom strategies of the router: the `constraints` option, plus the deprecated `versioning` option turned into
 * the `version` strategy. A derived version must match (`mustMatchWhenDerived`), as with the built-in one.
 */
function constraintStrategies (options: NormalizedOptions): Record<string, unknown> | undefined {
  const versioning = options.versioning
  if (versioning === undefined) return options.constraints
  const version = {
    name: 'version',
    mustMatchWhenDerived: true,
    storage: versioning.storage,
    // two parameters: find-my-way treats a three-parameter deriveConstraint as asynchronous
    deriveConstraint: (req: IncomingMessage, ctx: unknown) => versioning.deriveVersion(req, ctx),
    validate (value: unknown) {
      if (typeof value !== 'string') throw new codes.FST_ERR_VERSION_CONSTRAINT_NOT_STR()
    }
  }
  return { ...options.constraints, version }
}

/**
 * A route's router constraints: its `constraints`, plus Fastify 4's deprecated route option `version: '1.2.0'`
 * (the `version` constraint). onRoute hooks see the options as given, as in Fastify.
 */
export function routeConstraints (options: RouteOptions): Record<string, unknown> {
  if (options.version === undefined) return options.constraints ?? {}
  return { ...options.constraints, version: options.version }
}

/** Whether requests must derive constraints before the lookup: some strategy is in use (a route's, or a mustMatchWhenDerived one). */
export function derivesConstraints (router: Router): boolean {
  return router.constrainer.strategiesInUse.size > 0 || router.constrainer.asyncStrategiesInUse.size > 0
}
