/**
 * Node's own server, request and response types, as Enclave exposes them (`app.server`, `request.raw`,
 * `reply.raw`). HTTP/1.1 by default; with the `https` or `http2` factory options the instance type carries Node's
 * matching server, and the request and reply types follow from it.
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'

/** Any server Enclave can run on. */
export type RawServerBase = http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer

/** The server created by default (`http.createServer`). */
export type RawServerDefault = http.Server

/** The incoming message type of a server type: Node's `IncomingMessage`, or `Http2ServerRequest` for HTTP/2. */
export type RawRequestDefaultExpression<RawServer = RawServerDefault> =
  RawServer extends http.Server | https.Server ? http.IncomingMessage
    : RawServer extends http2.Http2Server | http2.Http2SecureServer ? http2.Http2ServerRequest
      : never

/** The response type of a server type: Node's `ServerResponse`, or `Http2ServerResponse` for HTTP/2. */
export type RawReplyDefaultExpression<RawServer = RawServerDefault> =
  RawServer extends http.Server | https.Server ? http.ServerResponse
    : RawServer extends http2.Http2Server | http2.Http2SecureServer ? http2.Http2ServerResponse
      : never

/** The incoming message of the default (HTTP/1.1) server. */
export type RawRequestDefault = http.IncomingMessage

/** The response of the default (HTTP/1.1) server. */
export type RawReplyDefault = http.ServerResponse

/** Headers as Node parses them: lower-case names. */
export type RawRequestHeaders = http.IncomingHttpHeaders
