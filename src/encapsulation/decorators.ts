/**
 * Decorators. Instance decorators are own properties of the context's instance object (children see them through
 * the prototype chain). Request/reply decorators go on the context's request/reply prototypes when they are
 * functions or accessors, and into a per-context list of own properties otherwise, so every request starts with
 * the same shape and its own copy of the value.
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kApp, kPluginContext } from '../core/symbols'
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
 * the prototype, yet a decorator of that name meets the framework's value on every request.
 */
const constructorFields = {
  request: new Set<string | symbol>(['id', 'params', 'raw', 'query', 'log', 'body']),
  reply: new Set<string | symbol>(['raw', 'request', 'log'])
}

/**
 * Members the framework itself reads on every request, so that no decorator may take their name (in Fastify such a
 * decorator ends the process or leaves requests unanswered). `server` is set per context by the plugin loader.
 */
const vitalMembers = {
  request: new Set<string | symbol>(['raw', 'server']),
  reply: new Set<string | symbol>(['raw', 'request', 'server', 'send', 'sent'])
}

/** Whether a request/reply decorator (or built-in member) is visible in this context (own or inherited). */
export function hasObjectDecorator (context: PluginContext, target: 'request' | 'reply', name: string | symbol): boolean {
  const Class = target === 'request' ? context.Request : context.Reply
  if (name in Class.prototype || constructorFields[target].has(name)) return true
  return context.chain().some((ctx) => propsOf(ctx, target).some(([key]) => key === name))
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

/** What a decorator value is, as far as meeting a built-in member goes. */
type DecoratorKind = 'value' | 'function' | 'getter' | 'accessor'

function kindOf (value: unknown): DecoratorKind {
  if (typeof value === 'function') return 'function'
  if (!isAccessor(value)) return 'value'
  return typeof value.setter === 'function' ? 'accessor' : 'getter'
}

function decorateObject (instance: Instance, target: 'request' | 'reply', name: string | symbol, value: unknown, dependencies: unknown): void {
  assertNotStarted(instance, String(name), codes.FST_ERR_DEC_AFTER_START)
  const context: PluginContext = instance[kPluginContext]
  const kind = kindOf(value)
  const shared = kind === 'value' && value !== null && typeof value === 'object'
  // the level decides (src/core/api-level.ts): Fastify 5 refuses a value every request would share
  if (shared && instance[kApp].level.referenceDecorators === 'throw') {
    throw new codes.FST_ERR_DEC_REFERENCE_TYPE(String(name), typeof value)
  }
  // as in Fastify: a name is taken once per context (an ancestor's method or accessor may be decorated again)
  if (isDecoratedIn(context, target, name) || !fitsBuiltIn(context, target, name, kind, instance[kApp].level.decoratorsOverFields)) {
    throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
  }
  checkDependencies(instance, target, name, dependencies)
  if (kind !== 'value') {
    define(target === 'request' ? context.Request.prototype : context.Reply.prototype, name, value)
    return
  }
  if (shared) warnDeprecated('referenceDecorator', String(name))
  propsOf(context, target).push([name, value])
}

/** A method or accessor on this context's own class, or a value decorator of this context or an ancestor. */
function isDecoratedIn (context: PluginContext, target: 'request' | 'reply', name: string | symbol): boolean {
  const prototype: object = target === 'request' ? context.Request.prototype : context.Reply.prototype
  return Object.hasOwn(prototype, name) || context.chain().some((ctx) => propsOf(ctx, target).some(([key]) => key === name))
}

/**
 * Whether a decorator of this kind can live beside the built-in member of that name, as it does in Fastify 4: an
 * accessor wins over a built-in getter; a value replaces a constructor field or a method on each request (or goes
 * through a built-in setter); a function may replace a method. Refused: what would throw on every request or at
 * once in Fastify (a value over a getter, a getter alone over a field the constructor assigns), and vital members.
 * At the Fastify 5 level no decorator may take the name of a field the constructor assigns.
 */
function fitsBuiltIn (context: PluginContext, target: 'request' | 'reply', name: string | symbol, kind: DecoratorKind,
  overFields: boolean): boolean {
  if (constructorFields[target].has(name)) {
    // the level decides: Fastify 5 refuses every decorator named after a field the constructor sets
    if (!overFields) return false
    // a function never meets a constructor field: the field, an own property, hides it on every request
    return kind === 'function' || (kind !== 'getter' && !vitalMembers[target].has(name))
  }
  if (vitalMembers[target].has(name)) return false
  const builtIn = builtInDescriptor(context, target, name)
  if (builtIn === undefined || typeof builtIn.value === 'function') return true
  if (kind === 'getter' || kind === 'accessor') return true
  return kind === 'value' && builtIn.set !== undefined
}

/** The descriptor of `name` on the framework's own Request/Reply class (below every context's class), if any. */
function builtInDescriptor (context: PluginContext, target: 'request' | 'reply', name: string | symbol): PropertyDescriptor | undefined {
  const root = context.chain()[0]
  const rootPrototype: object = target === 'request' ? root.Request.prototype : root.Reply.prototype
  for (let proto = Object.getPrototypeOf(rootPrototype); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)
    if (descriptor !== undefined) return descriptor
  }
  return undefined
}

