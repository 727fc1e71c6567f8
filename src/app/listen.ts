/**
 * `listen()`: Fastify 4's `listen(options, cb)` (and the deprecated variadic form), the "Server listening at" log
 * line, and the onListen hooks; `addresses()`.
 */
import type { AddressInfo } from 'node:net'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kApp } from '../core/symbols'
import type { Instance } from '../encapsulation/app-state'
import { runApplicationHooks } from '../hooks/application-hooks'
import type { RawServerBase } from '../types/raw'

type ListenCallback = (err: Error | null, address?: string) => void

interface ListenOptions {
  port?: number | string
  host?: string
  backlog?: number
  path?: string
  exclusive?: boolean
  ipv6Only?: boolean
  signal?: AbortSignal
  /** Turns the listening address into the "Server listening at …" log line. */
  listenTextResolver?: (address: string) => string
}

/** Accepts Fastify 4's `listen(options, cb)` and the older `listen(port, host, backlog, cb)` forms (deprecated). */
function normalizeListenArgs (args: unknown[]): { options: ListenOptions, cb: ListenCallback | undefined } {
  const cb = typeof args[args.length - 1] === 'function' ? args.pop() as ListenCallback : undefined
  let options: ListenOptions
  if (args.length === 0 || args[0] === undefined) {
    options = {}
  } else if (typeof args[0] === 'object' && args[0] !== null) {
    options = { ...args[0] as ListenOptions }
  } else {
    warnDeprecated('variadicListen')
    options = { port: args[0] as number | string, host: args[1] as string | undefined, backlog: args[2] as number | undefined }
  }
  if (options.listenTextResolver !== undefined && typeof options.listenTextResolver !== 'function') {
    throw new codes.FST_ERR_LISTEN_OPTIONS_INVALID('listenTextResolver must be a function')
  }
  // a Unix socket or Windows pipe: Node would listen on the port instead if one were passed along
  if (options.path !== undefined) {
    delete options.port
    delete options.host
    return { options, cb }
  }
  const port = options.port === undefined ? 0 : Number(options.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new codes.FST_ERR_LISTEN_OPTIONS_INVALID(`port must be an integer between 0 and 65535, got ${String(options.port)}`)
  }
  if (options.host !== undefined && typeof options.host !== 'string') throw new codes.FST_ERR_LISTEN_OPTIONS_INVALID('host must be a string')
  options.port = port
  // 'localhost' is bound as 127.0.0.1, so the address a client uses does not depend on resolver order
  if (options.host === undefined || options.host === 'localhost') options.host = '127.0.0.1'
  return { options, cb }
}

/** The origin clients reach a listening server at (`http://127.0.0.1:3000`), or its socket path. */
export function formatAddress (server: RawServerBase, secure: boolean): string {
  const address = server.address() as AddressInfo | string
  if (typeof address === 'string') return address
  const family: unknown = address.family
  const host = family === 'IPv6' || family === 6 ? `[${address.address}]` : address.address
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`
}

export const listenInstanceMethods = {
  listen (this: Instance, ...args: unknown[]): Promise<string> | undefined {
    const app = this[kApp]
    const { options, cb } = normalizeListenArgs(args)
    const promise = (async () => {
      if (app.closing) throw new codes.FST_ERR_REOPENED_CLOSE_SERVER()
      if (app.listening) throw new codes.FST_ERR_REOPENED_SERVER()
      await this.ready()
      const { listenTextResolver, ...listenOptions } = options
      await new Promise<void>((resolve, reject) => {
        app.server.once('error', reject)
        app.server.listen(listenOptions, () => {
          app.server.off('error', reject)
          resolve()
        })
      })
      app.listening = true
      const address = formatAddress(app.server, Boolean(app.options.https))
      app.logger.info(listenTextResolver !== undefined ? listenTextResolver(address) : `Server listening at ${address}`)
      await runApplicationHooks(app, 'onListen')
      return address
    })()
    if (cb === undefined) return promise
    promise.then((address) => cb(null, address), (err) => cb(err))
    return undefined
  },

  addresses (this: Instance): Array<AddressInfo | string> {
    const address = this[kApp].server.address()
    return address === null ? [] : [address]
  }
}
