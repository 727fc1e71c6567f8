/**
 * The `fastify.request.handler` tracing channel (Fastify 5, present at both levels): `start` and `end` around every
 * handler call, `asyncStart` / `asyncEnd` around what follows a promise's settling, `error` when the handler throws
 * or rejects. Each event gets one object per request: `{ request, reply, route: { url, method } }`, plus `async` on
 * `end` and `error` on `error`. Only a request with a subscriber pays for it: the pipeline asks `handlerTraced()`.
 */
import { tracingChannel } from 'node:diagnostics_channel'
import { kReplyHasStatusCode, kRoute } from '../core/symbols'
import { answerStatusFor } from '../core/error-body'
import { isThenable } from '../core/objects'
import type { ReplyState } from '../reply/reply'
import type { RequestState } from './request'

interface HandlerEvent {
  request: RequestState
  reply: ReplyState
  route: { url: string, method: string | string[] }
  async: boolean
  error?: unknown
}

const channels = tracingChannel<unknown, HandlerEvent>('fastify.request.handler')

/** Whether any of the five channels has a subscriber (the TracingChannel getter is Node 20.13+; before, each one). */
export const handlerTraced: () => boolean = typeof (channels as { hasSubscribers?: unknown }).hasSubscribers === 'boolean'
  ? () => channels.hasSubscribers
  : anyChannelSubscribed

function anyChannelSubscribed (): boolean {
  return channels.start.hasSubscribers || channels.end.hasSubscribers || channels.asyncStart.hasSubscribers ||
    channels.asyncEnd.hasSubscribers || channels.error.hasSubscribers
}

/** What the pipeline does with each outcome of a handler call, as it does untraced. */
export interface HandlerOutcomes {
  returned (reply: ReplyState, payload: unknown): void
  rejected (reply: ReplyState, err: unknown): void
  thrown (reply: ReplyState, err: unknown): void
}

/** Calls the route's handler inside the channel's events (and its bound stores), then hands the outcome on. */
export function traceHandler (request: RequestState, reply: ReplyState, outcomes: HandlerOutcomes): void {
  const route = request[kRoute]
  const event: HandlerEvent = { request, reply, route: { url: route.url, method: route.method }, async: false }
  channels.start.runStores(event, () => {
    let result: unknown
    try {
      result = route.handler.call(route.instance, request, reply)
    } catch (err) {
      publishError(event, err)
      channels.end.publish(event)
      outcomes.thrown(reply, err)
      return
    }
    if (!isThenable(result)) {
      channels.end.publish(event)
      if (result !== undefined && result !== reply) outcomes.returned(reply, result)
      return
    }
    event.async = true
    channels.end.publish(event)
    result.then((payload: unknown) => {
      channels.asyncStart.publish(event)
      outcomes.returned(reply, payload)
      channels.asyncEnd.publish(event)
    }, (err: unknown) => {
      publishError(event, err)
      channels.asyncStart.publish(event)
      outcomes.rejected(reply, err)
      channels.asyncEnd.publish(event)
    })
  })
}

/**
 * Subscribers read `reply.statusCode` as the default error handler will answer (`answerStatusFor`: the error's own
 * 4xx/5xx, else the reply's error status, else 500). The reply's status is put back afterwards, so that error
 * handlers see the reply exactly as they would without a subscriber.
 */
function publishError (event: HandlerEvent, err: unknown): void {
  event.error = err
  const reply = event.reply
  if (!channels.error.hasSubscribers || reply.raw.headersSent) {
    channels.error.publish(event)
    return
  }
  const { statusCode } = reply.raw
  const hadStatus = reply[kReplyHasStatusCode]
  reply.raw.statusCode = answerStatusFor(err, statusCode, hadStatus)
  try {
    channels.error.publish(event)
  } finally {
    reply.raw.statusCode = statusCode
    reply[kReplyHasStatusCode] = hadStatus
  }
}
