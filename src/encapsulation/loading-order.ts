/**
 * Work filed "in loading order", as Fastify files hooks and not-found handlers: it runs (through avvio's `after`)
 * once the plugins registered before the call have loaded, so `register(fp(auth)); addHook(…)` sees auth's work.
 */
import type { Instance } from './app-state'

export function inLoadingOrder (instance: Instance, file: () => void): void {
  instance.after((err: Error | null, done: (err?: Error | null) => void) => {
    file()
    done(err)
  })
}
