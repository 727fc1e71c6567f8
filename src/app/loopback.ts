/**
 * `listen()` on `localhost` (the default host), as Fastify 4 binds it: every address `localhost` resolves to, one
 * server each, so IPv4 and IPv6 clients both reach the application. Only loopback addresses are bound, whatever the
 * resolver says: a server meant for this machine never listens on another interface.
 */
import type dnsModule from 'node:dns'
import { lazyModule } from '../core/lazy-module'
import type { AppState } from '../encapsulation/app-state'
import type { RawServerBase } from '../types/raw'
import { createServer } from './server'

// loaded by the first listen on localhost: an application that never listens (tests with inject()) never loads it
const dns = lazyModule(() => require('node:dns') as typeof dnsModule)

interface ResolvedAddress { address: string, family: number }

function isLoopback ({ address, family }: ResolvedAddress): boolean {
  return family === 4 ? address.startsWith('127.') : address === '::1'
}

/** The loopback addresses `localhost` resolves to, IPv4 first; `127.0.0.1` when the resolver gives none. */
export async function localhostAddresses (): Promise<string[]> {
  let resolved: ResolvedAddress[] = []
  try {
    resolved = await dns().promises.lookup('localhost', { all: true })
  } catch {
    // no resolver answer: the IPv4 loopback, which every host has
  }
  const addresses = resolved.filter(isLoopback).sort((a, b) => a.family - b.family).map((entry) => entry.address)
  return addresses.length > 0 ? [...new Set(addresses)] : ['127.0.0.1']
}

/** Starts `server` listening; rejects with the server's error (EADDRINUSE, a bad port…). */
export function listenOn (server: RawServerBase, options: object): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // the 'listening' event rather than listen()'s callback: a server whose listen() is wrapped (a restarting
    // plugin's, which hands over a socket that is already bound) may only emit the event, as Node's own servers do
    const listening = (): void => {
      server.off('error', failed)
      resolve()
    }
    const failed = (err: Error): void => {
      server.off('listening', listening)
      reject(err)
    }
    server.once('error', failed)
    server.once('listening', listening)
    server.listen(options)
  })
}

/**
 * Binds one more loopback address on the main server's port with a server of the same kind and request listener
 * (WebSocket upgrades go to the main server's listeners). An address the machine cannot bind (IPv6 switched off) is
 * skipped, as in Fastify. Returns the server, or null.
 */
export async function bindSecondary (app: AppState, options: object): Promise<RawServerBase | null> {
  const server = createServer(app.options, app.handler, app.root)
  server.on('upgrade', (...args: unknown[]) => app.server.emit('upgrade', ...args))
  try {
    await listenOn(server, options)
  } catch (err) {
    app.logger.debug({ err }, `could not also listen on ${String((options as { host?: unknown }).host)}`)
    return null
  }
  app.extraServers.push(server)
  return server
}
