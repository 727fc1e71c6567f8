/**
 * Decorators. Instance decorators are own properties of the context's instance object (children see them through
 * the prototype chain). Request/reply decorators go on the context's request/reply prototypes when they are
 * functions or accessors, and into a per-context list of own properties otherwise, so every request starts with
 * the same shape and its own copy of the value.
 */
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { kContext, kApp } from './symbols'
import type { PluginContext } from './context'

type Target = 'instance' | 'request' | 'reply'

function isAccessor (value: any): boolean {
  return value !== null && typeof value === 'object' && (typeof value.getter === 'function' || typeof value.setter === 'function')
}

function propsOf (context: PluginContext, target: 'request' | 'reply'): Array<[string | symbol, unknown]> {
  return target === 'request' ? context.requestProps : context.replyProps
}

/**
 * Fields the request/reply constructors set as own properties (`subclassRequest`, `subclassReply`): they are not on
 * the prototype, yet a decorator of that name would be shadowed or clobber the framework's value.
 */
const constructorFields = {
  request: new Set<string | symbol>(['id', 'params', 'raw', 'query', 'log', 'body', 'headers']),
  reply: new Set<string | symbol>(['raw', 'request', 'log'])
}

/** Whether a request/reply decorator (or built-in member) is visible in this context (own or inherited). */
export function hasObjectDecorator (context: PluginContext, target: 'request' | 'reply', name: string | symbol): boolean {
  const Class = target === 'request' ? context.Request : context.Reply
  if (name in Class.prototype || constructorFields[target].has(name)) return true
  for (let ctx: PluginContext | null = context; ctx !== null; ctx = ctx.parent) {
    if (propsOf(ctx, target).some(([key]) => key === name)) return true
  }
  return false
}

function exists (instance: any, target: Target, name: string | symbol): boolean {
  return target === 'instance' ? name in instance : hasObjectDecorator(instance[kContext], target, name)
}

function checkDependencies (instance: any, target: Target, name: string | symbol, dependencies: unknown): void {
  if (dependencies === undefined) return
  if (!Array.isArray(dependencies)) throw new codes.FST_ERR_DEC_DEPENDENCY_INVALID_TYPE(String(name))
  for (const dependency of dependencies) {
    if (!exists(instance, target, dependency)) throw new codes.FST_ERR_DEC_MISSING_DEPENDENCY(dependency)
  }
}

function define (object: any, name: string | symbol, value: any): void {
  if (isAccessor(value)) {
    Object.defineProperty(object, name, { get: value.getter, set: value.setter, configurable: true, enumerable: false })
  } else {
    object[name] = value
  }
}

function decorateObject (instance: any, target: 'request' | 'reply', name: string | symbol, value: unknown, dependencies: unknown): void {
  if (instance[kApp].started) throw new codes.FST_ERR_DEC_AFTER_START(String(name))
  if (exists(instance, target, name)) throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
  checkDependencies(instance, target, name, dependencies)
  const context: PluginContext = instance[kContext]
  if (typeof value === 'function' || isAccessor(value)) {
    define(target === 'request' ? context.Request.prototype : context.Reply.prototype, name, value)
    return
  }
  if (value !== null && typeof value === 'object') {
    warnDeprecated('referenceDecorator', String(name))
  }
  propsOf(context, target).push([name, value])
}

/**
 * Whether `name` on `instance` is a decorator an ancestor context added: a plugin may then decorate the name again
 * for itself and its children, as in Fastify. The framework's own members are never shadowed.
 */
function isAncestorDecorator (instance: any, name: string | symbol): boolean {
  if (Object.hasOwn(instance, name)) return false
  for (let context: PluginContext | null = instance[kContext].parent; context !== null; context = context.parent) {
    if (context.instanceDecorators.has(name)) return true
  }
  return false
}

export const decoratorInstanceMethods = {
  decorate (this: any, name: string | symbol, value: unknown, dependencies?: string[]) {
    if (this[kApp].started) throw new codes.FST_ERR_DEC_AFTER_START(String(name))
    if (name in this && !isAncestorDecorator(this, name)) throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
    checkDependencies(this, 'instance', name, dependencies)
    define(this, name, value)
    this[kContext].instanceDecorators.add(name)
    return this
  },
  decorateRequest (this: any, name: string | symbol, value: unknown, dependencies?: string[]) {
    decorateObject(this, 'request', name, value, dependencies)
    return this
  },
  decorateReply (this: any, name: string | symbol, value: unknown, dependencies?: string[]) {
    decorateObject(this, 'reply', name, value, dependencies)
    return this
  },
  hasDecorator (this: any, name: string | symbol): boolean {
    return name in this
  },
  hasRequestDecorator (this: any, name: string | symbol): boolean {
    return hasObjectDecorator(this[kContext], 'request', name)
  },
  hasReplyDecorator (this: any, name: string | symbol): boolean {
    return hasObjectDecorator(this[kContext], 'reply', name)
  }
}

/** Own-property decorators of a context and its ancestors, root first: what a route's request/reply start with. */
export function collectProps (context: PluginContext, target: 'request' | 'reply'): Array<[string | symbol, unknown]> {
  const chain: PluginContext[] = []
  for (let ctx: PluginContext | null = context; ctx !== null; ctx = ctx.parent) chain.unshift(ctx)
  return chain.flatMap((ctx) => propsOf(ctx, target))
}