/**
 * Whether `decorate(name)` is refused on this instance, as in Fastify 4: a name the context itself already has (on
 * the root, every member of the instance API), or an inherited getter a plain value could not shadow. A plugin may
 * otherwise shadow an inherited member or decorator for itself and its children.
 */
function isTakenOnInstance (instance: Instance, name: string | symbol, value: unknown): boolean {
  if (Object.hasOwn(instance, name)) return true
  // the root's prototype holds the instance API, which Fastify keeps as the root's own members
  if (instance[kPluginContext].parent === null && Object.hasOwn(Object.getPrototypeOf(instance), name)) return true
  if (isAccessor(value)) return false
  for (let proto = Object.getPrototypeOf(instance); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)
    if (descriptor !== undefined) return descriptor.get !== undefined && descriptor.set === undefined
  }
  return false
}

export const decoratorInstanceMethods = {
  decorate (this: Instance, name: string | symbol, value: unknown, dependencies?: string[]) {
    assertNotStarted(this, String(name), codes.FST_ERR_DEC_AFTER_START)
    if (isTakenOnInstance(this, name, value)) throw new codes.FST_ERR_DEC_ALREADY_PRESENT(String(name))
    checkDependencies(this, 'instance', name, dependencies)
    define(this, name, value)
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
  /** Fastify 5's `getDecorator` (present at both levels): the decorator's value, a function bound to the instance. */
  getDecorator (this: Instance, name: string | symbol): unknown {
    if (!(name in this)) throw new codes.FST_ERR_DEC_UNDECLARED(String(name), 'instance')
    return boundValue(this, name)
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

/** The member's value, read once (a getter runs once); a function comes bound to its owner. */
function boundValue (owner: Record<string | symbol, unknown>, name: string | symbol): unknown {
  const value = owner[name]
  return typeof value === 'function' ? value.bind(owner) : value
}

/**
 * Fastify 5's `request.getDecorator` / `setDecorator` and `reply.getDecorator` (no `reply.setDecorator` in 5.12.8),
 * present at both levels. A name is declared when the request or reply has it: a decorator of its route's context
 * (or an ancestor's), or a built-in member. The application installs them on the framework's own classes.
 */
export const requestDecoratorMethods = {
  getDecorator (this: Record<string | symbol, unknown>, name: string | symbol): unknown {
    if (!(name in this)) throw new codes.FST_ERR_DEC_UNDECLARED(String(name), 'request')
    return boundValue(this, name)
  },
  setDecorator (this: Record<string | symbol, unknown>, name: string | symbol, value: unknown): void {
    if (!(name in this)) throw new codes.FST_ERR_DEC_UNDECLARED(String(name), 'request')
    this[name] = value
  }
}

export const replyDecoratorMethods = {
  getDecorator (this: Record<string | symbol, unknown>, name: string | symbol): unknown {
    if (!(name in this)) throw new codes.FST_ERR_DEC_UNDECLARED(String(name), 'reply')
    return boundValue(this, name)
  }
}
