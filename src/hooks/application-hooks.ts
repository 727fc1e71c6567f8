import { kPluginContext } from '../core/symbols'
import type { AppState, ApplicationHookList, Instance } from '../encapsulation/app-state'
import type { PluginContext } from '../encapsulation/plugin-context'

/**
 * Runs the application hooks `name` (`onReady`, `preClose`, `onListen`) one after another with `this` = their
 * instance, in Fastify's order: context by context, depth first from the root, and in a context as they were added
 * (so a hook that fastify-plugin adds to a context runs with that context's).
 */
export async function runApplicationHooks (app: AppState, name: ApplicationHookList): Promise<void> {
  const order = new Map<PluginContext, number>()
  const visit = (context: PluginContext): void => {
    order.set(context, order.size)
    for (const child of context.children) visit(child)
  }
  visit(app.root[kPluginContext])
  const position = (instance: Instance): number => order.get(instance[kPluginContext]) ?? 0
  const hooks = app.applicationHooks[name].slice().sort((a, b) => position(a.instance) - position(b.instance))
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
