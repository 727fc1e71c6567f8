/**
 * The router: find-my-way, configured from the router settings (`routerOptions` and the top-level options: case,
 * trailing and duplicate slashes, parameter length, unsafe regexps, query-string parser, constraint strategies, other
 * find-my-way options), printing routes as Fastify does.
 */
import type { IncomingMessage } from 'node:http'
import FindMyWay from 'find-my-way'
import { codes } from '../core/errors'
import type { NormalizedOptions } from '../app/options'
import type { Router } from '../encapsulation/app-state'
import { buildPrettyMeta } from './route-printing'
import type { RouteOptions } from './route-model'
import type { PathHandler } from './router-options'

/**
 * What the router calls when a lookup cannot go on: a URL with a bad percent-encoding, a parameter longer than
 * `maxParamLength`. Unset, the lookup finds nothing (the not-found handlers answer).
 */
export interface LookupFailures {
  onBadUrl?: PathHandler
  onMaxParamLength?: PathHandler
}

export function createRouter (options: NormalizedOptions, failures: LookupFailures, overrides: { ignoreTrailingSlash?: boolean } = {}): Router {
  // `compile` and `defaultRoute` are the application's to apply (compile-route.ts, dispatch), not find-my-way's
  const { compile: _compile, defaultRoute: _defaultRoute, onBadUrl, onMaxParamLength, ...settings } = options.routerOptions
  const config = {
    ...settings,
    ...overrides,
    constraints: constraintStrategies(options),
    // the user's own, else the application's (which answer through frameworkErrors); find-my-way calls them with the path
    onBadUrl: onBadUrl ?? failures.onBadUrl,
    onMaxParamLength: onMaxParamLength ?? failures.onMaxParamLength,
    buildPrettyMeta: settings.buildPrettyMeta ?? buildPrettyMeta
  }
  return FindMyWay(config as FindMyWay.Config<FindMyWay.HTTPVersion.V1>) as Router
}

/**
 * The custom strategies of the router: the `constraints` option, plus the deprecated `versioning` option turned into
 * the `version` strategy. A derived version must match (`mustMatchWhenDerived`), as with the built-in one.
 */
function constraintStrategies (options: NormalizedOptions): Record<string, unknown> | undefined {
  const versioning = options.versioning
  const constraints = options.routerOptions.constraints
  if (versioning === undefined) return constraints
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
  return { ...constraints, version }
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
export function derivesConstraints (router: Pick<Router, 'constrainer'>): boolean {
  return router.constrainer.strategiesInUse.size > 0 || router.constrainer.asyncStrategiesInUse.size > 0
}

/**
 * A route path as the router stores it: find-my-way's `on` drops duplicate slashes and a trailing slash when its
 * settings ignore them, while its `findRoute`/`hasRoute` take the path as written ('/a//:id' finds nothing once
 * '/a/:id' is stored). Registration looks its routes up through this.
 */
export function storedPath (settings: { ignoreDuplicateSlashes: boolean, ignoreTrailingSlash: boolean }, path: string): string {
  const single = settings.ignoreDuplicateSlashes ? FindMyWay.removeDuplicateSlashes(path) : path
  return settings.ignoreTrailingSlash && single.length > 1 && single.endsWith('/') ? single.slice(0, -1) : single
}
