/**
 * `routerOptions`: Fastify 5's factory option grouping the router's (find-my-way's) settings, present at both
 * levels. A setting given in `routerOptions` wins over the same one at the top level (Fastify 4's place for them,
 * deprecated at the Fastify 5 level: FSTDEP022); other find-my-way options pass through to the router as given.
 * `compile` is only read from `routerOptions`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiLevel } from '../core/api-level'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import type { AnyFn } from '../core/types'

/** A handler find-my-way calls with the offending path: `onBadUrl`, `onMaxParamLength`. */
export type PathHandler = (path: string, req: IncomingMessage, res: ServerResponse) => void

/** The router's effective settings: the user's `routerOptions`, else the top-level option, else the default. */
export interface RouterSettings {
  allowUnsafeRegex: boolean
  buildPrettyMeta: AnyFn | undefined
  caseSensitive: boolean
  constraints: Record<string, unknown> | undefined
  defaultRoute: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  ignoreDuplicateSlashes: boolean
  ignoreTrailingSlash: boolean
  maxParamLength: number
  onBadUrl: PathHandler | undefined
  onMaxParamLength: PathHandler | undefined
  querystringParser: ((str: string) => Record<string, unknown>) | undefined
  useSemicolonDelimiter: boolean
  /** Compile the router's lookup functions when the application becomes ready (find-my-way's `compile()`). */
  compile: boolean
  /** Other find-my-way options, passed through. */
  [option: string]: unknown
}

/** The settings that may be given at either place, with their defaults (undefined: the router's own behaviour). */
const routerDefaults: Readonly<Record<string, unknown>> = Object.freeze({
  allowUnsafeRegex: false,
  buildPrettyMeta: undefined,
  caseSensitive: true,
  constraints: undefined,
  defaultRoute: undefined,
  ignoreDuplicateSlashes: false,
  ignoreTrailingSlash: false,
  maxParamLength: 100,
  onBadUrl: undefined,
  onMaxParamLength: undefined,
  querystringParser: undefined,
  useSemicolonDelimiter: false
})

const routerKeys = Object.keys(routerDefaults)

/**
 * Resolves the router's settings from the factory options (already type-checked; `routerOptions` is the factory's
 * own copy). Warns FSTDEP022 for the settings given at the top level where the level deprecates that.
 */
export function resolveRouterSettings (given: Record<string, unknown>, level: ApiLevel): RouterSettings {
  const grouped = (given.routerOptions ?? {}) as Record<string, unknown>
  const atTopLevel = routerKeys.filter((key) => Object.hasOwn(given, key))
  if (level.topLevelRouterOptionsDeprecated && atTopLevel.length > 0) warnDeprecated('topLevelRouterOptions', atTopLevel.join(', '))
  const settings: Record<string, unknown> = { ...grouped }
  for (const key of routerKeys) {
    if (!Object.hasOwn(grouped, key)) settings[key] = given[key] ?? routerDefaults[key]
  }
  settings.compile = grouped.compile ?? false
  checkFunctions(settings)
  return settings as RouterSettings
}

/** The settings find-my-way would only assert on, checked with Fastify's codes (or Enclave's, naming the option). */
function checkFunctions (settings: Record<string, unknown>): void {
  const parser = settings.querystringParser
  if (parser !== undefined && parser !== null && typeof parser !== 'function') throw new codes.FST_ERR_QSP_NOT_FN(typeof parser)
  for (const name of ['defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta']) {
    const value = settings[name]
    if (value !== undefined && value !== null && typeof value !== 'function') {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`"routerOptions.${name}" must be a function, got a value of type ${typeof value}`)
    }
  }
}
