/** The hook names Enclave supports (Fastify 4's), and the per-context lists that hold them. */
import type { AnyFn } from '../core/types'
import type { PluginContext } from '../encapsulation/plugin-context'
import type { RouteOptions } from '../routing/route-model'

/** Hooks of a request's life: they run per request, in this order (onError, onTimeout, onRequestAbort when they happen). */
export const lifecycleHooks = [
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError',
  'onTimeout', 'onRequestAbort'
] as const
/** Hooks of the application's life: registration, start, listen and close. */
export const applicationHooks = ['onRoute', 'onRegister', 'onReady', 'onListen', 'onClose', 'preClose'] as const

export type LifecycleHookName = typeof lifecycleHooks[number]
export type ApplicationHookName = typeof applicationHooks[number]
export type HookName = LifecycleHookName | ApplicationHookName
export type HookLists = Record<HookName, AnyFn[]>

export const supportedHooks: ReadonlySet<string> = new Set<string>([...lifecycleHooks, ...applicationHooks])

export function emptyHooks (): HookLists {
  return copyHooks(null)
}

/** A child context's lists: copies of its parent's (empty lists for the root). */
export function copyHooks (hooks: HookLists | null): HookLists {
  const copy = {} as HookLists
  for (const name of supportedHooks as ReadonlySet<HookName>) copy[name] = hooks === null ? [] : hooks[name].slice()
  return copy
}

/** A route's list of one hook: its context's (inherited ones included), then the route option's (one or a list). */
export function routeHooks (plugin: PluginContext, options: RouteOptions, name: LifecycleHookName): AnyFn[] {
  const own: unknown = options[name]
  if (own === undefined) return plugin.hooks[name].slice()
  return plugin.hooks[name].concat(own as AnyFn | AnyFn[])
}
