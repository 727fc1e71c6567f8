/**
 * Plugin loading and encapsulation. Loading order, `after`, `ready`, `await register()` and the plugin timeout
 * come from avvio (the loader Fastify itself uses, so real plugins see the same ordering). Enclave supplies the
 * `override` step: each plugin gets a child instance with its own `PluginContext`, unless it is marked
 * `skip-override` (what `fastify-plugin` sets), in which case it shares its parent's.
 */
import avvio from 'avvio'
import { codes } from '../core/errors'
import { kPluginContext, kApp, kSkipOverride, kDisplayName, kPluginMeta, kRegisteredFunction } from '../core/symbols'
import type { AnyFn } from '../core/types'
import { isThenable } from '../core/objects'
import type { AppState, Instance } from '../encapsulation/app-state'
import { PluginContext } from '../encapsulation/plugin-context'
import { copyHooks } from '../hooks/hook-names'
import { subclassRequest } from '../request/request'
import { subclassReply } from '../reply/reply'
import { checkPluginMeta, checkPluginStyle, getPluginName, metaName, skipsOverride, type PluginFunction } from './plugin-meta'

/** The register options Enclave reads; the rest is the plugin's own. */
interface RegisterOptions {
  prefix?: unknown
  logLevel?: string
  logSerializers?: unknown
  name?: unknown
}

/**
 * Joins a parent prefix and a plugin's `prefix` option the way Fastify does (one slash between them). A prefix
 * without its leading slash under a parent ending in one is joined as is where the level says so (Fastify 5:
 * '/v1/' + 'inner' is '/v1/inner'; Fastify 4 adds a slash: '/v1//inner').
 */
export function joinPrefix (parent: string, prefix: unknown, joinsAfterSlash: boolean): string {
  if (typeof prefix !== 'string' || prefix === '') return parent
  if (parent.endsWith('/') && prefix.startsWith('/')) return parent + prefix.slice(1)
  if (prefix.startsWith('/') || (joinsAfterSlash && parent.endsWith('/'))) return parent + prefix
  return parent + '/' + prefix
}

/**
 * Creates the child instance a plugin runs in (avvio's `override`, called with avvio's boot object as `this`, which
 * onRegister hooks receive as theirs at the Fastify 4 level: plugins that map the tree read its current plugin).
 */
function override (this: unknown, parent: Instance, fn: PluginFunction, opts: RegisterOptions | undefined): Instance {
  const registered = fn[kRegisteredFunction] ?? fn
  const name = getPluginName(registered)
  checkPluginStyle(parent, registered)
  const declaredName = metaName(fn)
  // errors about its metadata name the plugin by its metadata's name, as Fastify's do
  checkPluginMeta(parent, fn, declaredName ?? name)
  const parentContext = parent[kPluginContext]
  if (declaredName !== undefined) parentContext.registeredPlugins.push(declaredName)
  if (skipsOverride(fn)) {
    // as in Fastify, a non-encapsulated plugin joins the name chain of the context it loads into
    parentContext.pluginName += ' -> ' + name
    parentContext.sharedPlugins.push(name)
    return parent
  }

  const instance: Instance = Object.create(parent)
  const Request = subclassRequest(parentContext.Request)
  const Reply = subclassReply(parentContext.Reply)
  Request.prototype.server = instance
  Reply.prototype.server = instance
  instance[kPluginContext] = new PluginContext(parentContext, {
    instance,
    prefix: joinPrefix(parentContext.prefix, opts?.prefix, parent[kApp].level.prefixJoinsAfterSlash),
    pluginName: name,
    hooks: copyHooks(parentContext.hooks),
    schema: parentContext.schema.child(),
    contentTypeParsers: parentContext.contentTypeParsers.child(),
    errorHandler: parentContext.errorHandler,
    replySerializer: parentContext.replySerializer,
    Request,
    Reply,
    registeredPlugins: parentContext.registeredPlugins.slice(),
    sharedPlugins: parentContext.sharedPlugins.slice(),
    ownPlugin: name,
    // as in Fastify, a skip-override plugin (returned above) cannot set a level: it has no context of its own
    logLevel: opts?.logLevel ?? parentContext.logLevel,
    logSerializers: mergeLogSerializers(parentContext.logSerializers, opts?.logSerializers)
  })
  parentContext.children.push(instance[kPluginContext])
  // the level decides the hooks' `this` (src/core/api-level.ts): avvio's loader (Fastify 4) or the parent (Fastify 5)
  const self = parent[kApp].level.onRegisterThis === 'parent' ? parent : this
  for (const hook of parentContext.hooks.onRegister) hook.call(self, instance, opts)
  return instance
}

