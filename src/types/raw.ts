/**
 * Node's own server, request and response types, as Enclave exposes them (`app.server`, `request.raw`,
 * `reply.raw`). Enclave serves HTTP/1.1 by default; with `https` or `http2` the raw types are Node's matching ones.
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'

/** Any server Enclave can run on. */
export type RawServerBase = http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer

/** The server created by default (`http.createServer`). */
export type RawServerDefault = http.Server

/** The incoming message `request.raw` wraps. */
export type RawRequestDefault = http.IncomingMessage

/** The response `reply.raw` wraps. */
export type RawReplyDefault = http.ServerResponse

/** Headers as Node parses them: lower-case names. */
export type RawRequestHeaders = http.IncomingHttpHeaders
