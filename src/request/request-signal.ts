/**
 * `request.signal` and the route's `handlerTimeout` (both Fastify 5 additions, present at both levels). The signal
 * aborts when the time limit passes (reason: FST_ERR_HANDLER_TIMEOUT) or when the client goes away before the
 * response is complete (reason: an `AbortError`); it never aborts once the response was written. A route without a
 * time limit pays nothing until a hook or handler reads `request.signal`; a timed route starts its timer after
 * routing, before the onRequest hooks, and the timer stops when the response is finished or closed.
 */
import type { ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { codes } from '../core/errors'
import { kRequestAbort, kRequestResponse, kReplyHijacked, kReplySendError } from '../core/symbols'
import type { ReplyState } from '../reply/reply'
import type { CompiledRoute } from '../routing/route-model'
import type { RawRequest, RequestState } from './request'

/** On the base request prototype: no controller until one is made. */
export const signalProperties: PropertyDescriptorMap = {
  [kRequestAbort]: { value: null, writable: true }
}

/**
 * `request.signal` as a level has it (`requestSignalAssignable`, src/core/api-level.ts). Assignable, a request
 * takes the value given as its own `signal` (so a Fastify 4 plugin's `decorateRequest('signal', null)` and
 * `request.signal = controller.signal` keep working); the route's time limit still aborts its own controller.
 */
export function signalDescriptor (assignable: boolean): PropertyDescriptor {
  return assignable ? { get: requestSignal, set: assignSignal } : { get: requestSignal }
}

function assignSignal (this: RequestState, value: unknown): void {
  Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true })
}

/** Gives a request its response, which `request.signal` watches for the client going away. */
export function setRequestResponse (request: RequestState, res: ServerResponse): void {
  request[kRequestResponse] = res
}

/** The `request.signal` getter: the route's timer made the controller already, else it is made now. */
function requestSignal (this: RequestState): AbortSignal {
  let controller = this[kRequestAbort] as AbortController | null
  if (controller === null) {
    controller = new AbortController()
    this[kRequestAbort] = controller
    const raw = this.raw
    if (raw.aborted === true) controller.abort()
    else watchClientGone(raw, this[kRequestResponse] as ServerResponse, controller, undefined)
  }
  return controller.signal
}

/**
 * The response closing before it was ended means the client went away (or the connection broke): the signal aborts.
 * Over HTTP/2 a reset stream can report itself ended, hence `aborted` as well. Node's request 'close' is no guide:
 * on HTTP/1 it comes as soon as the body was read. (Nor is `writableFinished`, which inject's response leaves
 * false.) With a timer, the close also stops it.
 */
function watchClientGone (raw: RawRequest, res: ServerResponse, controller: AbortController, timer: NodeJS.Timeout | undefined): void {
  res.once('close', () => {
    if (timer !== undefined) clearTimeout(timer)
    if (!controller.signal.aborted && (!res.writableEnded || raw.aborted === true)) controller.abort()
  })
}

/**
 * Starts the route's time limit on a request (the route has `handlerTimeout > 0`). The route is kept: a handler may
 * hand the request to a not-found handler (`reply.callNotFound()`), which stays within the limit of the route.
 */
export function startHandlerTimer (route: CompiledRoute, request: RequestState, reply: ReplyState): void {
  const controller = new AbortController()
  request[kRequestAbort] = controller
  const timer = setTimeout(onHandlerTimeout, route.handlerTimeout, route, reply, controller)
  reply.raw.once('finish', () => { clearTimeout(timer) })
  watchClientGone(request.raw, reply.raw, controller, timer)
}

/**
 * The time limit passed. A hijacked reply is the handler's own, and a response written in full is left alone. Else
 * the signal aborts first (its listeners may still answer, say with a 504); then, if nothing answered, the error goes
 * to the route's error handler, unless the reply had begun sending: a second answer cannot follow the first, so the
 * response is cut off instead.
 */
function onHandlerTimeout (route: CompiledRoute, reply: ReplyState, controller: AbortController): void {
  const res = reply.raw
  if (reply[kReplyHijacked] || writtenInFull(res)) return
  const err = new codes.FST_ERR_HANDLER_TIMEOUT(route.handlerTimeout, route.url)
  const startedBefore = reply.sent
  controller.abort(err)
  if (reply[kReplyHijacked] || (!startedBefore && reply.sent)) return
  if (!startedBefore) {
    reply[kReplySendError](err)
    return
  }
  // with the error, as the error path cuts off a started response: HTTP/2 then resets the stream (a plain close
  // would leave a client that stopped reading waiting on it)
  reply.log.error({ err }, 'the handler timeout passed while the response was being sent: the response is aborted')
  res.destroy(err)
}

/**
 * The whole response was handed to Node. Over HTTP/2 an ended response may still wait for the client's flow-control
 * window (a client that does not read): that one is still being written, and the time limit still applies to it.
 */
function writtenInFull (res: ServerResponse): boolean {
  if (!res.writableEnded) return false
  const stream = (res as ServerResponse & { stream?: Duplex }).stream
  return stream === undefined || stream.writableLength === 0
}
