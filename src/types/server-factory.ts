/**
 * The `serverFactory` factory option: builds the Node server from Enclave's request listener, for a custom server.
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'

/** Enclave's request listener, as the server factory receives it. */
export type FastifyServerFactoryHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>
> = RawServer extends http.Server | https.Server
  ? (request: http.IncomingMessage & RawRequest, response: http.ServerResponse & RawReply) => void
  : (request: http2.Http2ServerRequest & RawRequest, response: http2.Http2ServerResponse & RawReply) => void

/** Builds the server; Enclave calls `listen` on what it returns. */
export interface FastifyServerFactory<RawServer extends RawServerBase = RawServerDefault> {
  (handler: FastifyServerFactoryHandler<RawServer>, opts: Record<string, unknown>): RawServer
}
