/**
 * `listen()`: Fastify 4's `listen(options, cb)` (and the deprecated variadic form), the "Server listening at" log
 * line, and the onListen hooks; `addresses()`.
 */
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kApp } from '../core/symbols'
import type { Instance } from '../encapsulation/app-state'
import { startListenHooks } from '../hooks/application-hooks'
import { bindSecondary, listenOn, localhostAddresses } from './loopback'
import { checkWriteGathering } from './write-gathering-check'
import type { Logger } from '../types/logger'
import type { RawServerBase } from '../types/raw'

type ListenCallback = (err: Error | null, address?: string | null) => void

interface ListenOptions {
  port?: number | string
  host?: string | null
  backlog?: number
  path?: string
  exclusive?: boolean
  ipv6Only?: boolean
  signal?: AbortSignal
  /** Turns the listening address into the "Server listening at …" log line. */
  listenTextResolver?: (address: string) => string
}

/**
 * Accepts Fastify 4's `listen(options, [backlog], cb)` and the deprecated variadic forms `listen(port, host,
 * backlog, cb)` and `listen(path, backlog, cb)` (a string that is not a number is a socket or pipe path). Ports and
 * hosts are Node's to check: a bad one rejects with Node's error (`ERR_SOCKET_BAD_PORT`), as in Fastify.
 */
