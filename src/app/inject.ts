/**
 * `inject()`: a request dispatched straight into the application's request listener by light-my-request, with
 * its promise, callback and chain forms. An application not ready yet becomes ready first.
 */
import type { CallbackFunc, InjectOptions, Response } from 'light-my-request'
import type lightMyRequestModule from 'light-my-request'
import { lazyModule } from '../core/lazy-module'
import { codes } from '../core/errors'
import { kApp } from '../core/symbols'
import type { Instance } from '../encapsulation/app-state'

/** light-my-request is loaded by the first `inject()` (tests), never by a server that only listens. */
const loadLightMyRequest = lazyModule(() => require('light-my-request') as typeof lightMyRequestModule)

type InjectArgument = InjectOptions | string
type InjectCallback = (err: Error | null, res?: Response | null) => void

/**
 * light-my-request 5 checks the method against Node's list of its day, which lacks QUERY (RFC 10008): such a
 * request goes unchecked rather than refused.
 */
function withNewerMethod (opts: InjectArgument): InjectArgument {
  if (typeof opts !== 'object' || opts === null || typeof opts.method !== 'string' || opts.method.toUpperCase() !== 'QUERY') return opts
  return { ...opts, validate: false }
}

export const injectInstanceMethods = {
  inject (this: Instance, opts?: InjectArgument, cb?: InjectCallback): unknown {
    // light-my-request answers `inject()` without options with its chain; its types always want them
    const options = withNewerMethod(opts as InjectArgument)
    const app = this[kApp]
    const lightMyRequest = loadLightMyRequest()
    if (app.started) {
      if (app.closing) {
        const error = new codes.FST_ERR_REOPENED_CLOSE_SERVER()
        if (cb !== undefined) {
          cb(error)
          return undefined
        }
        return Promise.reject(error)
      }
      return lightMyRequest(app.handler, options, cb as CallbackFunc)
    }
    if (cb !== undefined) {
      this.ready((err: Error | null) => {
        // as in Fastify, the response is null when the application failed to boot
        if (err) cb(err, null)
        else lightMyRequest(app.handler, options, cb as CallbackFunc)
      })
      return undefined
    }
    // Not ready yet: dispatch once it is (this also serves the chain form, `inject().get('/').end()`).
    return lightMyRequest((req, res) => {
      (this.ready() as Promise<Instance>).then(() => app.handler(req, res), (err: Error) => res.emit('error', err))
    }, options)
  }
}