/** The parent's serializers overlaid by the plugin's; a value that is not an object is kept as given for routes to reject. */
function mergeLogSerializers (inherited: Record<string, AnyFn> | undefined, own: unknown): Record<string, AnyFn> | undefined {
  if (own === undefined) return inherited
  if (typeof own !== 'object' || own === null || Array.isArray(own)) return own as Record<string, AnyFn>
  return { ...inherited, ...own }
}

/**
 * avvio lets a plugin's synchronous throw escape as an uncaught exception (crashing the process); the guard hands
 * it to `done` instead, so `ready()` rejects. It carries the plugin's name, metadata symbols and source, which avvio
 * and `override` read, and the function itself (`kRegisteredFunction`), whose style `override` checks.
 */
function guardPlugin (plugin: unknown, loadsWithoutDone: boolean): unknown {
  if (plugin !== null && typeof plugin === 'object' && typeof (plugin as PromiseLike<unknown>).then === 'function') {
    return (plugin as PromiseLike<{ default?: unknown }>).then((mod) => guardPlugin(typeof mod?.default === 'function' ? mod.default : mod, loadsWithoutDone))
  }
  if (plugin !== null && typeof plugin === 'object' && typeof (plugin as { default?: unknown }).default === 'function') {
    return guardPlugin((plugin as { default: unknown }).default, loadsWithoutDone)
  }
  if (typeof plugin !== 'function') return plugin // avvio rejects it with its own error
  const guarded = function (this: unknown, instance: Instance, opts: unknown, done: (err?: Error) => void): unknown {
    try {
      const result = plugin.call(this, instance, opts, done)
      // the level decides (src/core/api-level.ts): at Fastify 5's, a plugin that declares no `done` and returns no
      // promise has loaded when it returns (avvio 9's rule); Fastify 4's waits for `done`, which a plugin declared
      // with a default before it (`(app, opts = {}, next)`, length 1) still calls
      if (loadsWithoutDone && plugin.length < 3 && !isThenable(result)) done()
      return result
    } catch (err) {
      done(err as Error)
      return undefined
    }
  }
  const { prototype: _prototype, ...own } = Object.getOwnPropertyDescriptors(plugin)
  Object.defineProperties(guarded, own)
  Object.defineProperty(guarded, 'toString', { value: () => plugin.toString(), configurable: true })
  Object.defineProperty(guarded, kRegisteredFunction, { value: plugin })
  // read when the plugin loads, as Fastify does: code may mark a plugin after registering it (a hoisted function)
  for (const key of [kSkipOverride, kDisplayName, kPluginMeta]) {
    Object.defineProperty(guarded, key, { get: () => Reflect.get(plugin, key), configurable: true })
  }
  return guarded
}

/** Attaches avvio to the root instance: it defines `register`, `after`, `ready`, `onClose`, `close` and `then`. */
export function attachPluginLoader (root: Instance, pluginTimeout: number): AppState['loader'] {
  const loadsWithoutDone = root[kApp].level.pluginLoadsWithoutDone
  const loader = avvio(root, { autostart: false, timeout: pluginTimeout, expose: { use: 'register' } })
  loader.override = override as never
  loader.on('start', () => { root[kApp].started = true })
  const use = root.register
  root.register = function register (this: Instance, plugin: unknown, opts?: unknown): unknown {
    return use.call(this, guardPlugin(plugin, loadsWithoutDone), opts)
  }
  return loader as unknown as AppState['loader']
}

/** Turns avvio's timeout error into Enclave's, keeping the plugin's name in the message. */
export function translateLoaderError (err: Error & { code?: string }): Error {
  if (err.code === 'AVV_ERR_PLUGIN_EXEC_TIMEOUT' || err.code === 'AVV_ERR_READY_TIMEOUT') {
    // anchored on avvio's fixed suffix: the name may itself contain quotes, and the suffix does ('done')
    const match = /time: '([\s\S]*)'\. You may have forgotten/.exec(err.message)
    const name = match ? match[1] : 'unknown'
    const translated = new codes.FST_ERR_PLUGIN_TIMEOUT(`Plugin did not start in time: '${name}'. You may have forgotten to call 'done' function or to resolve a Promise`)
    translated.cause = err
    return translated
  }
  return err
}