function normalizeListenArgs (args: unknown[]): { options: ListenOptions, cb: ListenCallback | undefined } {
  const cb = typeof args[args.length - 1] === 'function' ? args.pop() as ListenCallback : undefined
  const [first, second, third] = args
  let options: ListenOptions
  if (first === undefined) {
    options = {}
  } else if (typeof first === 'object' && first !== null) {
    options = { ...first as ListenOptions }
    if (typeof second === 'number') options.backlog ??= second
  } else if (typeof first === 'string' && first !== '' && Number.isNaN(Number(first))) {
    warnDeprecated('variadicListen')
    options = { path: first, backlog: second as number | undefined }
  } else {
    warnDeprecated('variadicListen')
    // the old form took any port it could not use as 0 (a free one), as Fastify 4 still does for it
    const port = Number(first)
    options = { port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0, host: second as string | undefined, backlog: third as number | undefined }
  }
  if (options.listenTextResolver !== undefined && typeof options.listenTextResolver !== 'function') {
    throw new codes.FST_ERR_LISTEN_OPTIONS_INVALID('listenTextResolver must be a function')
  }
  const signal = options.signal as { aborted?: unknown, addEventListener?: unknown } | undefined
  if (signal !== undefined && (signal === null || typeof signal.addEventListener !== 'function')) {
    throw new codes.FST_ERR_LISTEN_OPTIONS_INVALID('Invalid options.signal')
  }
  // a Unix socket or Windows pipe: Node would listen on the port instead if one were passed along
  if (options.path !== undefined) {
    delete options.port
    delete options.host
    return { options, cb }
  }
  // a numeric string is a port; anything else goes to Node as given, to be refused there
  if (options.port === undefined || options.port === null) options.port = 0
  else if (typeof options.port === 'string' && options.port.trim() !== '' && !Number.isNaN(Number(options.port))) options.port = Number(options.port)
  // localhost (the default) is bound as each loopback address it resolves to, once ready (loopback.ts)
  if (options.host === null || options.host === 'localhost') delete options.host
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

/**
 * The origins a listening server is reached at: its address, or with `interfaces` (the level's choice, Fastify 5)
 * and the IPv4 wildcard `0.0.0.0`, the IPv4 address of each of the machine's interfaces, internal ones first.
 */
function originsOf (server: RawServerBase, secure: boolean, interfaces: boolean): string[] {
  const origin = formatAddress(server, secure)
  const address = server.address() as AddressInfo | string
  if (!interfaces || typeof address === 'string' || address.address !== '0.0.0.0') return [origin]
  const ipv4 = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((entry) => entry.family === 'IPv4')
  const ordered = [...ipv4.filter((entry) => entry.internal), ...ipv4.filter((entry) => !entry.internal)]
  return ordered.length === 0 ? [origin] : ordered.map((entry) => `${secure ? 'https' : 'http'}://${entry.address}:${address.port}`)
}

export const listenInstanceMethods = {
  listen (this: Instance, ...args: unknown[]): Promise<string | undefined> | undefined {
    const app = this[kApp]
    const { options, cb } = normalizeListenArgs(args)
    // as in Fastify, aborting the signal closes the application (its onClose hooks run)
    if (options.signal !== undefined) {
      const abort = (): void => { this.close() }
      if (options.signal.aborted) abort()
      else options.signal.addEventListener('abort', abort, { once: true })
    }
    const promise = startListening(this, options)
    // closing waits for this listen() to settle (server.ts, closeServer), so nothing it binds outlives close()
    const settled = promise.then(() => {}, () => {})
    app.pendingListen = settled
    void settled.then(() => { if (app.pendingListen === settled) app.pendingListen = null })
    if (cb === undefined) return promise
    // closed before it listened: no callback, as in Fastify
    promise.then((address) => { if (address !== undefined) cb(null, address) }, (err) => cb(err, null))
    return undefined
  },

  addresses (this: Instance): Array<AddressInfo | string> {
    const app = this[kApp]
    const addresses: Array<AddressInfo | string | null> = [app.server.address(), ...app.extraServers.map((server) => server.address())]
    return addresses.filter((address) => address !== null)
  }
}

/**
 * Readies the application and binds its server(s); resolves with the first address. Once `close()` was called
 * (directly, or by the `signal`), it binds nothing more: closed before the main server listened, it resolves with
 * no address, as Fastify 5 does for an aborted signal (both levels). Fastify's promise form binds after a close()
 * (docs/compatibility.md, deliberate differences).
 */
async function startListening (instance: Instance, options: ListenOptions): Promise<string | undefined> {
  const app = instance[kApp]
  if (app.closing) throw new codes.FST_ERR_REOPENED_CLOSE_SERVER()
  if (app.listening) throw new codes.FST_ERR_REOPENED_SERVER()
  // the socket internals that write gathering and the answer to malformed HTTP rely on, checked once in this
  // process, before ready(): the check's first HTTP exchange is most of its time and all of it is this thread's,
  // so running it beside ready() would save nothing and would put it between the plugins starting and the
  // server listening, where a plugin that samples the event loop from its registration would see it
  await checkWriteGathering(app.logger)
  await instance.ready()
  if (app.closeRequested) return undefined
  const { listenTextResolver, ...listenOptions } = options
  const log = (server: RawServerBase): string => {
    const addresses = originsOf(server, Boolean(app.options.https), app.level.wildcardListenInterfaces)
    // the instance's logger at this moment, as in Fastify: a plugin may have replaced `app.log`
    for (const address of addresses) (instance.log as Logger).info(listenTextResolver !== undefined ? listenTextResolver(address) : `Server listening at ${address}`)
    return addresses[0]
  }
  // no host: localhost, all of its loopback addresses, IPv4 first. The first is bound, then localhost is looked
  // up again for the others, as Fastify looks it up once to listen and once for the other addresses: listen()
  // settles after the same two resolver round trips as Fastify's
  const onLocalhost = listenOptions.host === undefined && listenOptions.path === undefined
  if (onLocalhost) listenOptions.host = (await localhostAddresses())[0]
  if (app.closeRequested) return undefined
  await listenOn(app.server, listenOptions)
  app.listening = true
  const address = log(app.server)
  // the other addresses of localhost, on the same port (not with a serverFactory: its server is the app's only one)
  if (onLocalhost && app.options.serverFactory === undefined) {
    const port = (app.server.address() as AddressInfo).port
    const others = (await localhostAddresses()).filter((host) => host !== listenOptions.host)
    for (const host of others) {
      if (app.closeRequested) break
      const server = await bindSecondary(app, { ...listenOptions, host, port })
      if (server !== null) log(server)
    }
  }
  // listen() resolves once the hooks that wait on no I/O have run (as in Fastify, where they finish within the
  // ticks listen() takes to resolve); a hook waiting on I/O goes on in the background. Without hooks it resolves
  // at once, in the same turn of the event loop as the server's 'listening', as Fastify's does (before immediates)
  if (startListenHooks(app)) await new Promise((resolve) => setImmediate(resolve))
  return address
}
