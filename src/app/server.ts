/**
 * The HTTP server (http, https or http2) an application runs on: its creation from the factory options, the
 * answer to malformed HTTP, and its closing when the application closes. `listen()` is in `listen.ts`, `inject()`
 * in `inject.ts`.
 */
import http from 'node:http'
import type https from 'node:https'
import type http2 from 'node:http2'
import { Server as NetServer, type Socket } from 'node:net'
import { codes } from '../core/errors'
import { earlyErrorBody } from '../core/error-body'
import { lazyModule } from '../core/lazy-module'
import type { AppState, Instance, RawHandler } from '../encapsulation/app-state'
import type { Logger } from '../types/logger'
import type { RawServerBase } from '../types/raw'
import type { NormalizedOptions } from './options'
import { countRequest, gatherWrites, responseWritingOn } from './write-gathering'
import { lingerOnClose, noteRequest } from './lingering-close'

// loaded by the applications that serve HTTPS or HTTP/2 only
const loadHttps = lazyModule(() => require('node:https') as typeof https)
const loadHttp2 = lazyModule(() => require('node:http2') as typeof http2)


/** Fastify 4's answers to malformed HTTP, by Node's error code: status, message, and the label of the trace line. */
const clientErrors: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Client Timeout', 'timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Exceeded maximum allowed HTTP header size', 'header_overflow']
}

/**
 * The default `clientErrorHandler`, called with the application's root instance as `this`: answers malformed HTTP
 * (before any request object exists) with Fastify 4's JSON 400, 408 or 431, then destroys the socket.
 */
function onClientError (this: Instance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message, label] = clientErrors[err.code ?? ''] ?? [400, 'Client Error', 'error']
  ;(this.log as Logger).trace({ err }, `client ${label}`)
  // Bytes after a complete request that is still being answered (pipelined garbage, or a body longer than its
  // Content-Length): a 400 now would interleave with or replace that response, so it comes once that one is written.
  // (A request cut off mid-way, by a timeout or a malformed body, is answered at once: its response would never come.)
  // (known where the start-up check saw Node name a socket's response; unknown, the answer goes out at once)
  const inFlight = responseWritingOn(socket)
  if (inFlight !== null && inFlight !== undefined && inFlight.req?.complete === true && !inFlight.writableFinished) {
    // prepended: Node's own 'finish' listener may end a `Connection: close` socket first (Node 24 does)
    inFlight.prependOnceListener('finish', () => answerClientError(socket, err, status, message))
    return
  }
  answerClientError(socket, err, status, message)
}

