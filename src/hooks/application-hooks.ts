import { isThenable } from '../core/objects'
import { kPluginContext } from '../core/symbols'
import type { AnyFn } from '../core/types'
import type { AppState, ApplicationHookEntry, ApplicationHookList, Instance } from '../encapsulation/app-state'
import type { PluginContext } from '../encapsulation/plugin-context'

/**
 * Runs the application hooks `name` (`onReady`, `preClose`) one after another with `this` = their
 * instance, in Fastify's order: context by context, depth first from the root, and in a context as they were added
 * (so a hook that fastify-plugin adds to a context runs with that context's). `starting` learns each hook as it starts.
 */
export async function runApplicationHooks (app: AppState, name: ApplicationHookList, starting?: (fn: AnyFn) => void): Promise<void> {
  const order = new Map<PluginContext, number>()
  const visit = (context: PluginContext): void => {
    order.set(context, order.size)
    for (const child of context.children) visit(child)
  }
  visit(app.root[kPluginContext])
  const position = (instance: Instance): number => order.get(instance[kPluginContext]) ?? 0
  const hooks = app.applicationHooks[name].slice().sort((a, b) => position(a.instance) - position(b.instance))
  for (const { fn, instance } of hooks) {
    starting?.(fn)
    await runOne(fn, instance)
  }
}

/**
 * Starts the `onListen` hooks once the server listens, without waiting for them (as Fastify 4): a
 * context's hooks run one after another, then its child contexts' start side by side. The server already listens, so
 * a failing hook is logged and the others still run. Whether there was any to start.
 */
export function startListenHooks (app: AppState): boolean {
  const own = new Map<PluginContext, ApplicationHookEntry[]>()
  for (const hook of app.applicationHooks.onListen) {
    const context = hook.instance[kPluginContext]
    const list = own.get(context)
    if (list === undefined) own.set(context, [hook])
    else list.push(hook)
  }
  const runContext = async (context: PluginContext): Promise<void> => {
    for (const { fn, instance } of own.get(context) ?? []) {
      try {
        await runOne(fn, instance)
      } catch (err) {
        app.logger.error({ err }, (err as Error).message)
      }
    }
    for (const child of context.children) void runContext(child)
  }
  if (own.size > 0) void runContext(app.root[kPluginContext])
  return own.size > 0
}

/** One hook in either style: callback (`done`) or returning a promise. */
function runOne (fn: AnyFn, instance: Instance): Promise<void> {
  if (fn.length === 0 || fn.constructor.name === 'AsyncFunction') return Promise.resolve().then(() => fn.call(instance))
  return new Promise<void>((resolve, reject) => {
    const result = fn.call(instance, (err?: Error) => err ? reject(err) : resolve())
    if (isThenable(result)) result.then(() => resolve(), reject)
  })
}
