/**
 * Hooks: `addHook` validation and the runners used on the request path. A hook may be a callback-style function
 * (calls `done`) or return a promise; either way the runner moves on exactly once per hook.
 */
import { codes } from './errors'
import { kContext, kApp, kReplyErrorHandlerIndex } from './symbols'
import { lifecycleHooks, applicationHooks, type AnyFn, type HookName, type PluginContext } from './context'


/** Hooks whose callback form has a payload argument before `done`. */
const payloadHooks = new Set(['preParsing', 'preSerialization', 'onSend', 'onError'])
const supported = new Set<string>([...lifecycleHooks, ...applicationHooks])

export function validateHook (name: unknown, fn: unknown): void {
  if (typeof name !== 'string') throw new codes.FST_ERR_HOOK_INVALID_TYPE()
  if (!supported.has(name)) throw new codes.FST_ERR_HOOK_NOT_SUPPORTED(name)
  if (typeof fn !== 'function') throw new codes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
  // An async hook must not also take `done`: it would resolve the hook twice.
  if (fn.constructor.name === 'AsyncFunction' && fn.length > maxAsyncArgs(name)) {
    throw new codes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER()
  }
}

function maxAsyncArgs (name: string): number {
  if (payloadHooks.has(name)) return 3
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

/** `instance.addHook(name, fn)`: lifecycle hooks go to this context's lists (copied by children at creation). */
export function addHook (this: any, name: string, fn: AnyFn): any {
  validateHook(name, fn)
  const app = this[kApp]
  const context = this[kContext]
  if (app.started) throw new codes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot call "addHook"!')
  switch (name) {
    case 'onClose':
      this.onClose(bindOnClose(fn, this))
      break
    case 'onReady':
    case 'preClose':
    case 'onListen':
      app.applicationHooks[name].push({ fn, instance: this })
      break
    default:
      addToContextTree(context, name as HookName, fn)
  }
  return this
}

/** avvio calls onClose hooks without a `this`; Fastify binds them to their instance. The arity tells avvio the style. */
function bindOnClose (fn: AnyFn, instance: any): AnyFn {
  return fn.length >= 2
    ? (closing: any, done: AnyFn) => fn.call(instance, closing, done)
    : (closing: any) => fn.call(instance, closing)
}

export function toError (value: unknown): Error {
  if (value instanceof Error) return value
  if (value === undefined || value === null) return new codes.FST_ERR_SEND_UNDEFINED_ERR()
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const err = new Error(typeof obj.message === 'string' ? obj.message : 'Non-error value thrown')
    if (typeof obj.statusCode === 'number') (err as any).statusCode = obj.statusCode
    if (typeof obj.code === 'string') (err as any).code = obj.code
    return err
  }
  return new Error(String(value))
}

/** True once the reply is answered, hijacked, or in the error handler: later hooks must not run. */
export function isAnswered (reply: any): boolean {
  return reply.sent === true || reply[kReplyErrorHandlerIndex] !== null
}

type Done = (err: Error | null, request: any, reply: any) => void

/**
 * Runs `(request, reply, done)` hooks in order. With `stopWhenAnswered`, a hook that answers (or hijacks) ends the
 * chain silently; otherwise (onResponse, onTimeout) every hook runs.
 */
export function runHooks (hooks: AnyFn[], request: any, reply: any, stopWhenAnswered: boolean, done: Done): void {
  let index = 0
  let settled = false
  next()

  function next (err?: unknown): void {
    if (stopWhenAnswered && isAnswered(reply)) return
    if (err !== undefined && err !== null) {
      done(toError(err), request, reply)
      return
    }
    if (index === hooks.length) {
      done(null, request, reply)
      return
    }
    const fn = hooks[index++]
    settled = false
    let result: any
    try {
      result = fn(request, reply, once)
    } catch (error) {
      settled = true
      done(toError(error), request, reply)
      return
    }
    if (result !== undefined && result !== null && typeof result.then === 'function') {
      result.then(resolved, rejected)
    }
  }
  // A callback hook that both calls `done` and returns a promise must not advance twice.
  function once (err?: unknown): void {
    if (settled) return
    settled = true
    next(err)
  }
  function resolved (): void { once() }
  function rejected (err: unknown): void {
    if (settled) return
    settled = true
    done(toError(err), request, reply)
  }
}

type PayloadDone = (err: Error | null, reply: any, payload: any) => void

/** Runs `(request, reply, payload, done(err, newPayload))` hooks; an async hook's resolved value replaces the payload. */
export function runPayloadHooks (hooks: AnyFn[], request: any, reply: any, payload: unknown, done: PayloadDone): void {
  let index = 0
  let current = payload
  let settled = false
  next(null, payload)

  function next (err: unknown, newPayload?: unknown): void {
    if (err !== undefined && err !== null) {
      done(toError(err), reply, current)
      return
    }
    if (newPayload !== undefined) current = newPayload
    if (index === hooks.length) {
      done(null, reply, current)
      return
    }
    const fn = hooks[index++]
    settled = false
    let result: any
    try {
      result = fn(request, reply, current, once)
    } catch (error) {
      settled = true
      done(toError(error), reply, current)
      return
    }
    if (result !== undefined && result !== null && typeof result.then === 'function') {
      result.then(resolved, rejected)
    }
  }
  function once (err?: unknown, newPayload?: unknown): void {
    if (settled) return
    settled = true
    next(err, newPayload)
  }
  function resolved (value: unknown): void { once(null, value) }
  function rejected (err: unknown): void {
    if (settled) return
    settled = true
    done(toError(err), reply, current)
  }
}

/**
 * Runs the application hooks `name` (`onReady`, `preClose`, `onListen`) one after another with `this` = their
 * instance, in Fastify's order: context by context, depth first from the root, and in a context as they were added
 * (so a hook that fastify-plugin adds to a context runs with that context's).
 */
export async function runApplicationHooks (app: any, name: 'onReady' | 'preClose' | 'onListen'): Promise<void> {
  const order = new Map<PluginContext, number>()
  const visit = (context: PluginContext): void => {
    order.set(context, order.size)
    for (const child of context.children) visit(child)
  }
  visit(app.root[kContext])
  const position = (instance: any): number => order.get(instance[kContext]) ?? 0
  const hooks: Array<{ fn: AnyFn, instance: any }> = app.applicationHooks[name].slice().sort((a: any, b: any) => position(a.instance) - position(b.instance))
  for (const { fn, instance } of hooks) {
    if (fn.length === 0 || fn.constructor.name === 'AsyncFunction') {
      await fn.call(instance)
    } else {
      await new Promise<void>((resolve, reject) => {
        const result = fn.call(instance, (err?: Error) => err ? reject(err) : resolve())
        if (result && typeof result.then === 'function') result.then(() => resolve(), reject)
      })
    }
  }
}