/** Writes the error answer (when the socket can still take it), then destroys the socket, as Fastify does. */
function answerClientError (socket: Socket, err: Error, status: number, message: string): void {
  if (socket.writable) {
    const body = earlyErrorBody(status, message)
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`)
  }
  socket.destroy(err)
}

/** The server of an application; its `clientError` handler (the option's or the default) has the root as `this`. */
export function createServer (options: NormalizedOptions, handler: RawHandler, root: Instance): RawServerBase {
  let server: RawServerBase
  if (options.serverFactory !== undefined) {
    server = createFactoryServer(options, handler)
  } else if (options.http2) {
    // the same listener serves HTTP/2's compatibility request and response objects
    const http2Handler = handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void
    const http2Server = options.https ? loadHttp2().createSecureServer(options.https, http2Handler) : loadHttp2().createServer(http2Handler)
    // an idle session is closed after http2SessionTimeout; connectionTimeout is the server's, as for HTTP/1
    http2Server.on('session', (session) => session.setTimeout(options.http2SessionTimeout, () => session.close()))
    http2Server.setTimeout(options.connectionTimeout)
    trackSessions(http2Server)
    server = http2Server
  } else {
    server = createHttp1Server(options, handler)
  }
  ;(server as http.Server).on('clientError', (options.clientErrorHandler ?? onClientError).bind(root))
  return server
}

/** `forceCloseConnections: 'idle'` asked for explicitly needs a server that can close its idle connections. */
export function checkForceClose (given: unknown, server: RawServerBase): void {
  if (given === 'idle' && typeof (server as http.Server).closeIdleConnections !== 'function') {
    throw new codes.FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE()
  }
}

/** Sockets of keep-alive requests, per server, for the servers `close()` cannot ask to close them all. */
const keepAliveSockets = new WeakMap<object, Set<Socket>>()

/**
 * The `serverFactory`'s server. With `forceCloseConnections: true` on a server without `closeAllConnections`, the
 * sockets of keep-alive requests are tracked so that `close()` can destroy them, as Fastify does; otherwise the
 * handler is given as is (no tracking cost).
 */
function createFactoryServer (options: NormalizedOptions, handler: RawHandler): RawServerBase {
  const factory = options.serverFactory!
  if (options.forceCloseConnections !== true) return factory(handler, options)
  const sockets = new Set<Socket>()
  let tracking = true
  const server = factory(function trackingKeepAlive (req, res) {
    if (tracking) trackKeepAlive(sockets, req.socket, req.headers.connection)
    handler(req, res)
  }, options)
  tracking = typeof (server as http.Server).closeAllConnections !== 'function'
  if (tracking) keepAliveSockets.set(server, sockets)
  return server
}

function trackKeepAlive (sockets: Set<Socket>, socket: Socket, connection: string | string[] | undefined): void {
  if (sockets.has(socket) || String(connection).toLowerCase() !== 'keep-alive') return
  sockets.add(socket)
  socket.once('close', () => sockets.delete(socket))
}

/** Destroys every connection of the server: Node's `closeAllConnections`, else the keep-alive sockets tracked. */
function closeAllConnections (server: RawServerBase): void {
  const http1 = server as http.Server
  if (typeof http1.closeAllConnections === 'function') {
    http1.closeAllConnections()
    return
  }
  for (const socket of keepAliveSockets.get(server) ?? []) socket.destroy()
}

/** An HTTP/1 server (https when `https` is set, else http with the `http` option's settings), timeouts applied. */
function createHttp1Server (options: NormalizedOptions, handler: RawHandler): http.Server {
  const serverOptions: Record<string, number> = { requestTimeout: options.requestTimeout, keepAliveTimeout: options.keepAliveTimeout }
  // Node checks request timeouts only every connectionsCheckingInterval (30 s by default): tighten it so a
  // slow client is cut off close to requestTimeout, not up to 30 s later.
  if (options.requestTimeout > 0) serverOptions.connectionsCheckingInterval = Math.min(30000, Math.max(50, Math.floor(options.requestTimeout / 2)))
  const server = options.https
    ? loadHttps().createServer({ ...options.https, ...serverOptions }, handler)
    : http.createServer({ ...options.http, ...serverOptions }, countingRequests(handler))
  server.keepAliveTimeout = options.keepAliveTimeout
  server.maxRequestsPerSocket = options.maxRequestsPerSocket
  server.setTimeout(options.connectionTimeout)
  // TLS sockets write through their TLS wrap, not the socket's own write methods: neither gathering nor lingering there
  if (!options.https) server.on('connection', prepareConnection)
  return server
}

/** A plain HTTP/1 connection, accepted: it gathers its writes and lingers when it closes, where checked. */
function prepareConnection (socket: Socket): void {
  gatherWrites(socket)
  lingerOnClose(socket)
}

/**
 * The request listener of a plain HTTP/1 server: each request is counted for write gathering and noted for lingering
 * close, then handled.
 */
function countingRequests (handler: RawHandler): RawHandler {
  return function handleCountedRequest (req, res) {
    // requests emitted by plugins may carry no socket, or one the server did not accept
    const socket = req.socket as Socket | null | undefined
    if (socket !== null && socket !== undefined) {
      countRequest(socket)
      noteRequest(socket, req)
    }
    handler(req, res)
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

/**
 * Closes the listening servers at `close()` (the main one, and those `listen()` added for the other loopback
 * addresses): stops accepting, waits for in-flight requests, drops idle sockets. `done` follows the main server.
 */
export function closeServer (app: AppState, done: (err?: Error) => void): void {
  // a listen() under way binds nothing more once close() was called: wait for it, then close whatever it bound
  if (app.pendingListen !== null) {
    void app.pendingListen.then(() => closeServer(app, done))
    return
  }
  if (!app.listening) {
    done()
    return
  }
  for (const server of app.extraServers) closeOne(app, server, () => {})
  app.extraServers = []
  closeOne(app, app.server, done)
}

function closeOne (app: AppState, server: RawServerBase, done: (err?: Error) => void): void {
  const http1 = server as http.Server
  const sessions = openSessions.get(server)
  // In-flight requests may finish, but not forever: past closeTimeout the remaining connections are cut.
  const deadline = app.options.closeTimeout > 0
    ? setTimeout(() => {
      app.logger.warn(`closeTimeout (${app.options.closeTimeout} ms) reached: closing the remaining connections`)
      closeAllConnections(server)
      if (sessions !== undefined) for (const session of sessions) session.destroy()
    }, app.options.closeTimeout)
    : null
  // An HTTP/2 server stops accepting only: its sessions close below, gracefully. (Node 24's Http2Server.close()
  // would also send each session its GOAWAY at once, refusing the streams still in flight towards it.)
  const stopAccepting: (this: NetServer, cb: (err?: Error) => void) => unknown = sessions !== undefined ? NetServer.prototype.close : http1.close
  stopAccepting.call(http1, (err?: NodeJS.ErrnoException) => {
    if (deadline !== null) clearTimeout(deadline)
    done(err && err.code !== 'ERR_SERVER_NOT_RUNNING' ? err : undefined)
  })
  const force = app.options.forceCloseConnections
  if (force === true) closeAllConnections(server)
  // Node's own close() already drops the idle connections of the servers Enclave made; a factory's server may not
  else if (force === 'idle' && app.options.serverFactory !== undefined && typeof http1.closeIdleConnections === 'function') http1.closeIdleConnections()
  if (sessions !== undefined) {
    for (const session of sessions) {
      if (force === true) session.destroy()
      else closeSessionGracefully(session)
    }
  }
}

/**
 * Closes an HTTP/2 session gracefully, one round trip late: streams the client sent before it saw the shutdown
 * arrive before the PING's answer and are answered (503 while closing); then `close()` sends GOAWAY, refusing
 * only streams started after it (REFUSED_STREAM, which clients may retry), and lets the open ones finish.
 */
function closeSessionGracefully (session: http2.Http2Session): void {
  if (session.closed || session.destroyed) return
  const close = (): void => { if (!session.closed && !session.destroyed) session.close() }
  if (!session.ping(close)) close()
}
