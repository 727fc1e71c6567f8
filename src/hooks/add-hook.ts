/**
 * `instance.addHook(name, fn)`: checks the hook, then files it where it belongs: lifecycle hooks in the context's
 * lists (and its existing children's), application hooks in the application's, `onClose` with the loader.
 *
 * As in Fastify, a lifecycle hook (and `onRegister`, `preClose`) takes effect in loading order, after the plugins
 * registered before it: `register(fp(auth)); addHook('onRequest', audit)` runs auth's hook first. Only `onRoute`,
 * `onReady` and `onListen` are filed at once (routes registered next must see an onRoute hook).
 */
import { codes } from '../core/errors'
import { kApp, kPluginContext } from '../core/symbols'
import { assertNotStarted } from '../core/start-guard'
import type { AnyFn } from '../core/types'
import type { Instance } from '../encapsulation/app-state'
import type { PluginContext } from '../encapsulation/plugin-context'
import { inLoadingOrder } from '../encapsulation/loading-order'
import { supportedHooks, type HookName } from './hook-names'

/** Hooks whose callback form has a payload argument before `done`. */
const payloadHooks = new Set(['preParsing', 'preSerialization', 'onSend', 'onError'])

export function validateHook (name: unknown, fn: unknown): asserts fn is AnyFn {
  // a missing function is named as it was given ('instead got null'), before the hook's name is checked, as in Fastify
  if (fn === null || fn === undefined) throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, fn)
  if (typeof name !== 'string') throw new codes.FST_ERR_HOOK_INVALID_TYPE()
  if (!supportedHooks.has(name)) throw new codes.FST_ERR_HOOK_NOT_SUPPORTED(name)
  if (typeof fn !== 'function') throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
  checkAsyncArity(name, fn as AnyFn)
}

/** An async hook must not also take `done`: it would resolve the hook twice. (Route hook options too.) */
export function checkAsyncArity (name: string, fn: AnyFn): void {
  if (fn.constructor.name === 'AsyncFunction' && fn.length > maxAsyncArgs(name)) {
    throw new codes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER()
  }
}

function maxAsyncArgs (name: string): number {
  if (payloadHooks.has(name)) return 3
  if (name === 'onRequestAbort') return 1
  if (name === 'onRoute' || name === 'onRegister') return Infinity
  if (name === 'onClose') return 1
  if (name === 'onReady' || name === 'preClose' || name === 'onListen') return 0
  return 2
}

/** A context's hooks apply to all its descendants, including those created before the hook was added. */
function addToContextTree (context: PluginContext, name: HookName, fn: AnyFn): void {
  context.hooks[name].push(fn)
  for (const child of context.children) addToContextTree(child, name, fn)
}

export function addHook (this: Instance, name: string, fn: AnyFn): Instance {
  assertNotStarted(this, 'Cannot call "addHook"!')
  if (name === 'onClose') fn = disposerOf(fn) ?? fn
  validateHook(name, fn)
  switch (name) {
    case 'onClose':
      this.onClose(bindOnClose(fn, this))
      break
    case 'onReady':
    case 'onListen':
      this[kApp].applicationHooks[name].push({ fn, instance: this })
      break
    case 'onRoute':
      addToContextTree(this[kPluginContext], name, fn)
      break
    case 'preClose':
      inLoadingOrder(this, () => this[kApp].applicationHooks.preClose.push({ fn, instance: this }))
      break
    default:
      inLoadingOrder(this, () => addToContextTree(this[kPluginContext], name as HookName, fn))
  }
  return this
}

/** avvio calls onClose hooks without a `this`; Fastify binds them to their instance. The arity tells avvio the style. */
function bindOnClose (fn: AnyFn, instance: Instance): AnyFn {
  return fn.length >= 2
    ? (closing: unknown, done: AnyFn) => fn.call(instance, closing, done)
    : (closing: unknown) => fn.call(instance, closing)
}

/**
 * Fastify 5's onClose hook given as a resource (present at both levels): an `AsyncDisposable` or `Disposable` object,
 * disposed when the application closes (`Symbol.asyncDispose` preferred). Its failure is close()'s; its value is not.
 */
function disposerOf (resource: unknown): AnyFn | null {
  if (resource === null || typeof resource !== 'object') return null
  const object = resource as Record<symbol, unknown>
  const method = [Symbol.asyncDispose, Symbol.dispose].find((key) => typeof key === 'symbol' && typeof object[key] === 'function')
  if (method === undefined) return null
  return async function dispose () {
    await (object[method] as AnyFn).call(resource)
  }
}
