/**
 * Decorators. Instance decorators are own properties of the context's instance object (children see them through
 * the prototype chain). Request/reply decorators go on the context's request/reply prototypes when they are
 * functions or accessors, and into a per-context list of own properties otherwise, so every request starts with
 * the same shape and its own copy of the value.
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kPluginContext } from '../core/symbols'
import { assertNotStarted } from '../core/start-guard'
import type { Instance } from './app-state'
import type { OwnDecorator, PluginContext } from './plugin-context'

type Target = 'instance' | 'request' | 'reply'

/** `{ getter, setter }`: a decorator that defines an accessor. */
interface Accessor { getter?: () => unknown, setter?: (value: unknown) => void }

function isAccessor (value: unknown): value is Accessor {
  if (value === null || typeof value !== 'object') return false
  const { getter, setter } = value as Accessor
  return typeof getter === 'function' || typeof setter === 'function'
}

function propsOf (context: PluginContext, target: 'request' | 'reply'): OwnDecorator[] {
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

function exists (instance: Instance, target: Target, name: string | symbol): boolean {
  return target === 'instance' ? name in instance : hasObjectDecorator(instance[kPluginContext], target, name)
}

function checkDependencies (instance: Instance, target: Target, name: string | symbol, dependencies: unknown): void {
  if (dependencies === undefined) return
  if (!Array.isArray(dependencies)) throw new codes.FST_ERR_DEC_DEPENDENCY_INVALID_TYPE(String(name))
  for (const dependency of dependencies) {
    if (!exists(instance, target, dependency)) throw new codes.FST_ERR_DEC_MISSING_DEPENDENCY(dependency)
  }
}

function define (object: Record<string | symbol, unknown>, name: string | symbol, value: unknown): void {
  if (isAccessor(value)) {
    Object.defineProperty(object, name, { get: value.getter, set: value.setter, configurable: true, enumerable: false })
  } else {
    object[name] = value
  }
}

function decorateObject (instance: Instance, target: 'request' | 'reply', name: string | symbol, value: unknown, dependencies: unknown): void {
  assertNotStarted(instance, String(name), codes.FST_ERR_DEC_AFTER_START)
  const context: PluginContext = instance[kPluginContext]
  const method = typeof value === 'function' || isAccessor(value)
  // a method an ancestor context decorated may be decorated again here, for this context and its children, and a
  // function may replace a built-in method (`reply.getHeader`), as in Fastify; fields and accessors stay refused
  if (exists(instance, target, name) && !(method && isAncestorMethod(context, target, name)) &&
    !(typeof value === 'function' && isBuiltInMethod(context, target, name))) {
    throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
  }
  checkDependencies(instance, target, name, dependencies)
  if (method) {
    define(target === 'request' ? context.Request.prototype : context.Reply.prototype, name, value)
    return
  }
  if (value !== null && typeof value === 'object') {
    warnDeprecated('referenceDecorator', String(name))
  }
  propsOf(context, target).push([name, value])
}

/** Whether `name` is a method or accessor an ancestor context (not this one, nor the framework) put on its class. */
function isAncestorMethod (context: PluginContext, target: 'request' | 'reply', name: string | symbol): boolean {
  const prototypeOf = (ctx: PluginContext): object => target === 'request' ? ctx.Request.prototype : ctx.Reply.prototype
  if (Object.hasOwn(prototypeOf(context), name)) return false
  for (let ctx = context.parent; ctx !== null; ctx = ctx.parent) {
    if (Object.hasOwn(prototypeOf(ctx), name)) return true
  }
  return false
}

/** Whether `name` is a method of the framework's own Request/Reply class (below every context's class). */
function isBuiltInMethod (context: PluginContext, target: 'request' | 'reply', name: string | symbol): boolean {
  let root = context
  while (root.parent !== null) root = root.parent
  const rootPrototype: object = target === 'request' ? root.Request.prototype : root.Reply.prototype
  for (let proto = Object.getPrototypeOf(rootPrototype); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)
    if (descriptor !== undefined) return typeof descriptor.value === 'function'
  }
  return false
}

/**
 * Whether `name` on `instance` is a decorator an ancestor context added: a plugin may then decorate the name again
 * for itself and its children, as in Fastify. The framework's own members are never shadowed.
 */
function isAncestorDecorator (instance: Instance, name: string | symbol): boolean {
  if (Object.hasOwn(instance, name)) return false
  for (let context: PluginContext | null = instance[kPluginContext].parent; context !== null; context = context.parent) {
    if (context.instanceDecorators.has(name)) return true
  }
  return false
}

export const decoratorInstanceMethods = {
  decorate (this: Instance, name: string | symbol, value: unknown, dependencies?: string[]) {
    assertNotStarted(this, String(name), codes.FST_ERR_DEC_AFTER_START)
    if (name in this && !isAncestorDecorator(this, name)) throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
    checkDependencies(this, 'instance', name, dependencies)
    define(this, name, value)
    this[kPluginContext].instanceDecorators.add(name)
    return this
  },
  decorateRequest (this: Instance, name: string | symbol, value: unknown, dependencies?: string[]) {
    decorateObject(this, 'request', name, value, dependencies)
    return this
  },
  decorateReply (this: Instance, name: string | symbol, value: unknown, dependencies?: string[]) {
    decorateObject(this, 'reply', name, value, dependencies)
    return this
  },
  hasDecorator (this: Instance, name: string | symbol): boolean {
    return name in this
  },
  hasRequestDecorator (this: Instance, name: string | symbol): boolean {
    return hasObjectDecorator(this[kPluginContext], 'request', name)
  },
  hasReplyDecorator (this: Instance, name: string | symbol): boolean {
    return hasObjectDecorator(this[kPluginContext], 'reply', name)
  }
}

/** Own-property decorators of a context and its ancestors, root first: what a route's request/reply start with. */
export function collectProps (context: PluginContext, target: 'request' | 'reply'): OwnDecorator[] {
  return context.chain().flatMap((ctx) => propsOf(ctx, target))
}
