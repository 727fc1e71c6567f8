/**
 * What a plugin function says about itself through the symbols `fastify-plugin` sets: its name, whether it skips
 * encapsulation, and its metadata (the Fastify range it supports, the decorators and plugins it needs).
 */
import type semver from 'semver'
import { lazyModule } from '../core/lazy-module'
import { codes } from '../core/errors'
import { FASTIFY_4, FASTIFY_5, type ApiLevel } from '../core/api-level'
import { kApp, kDisplayName, kPluginContext, kPluginMeta, kRegisteredFunction, kSkipOverride } from '../core/symbols'
import type { AnyFn } from '../core/types'
import type { Instance } from '../encapsulation/app-state'
import { hasObjectDecorator } from '../encapsulation/decorators'
import { warnDeprecated } from '../core/deprecations'

interface PluginMeta {
  name?: string
  fastify?: string
  decorators?: { fastify?: string[], request?: string[], reply?: string[] }
  dependencies?: string[]
}

/** A plugin function as the loader sees it: any function, possibly carrying `fastify-plugin`'s symbols. */
export type PluginFunction = AnyFn & {
  [kPluginMeta]?: PluginMeta
  [kDisplayName]?: unknown
  [kSkipOverride]?: boolean
  [kRegisteredFunction]?: PluginFunction
}

/**
 * The name a plugin goes by in its context's name chain (`pluginName`, `hasPlugin`), as Fastify 4 names it: its
 * display name (what `fastify-plugin` sets from its `name`), else the file of the CommonJS module whose export it is
 * (plugin-tree tools show where a plugin comes from), else its function name, else the start of its source.
 */
export function getPluginName (fn: PluginFunction): string {
  const displayName = fn[kDisplayName]
  if (displayName) return String(displayName)
  const file = moduleExporting(fn)
  if (file !== undefined) return file
  if (fn.name) return fn.name
  return fn.toString().split('\n').slice(0, 2).map((s: string) => s.trim()).join(' -- ')
}

/**
 * An async plugin function that also declares a third (`done`) parameter mixes the two plugin styles. Fastify 4
 * warns each time such a plugin loads (FSTWRN002); Fastify 5 refuses it (FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER): the
 * level decides. Either names it by its plugin-meta name, display name, the module it is the export of, or its
 * function name.
 */
export function checkPluginStyle (instance: Instance, fn: PluginFunction): void {
  if (fn.constructor?.name !== 'AsyncFunction' || fn.length !== 3) return
  const displayName = fn[kDisplayName]
  const name = metaName(fn) ?? (displayName ? String(displayName) : undefined) ?? moduleExporting(fn) ?? (fn.name || 'anonymous')
  if (instance[kApp].level.mixedPluginStyles === 'throw') throw new codes.FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER(name)
  warnDeprecated('pluginMixesStyles', name)
}

/** The path of the loaded CommonJS module whose `module.exports` is `fn`, if any. */
function moduleExporting (fn: PluginFunction): string | undefined {
  const cache = typeof require === 'function' ? require.cache : undefined
  if (cache === undefined) return undefined
  return Object.keys(cache).find((key) => cache[key]?.exports === fn)
}

/** The `name` of its plugin-meta: what other plugins' `dependencies` and `hasPlugin()` may name. */
export function metaName (fn: PluginFunction): string | undefined {
  const name = fn[kPluginMeta]?.name
  return typeof name === 'string' ? name : undefined
}

export function skipsOverride (fn: PluginFunction): boolean {
  return fn[kSkipOverride] === true
}

/** semver is needed only for plugins that declare the Fastify versions they support. */
const loadSemver = lazyModule(() => require('semver') as typeof semver)

/**
 * The Fastify versions plugins are checked against: the level's (src/core/api-level.ts), unless the instance's
 * `version` was redefined, which then is the only one.
 */
function apiVersionsOf (instance: Instance): readonly string[] {
  const level = instance[kApp].level
  const version = instance.version
  if (typeof version !== 'string') return [level.fastifyVersion]
  return version === level.fastifyVersion ? level.pluginVersions : [version]
}

/**
 * Whether a plugin's declared `fastify` range admits `version`. A pre-release (`-rc`, `-pre`, `-alpha`, as Fastify
 * 5 has it) also admits plugins written for an earlier release, so plugins can be tried with it before they declare it.
 */
function supportsVersion (range: string, version: string): boolean {
  const semver = loadSemver()
  const releaseCandidate = /-(?:rc|pre|alpha)./.test(version)
  const declared = semver.coerce(range)
  if (releaseCandidate && declared !== null && semver.gt(version, declared)) return true
  return semver.satisfies(version, range, { includePrerelease: releaseCandidate })
}

/**
 * FST_ERR_PLUGIN_VERSION_MISMATCH, as Fastify words it; when the application's other API level takes the plugin
 * (a plugin made for Fastify 4 only, at the Fastify 5 level), the message also says so and names that level's entry.
 */
function versionMismatch (instance: Instance, name: string, range: string): Error {
  const level = instance[kApp].level
  const error = new codes.FST_ERR_PLUGIN_VERSION_MISMATCH(name, range, instance.version ?? level.fastifyVersion)
  const other = otherLevel(level)
  if (instance.version === level.fastifyVersion && other.pluginVersions.some((version) => supportsVersion(range, version))) {
    error.message += `; it is made for Fastify ${other.major}, which Enclave's Fastify ${other.major} level gives: load '${other.entry}'`
  }
  return error
}

function otherLevel (level: ApiLevel): ApiLevel {
  return level.major === 4 ? FASTIFY_5 : FASTIFY_4
}

/** Checks a plugin's declared metadata: Fastify version range, required decorators, required plugins. */
export function checkPluginMeta (instance: Instance, fn: PluginFunction, name: string): void {
  const meta = fn[kPluginMeta]
  if (meta === undefined) return
  const range = meta.fastify
  if (typeof range === 'string' && !apiVersionsOf(instance).some((version) => supportsVersion(range, version))) {
    throw versionMismatch(instance, name, range)
  }
  const context = instance[kPluginContext]
  const decorators = meta.decorators ?? {}
  const checks: Array<[string[] | undefined, string, (d: string) => boolean]> = [
    [decorators.fastify, 'Fastify', (d) => d in instance],
    [decorators.reply, 'Reply', (d) => hasObjectDecorator(context, 'reply', d)],
    [decorators.request, 'Request', (d) => hasObjectDecorator(context, 'request', d)]
  ]
  // the plugin is named only when its metadata names it, as in Fastify's message
  const requiredBy = typeof meta.name === 'string' ? ` required by '${meta.name}'` : ''
  for (const [list, where, present] of checks) {
    for (const decorator of list ?? []) {
      if (!present(decorator)) throw new codes.FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE(decorator, requiredBy, where)
    }
  }
  for (const dependency of meta.dependencies ?? []) {
    if (!context.registeredPlugins.includes(dependency)) throw new codes.FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED(dependency, name)
  }
}
