/**
 * Plugin loading and encapsulation. Loading order, `after`, `ready`, `await register()` and the plugin timeout
 * come from avvio (the loader Fastify itself uses, so real plugins see the same ordering). Enclave supplies the
 * `override` step: each plugin gets a child instance with its own `PluginContext`, unless it is marked
 * `skip-override` (what `fastify-plugin` sets), in which case it shares its parent's.
 */
import avvio from 'avvio'
import semver from 'semver'
import { codes } from './errors'
import { kContext, kApp } from './symbols'
import { PluginContext, lifecycleHooks, applicationHooks, type HookLists, type AnyFn } from './context'
import { subclassRequest } from './request'
import { subclassReply } from './reply'
import { hasObjectDecorator } from './decorate'

/** The Fastify API level Enclave implements; plugins declare the Fastify range they support against it. */
export const FASTIFY_API_VERSION = '4.29.1'

const kSkipOverride = Symbol.for('skip-override')
const kDisplayName = Symbol.for('fastify.display-name')
const kPluginMeta = Symbol.for('plugin-meta')

interface PluginMeta {
  name?: string
  fastify?: string
  decorators?: { fastify?: string[], request?: string[], reply?: string[] }
  dependencies?: string[]
}

export function getPluginName (fn: any, opts?: any): string {
  const meta: PluginMeta | undefined = fn[kPluginMeta]
  if (meta?.name) return meta.name
  if (typeof fn[kDisplayName] === 'string') return fn[kDisplayName]
  if (opts?.name) return opts.name
  if (fn.name) return fn.name
  return fn.toString().split('\n').slice(0, 2).map((s: string) => s.trim()).join(' -- ')
}

export function copyHooks (hooks: HookLists): HookLists {
  const copy = {} as HookLists
  for (const name of lifecycleHooks) copy[name] = hooks[name].slice()
  for (const name of applicationHooks) copy[name] = hooks[name].slice()
  return copy
}

export function emptyHooks (): HookLists {
  const hooks = {} as HookLists
  for (const name of lifecycleHooks) hooks[name] = []
  for (const name of applicationHooks) hooks[name] = []
  return hooks
}

/** Joins a parent prefix and a plugin's `prefix` option the way Fastify does (exactly one slash between them). */
export function joinPrefix (parent: string, prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix === '') return parent
  if (parent.endsWith('/') && prefix.startsWith('/')) return parent + prefix.slice(1)
  return parent + (prefix.startsWith('/') ? prefix : '/' + prefix)
}

/** Checks a plugin's declared metadata: Fastify version range, required decorators, required plugins. */
function checkPluginMeta (instance: any, fn: any, name: string): void {
  const meta: PluginMeta | undefined = fn[kPluginMeta]
  if (meta === undefined) return
  if (typeof meta.fastify === 'string' && !semver.satisfies(FASTIFY_API_VERSION, meta.fastify, { includePrerelease: true })) {
    throw new codes.FST_ERR_PLUGIN_VERSION_MISMATCH(name, meta.fastify, FASTIFY_API_VERSION)
  }
  const context: PluginContext = instance[kContext]
  const decorators = meta.decorators ?? {}
  const checks: Array<[string[] | undefined, string, (d: string) => boolean]> = [
    [decorators.fastify, 'Fastify', (d) => d in instance],
    [decorators.request, 'Request', (d) => hasObjectDecorator(context, 'request', d)],
    [decorators.reply, 'Reply', (d) => hasObjectDecorator(context, 'reply', d)]
  ]
  for (const [list, where, present] of checks) {
    for (const decorator of list ?? []) {
      if (!present(decorator)) throw new codes.FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE(decorator, ` required by '${name}'`, where)
    }
  }
  for (const dependency of meta.dependencies ?? []) {
    if (!context.registeredPlugins.includes(dependency)) throw new codes.FST_ERR_PLUGIN_DEPENDENCY_MISSING(dependency, name)
  }
}

