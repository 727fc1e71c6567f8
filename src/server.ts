/**
 * Serving: the HTTP server (http, https or http2), `listen`, `close` and `inject`.
 */
import http from 'node:http'
import https from 'node:https'
import http2 from 'node:http2'
import lightMyRequest from 'light-my-request'
import { codes } from './errors'
import { warnDeprecated } from './deprecations'
import { kApp } from './symbols'
import { runApplicationHooks } from './hooks'
import type { NormalizedOptions } from './options'

const badRequestBody = '{"error":"Bad Request","message":"Client Error","statusCode":400}'

/** Answers malformed HTTP (before any request object exists) with a JSON 400, 408 or 431, then closes. */
function onClientError (err: any, socket: any): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  // Bytes after a complete request that is still being answered (pipelined garbage, or a body longer than its
  // Content-Length): a 400 now would interleave with or replace that response. Finish it, then close. (A request
  // cut off mid-way, by a timeout or a malformed body, is answered at once: its response would never come.)
  const inFlight = socket._httpMessage
  if (inFlight !== null && inFlight !== undefined && inFlight.req?.complete === true) {
    if (!inFlight.headersSent) inFlight.shouldKeepAlive = false
    if (inFlight.writableFinished) socket.end()
    else inFlight.once('finish', () => socket.end())
    return
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const body = status === 400 ? badRequestBody : JSON.stringify({ error: http.STATUS_CODES[status], message: 'Client Error', statusCode: status })
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
}

export function createServer (options: NormalizedOptions, handler: (req: any, res: any) => void): any {
  let server: any
  if (options.serverFactory !== undefined) {
    server = options.serverFactory(handler, options)
  } else if (options.http2) {
    server = options.https ? http2.createSecureServer(options.https as any, handler) : http2.createServer(handler)
    server.setTimeout(options.http2SessionTimeout)
    trackSessions(server)
  } else {
    const serverOptions: Record<string, number> = { requestTimeout: options.requestTimeout, keepAliveTimeout: options.keepAliveTimeout }
    // Node checks request timeouts only every connectionsCheckingInterval (30 s by default): tighten it so a
    // slow client is cut off close to requestTimeout, not up to 30 s later.
    if (options.requestTimeout > 0) serverOptions.connectionsCheckingInterval = Math.min(30000, Math.max(50, Math.floor(options.requestTimeout / 2)))
    server = options.https ? https.createServer({ ...options.https, ...serverOptions } as any, handler) : http.createServer(serverOptions, handler)
    server.keepAliveTimeout = options.keepAliveTimeout
    server.maxRequestsPerSocket = options.maxRequestsPerSocket
    if (options.connectionTimeout > 0) server.setTimeout(options.connectionTimeout)
  }
  server.on('clientError', options.clientErrorHandler ?? onClientError)
  return server
}

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
function normalizeListenArgs (args: any[]): { options: ListenOptions, cb: ((err: Error | null, address?: string) => void) | undefined } {
  const cb = typeof args[args.length - 1] === 'function' ? args.pop() : undefined
  let options: ListenOptions
  if (args.length === 0 || args[0] === undefined) {
    options = {}
  } else if (typeof args[0] === 'object' && args[0] !== null) {
    options = { ...args[0] }
  } else {
    warnDeprecated('variadicListen')
    options = { port: args[0], host: args[1], backlog: args[2] }
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

export function formatAddress (server: any, secure: boolean): string {
  const address = server.address()
  if (typeof address === 'string') return address
  const host = address.family === 'IPv6' || address.family === 6 ? `[${address.address}]` : address.address
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`
}

export const serverInstanceMethods = {
  listen (this: any, ...args: any[]): any {
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

  addresses (this: any): any[] {
    const address = this[kApp].server.address()
    return address === null ? [] : [address]
  },

  inject (this: any, opts?: any, cb?: (err: Error | null, res?: any) => void): any {
    const app = this[kApp]
    if (app.started) {
      if (app.closing) {
        const error = new codes.FST_ERR_REOPENED_CLOSE_SERVER()
        if (cb !== undefined) {
          cb(error)
          return undefined
        }
        return Promise.reject(error)
      }
      return lightMyRequest(app.handler, opts, cb as any)
    }
    if (cb !== undefined) {
      this.ready((err: Error | null) => {
        if (err) cb(err)
        else lightMyRequest(app.handler, opts, cb as any)
      })
      return undefined
    }
    // Not ready yet: dispatch once it is (this also serves the chain form, `inject().get('/').end()`).
    return lightMyRequest((req: any, res: any) => {
      this.ready().then(() => app.handler(req, res), (err: Error) => res.emit('error', err))
    }, opts)
  }
}

/** HTTP/2 sessions open on each server: `close()` must end them, as an HTTP/2 server waits for every session. */
const openSessions = new WeakMap<object, Set<http2.Http2Session>>()

function trackSessions (server: http2.Http2Server | http2.Http2SecureServer): void {
  const sessions = new Set<http2.Http2Session>()
  openSessions.set(server, sessions)
  server.on('session', (session) => {
    sessions.add(session)
    session.once('close', () => sessions.delete(session))
  })
}

/** Closes the listening server at `close()`: stops accepting, waits for in-flight requests, drops idle sockets. */
export function closeServer (app: any, done: (err?: Error) => void): void {
  if (!app.listening) {
    done()
    return
  }
  const sessions = openSessions.get(app.server)
  // In-flight requests may finish, but not forever: past closeTimeout the remaining connections are cut.
  const deadline = app.options.closeTimeout > 0
    ? setTimeout(() => {
      app.logger.warn(`closeTimeout (${app.options.closeTimeout} ms) reached: closing the remaining connections`)
      if (typeof app.server.closeAllConnections === 'function') app.server.closeAllConnections()
      if (sessions !== undefined) for (const session of sessions) session.destroy()
    }, app.options.closeTimeout)
    : null
  app.server.close((err: any) => {
    if (deadline !== null) clearTimeout(deadline)
    done(err && err.code !== 'ERR_SERVER_NOT_RUNNING' ? err : undefined)
  })
  const force = app.options.forceCloseConnections
  if (force === true && typeof app.server.closeAllConnections === 'function') app.server.closeAllConnections()
  else if (force === 'idle' && typeof app.server.closeIdleConnections === 'function') app.server.closeIdleConnections()
  // HTTP/2: GOAWAY to every session, so streams in flight finish and no new ones start; sessions then close
  if (sessions !== undefined) {
    for (const session of sessions) {
      if (force === true) session.destroy()
      else session.close()
    }
  }
}
