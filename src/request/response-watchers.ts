/**
 * What a request watches on its response: completion (request log line and onResponse hooks), the client going
 * away (onRequestAbort) and the socket timing out (onTimeout). Each is attached only when the route needs it.
 */
import type { Socket } from 'node:net'
import { kRoute, kSocketReply } from '../core/symbols'
import { runHooks } from '../hooks/runners'
import type { AppState } from '../encapsulation/app-state'
import type { ReplyState } from '../reply/reply'
import type { RequestState } from './request'
import { logsRequest } from './request-logging'

/** A socket with the reply in flight on it (null between requests). */
type WatchedSocket = Socket & { [kSocketReply]?: ReplyState | null }

export function watchResponse (app: AppState, request: RequestState, reply: ReplyState): void {
  let done = false
  // 'finish' and 'error' only: a response the client aborted never completed, so neither the log line nor the
  // onResponse hooks report it (as in Fastify; onRequestAbort does)
  const onFinished = (): void => {
    if (done) return
    done = true
    reply.raw.off('finish', onFinished)
    reply.raw.off('error', onFinished)
    if (logsRequest(app, request)) request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
    const hooks = request[kRoute].onResponse
    if (hooks !== null) runHooks(hooks, request, reply, false, logHookError)
  }
  reply.raw.on('finish', onFinished)
  reply.raw.on('error', onFinished)
}

export function watchAbort (request: RequestState, reply: ReplyState): void {
  request.raw.once('close', () => {
    if (request.raw.aborted === true || (!reply.raw.writableEnded && reply.raw.destroyed)) {
      runHooks(request[kRoute].onRequestAbort!, request, reply, false, logHookError)
    }
  })
}

/**
 * One 'timeout' listener per socket, not per request: a kept-alive socket serves many requests, and the listener
 * reads the one in flight. A socket that times out between requests has nothing to report.
 */
export function watchTimeout (request: RequestState, reply: ReplyState): void {
  const socket = request.raw.socket as WatchedSocket | null
  if (socket === undefined || socket === null) return
  if (socket[kSocketReply] === undefined) socket.on('timeout', onSocketTimeout)
  socket[kSocketReply] = reply
  // let go once the response is over: an idle kept-alive socket must not hold on to its last request and reply
  reply.raw.once('close', () => { if (socket[kSocketReply] === reply) socket[kSocketReply] = null })
}

function onSocketTimeout (this: WatchedSocket): void {
  const reply = this[kSocketReply]
  if (reply === null || reply === undefined || reply.raw.writableEnded) return
  this[kSocketReply] = null
  const request = reply.request
  runHooks(request[kRoute].onTimeout!, request, reply, false, logHookError)
}

/** A failing onResponse, onTimeout or onRequestAbort hook: the response is gone, so it is logged (Fastify's words). */
function logHookError (err: unknown, request: RequestState): void {
  if (err !== null) request.log.error({ err }, 'request errored')
}