/** Creates the child instance a plugin runs in (avvio's `override`). */
function override (parent: any, fn: any, opts: any): any {
  const name = getPluginName(fn, opts)
  checkPluginMeta(parent, fn, name)
  const parentContext: PluginContext = parent[kContext]
  const metaName = (fn[kPluginMeta] as PluginMeta | undefined)?.name
  if (typeof metaName === 'string') parentContext.registeredPlugins.push(metaName)
  if (fn[kSkipOverride] === true) {
    // as in Fastify, a non-encapsulated plugin joins the name chain of the context it loads into
    parentContext.pluginName += ' -> ' + name
    parentContext.sharedPlugins.push(name)
    return parent
  }

  const instance = Object.create(parent)
  const Request = subclassRequest(parentContext.Request)
  const Reply = subclassReply(parentContext.Reply)
  Request.prototype.server = instance
  Reply.prototype.server = instance
  instance[kContext] = new PluginContext(parentContext, {
    instance,
    prefix: joinPrefix(parentContext.prefix, opts?.prefix),
    pluginName: name,
    hooks: copyHooks(parentContext.hooks),
    schema: parentContext.schema.child(),
    contentTypeParsers: parentContext.contentTypeParsers.child(),
    errorHandler: parentContext.errorHandler,
    replySerializer: parentContext.replySerializer,
    Request,
    Reply,
    requestProps: [],
    replyProps: [],
    registeredPlugins: parentContext.registeredPlugins.slice(),
    sharedPlugins: parentContext.sharedPlugins.slice(),
    ownPlugin: name,
    // as in Fastify, a skip-override plugin (returned above) cannot set a level: it has no context of its own
    logLevel: opts?.logLevel ?? parentContext.logLevel,
    logSerializers: mergeLogSerializers(parentContext.logSerializers, opts?.logSerializers)
  })
  parentContext.children.push(instance[kContext])
  for (const hook of parentContext.hooks.onRegister) hook.call(parent, instance, opts)
  return instance
}

/** The parent's serializers overlaid by the plugin's; a value that is not an object is kept as given for routes to reject. */
function mergeLogSerializers (inherited: Record<string, AnyFn> | undefined, own: unknown): Record<string, AnyFn> | undefined {
  if (own === undefined) return inherited
  if (typeof own !== 'object' || own === null || Array.isArray(own)) return own as any
  return { ...inherited, ...own }
}

/**
 * avvio lets a plugin's synchronous throw escape as an uncaught exception (crashing the process); the guard hands
 * it to `done` instead, so `ready()` rejects. It carries the plugin's name, metadata symbols and source, which avvio
 * and `override` read.
 */
function guardPlugin (plugin: any): any {
  if (plugin !== null && typeof plugin === 'object' && typeof plugin.then === 'function') {
    return plugin.then((mod: any) => guardPlugin(typeof mod?.default === 'function' ? mod.default : mod))
  }
  if (plugin !== null && typeof plugin === 'object' && typeof plugin.default === 'function') return guardPlugin(plugin.default)
  if (typeof plugin !== 'function') return plugin // avvio rejects it with its own error
  const guarded = function (this: any, instance: any, opts: any, done: (err?: Error) => void): any {
    try {
      return plugin.call(this, instance, opts, done)
    } catch (err) {
      done(err as Error)
      return undefined
    }
  }
  const { prototype: _prototype, ...own } = Object.getOwnPropertyDescriptors(plugin)
  Object.defineProperties(guarded, own)
  Object.defineProperty(guarded, 'toString', { value: () => plugin.toString(), configurable: true })
  return guarded
}

/** Attaches avvio to the root instance: it defines `register`, `after`, `ready`, `onClose`, `close` and `then`. */
export function attachPluginLoader (root: any, pluginTimeout: number): any {
  const loader = avvio(root, { autostart: false, timeout: pluginTimeout, expose: { use: 'register' } })
  loader.override = override
  loader.on('start', () => { root[kApp].started = true })
  const use = root.register
  root.register = function register (this: any, plugin: unknown, opts?: unknown): any {
    return use.call(this, guardPlugin(plugin), opts)
  }
  return loader
}

/** Turns avvio's timeout error into Enclave's, keeping the plugin's name in the message. */
export function translateLoaderError (err: any): Error {
  if (err && (err.code === 'AVV_ERR_PLUGIN_EXEC_TIMEOUT' || err.code === 'AVV_ERR_READY_TIMEOUT')) {
    // anchored on avvio's fixed suffix: the name may itself contain quotes, and the suffix does ('done')
    const match = /time: '([\s\S]*)'\. You may have forgotten/.exec(err.message)
    const name = match ? match[1] : 'unknown'
    const translated = new codes.FST_ERR_PLUGIN_TIMEOUT(`Plugin did not start in time: '${name}'. You may have forgotten to call 'done' function or to resolve a Promise`)
    ;(translated as any).cause = err
    return translated
  }
  return err
}
