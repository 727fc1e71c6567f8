/**
 * Which serializer a reply's payload goes through, per reply: `reply.serializer(fn)` > the route's response schema
 * for the status (exact code > class '4xx' > 'default') > the context's `setReplySerializer` > `JSON.stringify`.
 * Error bodies use the route's schema for their status, else the default error format.
 */
import { defaultErrorBody, safeString, type ErrorPayload } from '../core/error-body'
import { kReplySerializer } from '../core/symbols'
import { ContentTypeSerializers } from '../schema/serialization/response-serializers'
import type { CompiledRoute } from '../routing/route-model'
import type { ReplyState } from './reply'

/**
 * Per reply: the serialized body for a payload that is not a string, Buffer or stream. Order: `reply.serializer(fn)`
 * > route response schema for the status > context `setReplySerializer` > JSON.stringify. A serializer that throws
 * yields an Error with `statusCode` 500.
 */
export function serializeReply (reply: ReplyState, route: CompiledRoute, payload: unknown, statusCode: number): string {
  try {
    const own = reply[kReplySerializer]
    if (own !== null && own !== undefined) return own(payload)
    const table = route.serializers
    if (table !== null) {
      const entry = table.forStatus(statusCode)
      if (entry !== undefined) return typeof entry === 'function' ? entry(payload) : entry.serialize(reply.getHeader('content-type'), payload, statusCode)
    }
    const contextSerializer = route.replySerializer
    if (contextSerializer !== null) return contextSerializer(payload, statusCode)
    return JSON.stringify(payload)
  } catch (err) {
    throw asSerializationError(err)
  }
}

/**
 * For the default error handler: the route's schema for the status (a '4xx' or '5xx' one, say) applied to the error
 * itself when there is one, else the default `{ statusCode, code, error, message }` format. `reply.serializer` and
 * `setReplySerializer` are not used: error bodies are JSON. Throws a serialization error when the schema fails.
 */
export function serializeErrorPayload (
  route: CompiledRoute, payload: ErrorPayload, error: object
): string {
  const entry = route.serializers?.forStatus(payload.statusCode)
  const fn = entry instanceof ContentTypeSerializers ? entry.json : entry
  if (fn === undefined) return defaultErrorBody(payload)
  try {
    // as Fastify 4: the schema picks from the error itself (its own and inherited properties: `code`, custom fields,
    // getters), with the status, its reason phrase and the message fixed
    return fn(Object.create(error, {
      statusCode: { value: payload.statusCode },
      error: { value: payload.error },
      message: { value: payload.message }
    }))
  } catch (err) {
    throw asSerializationError(err)
  }
}

/** A serializer's failure as the error handler sees it: an Error answering 500. */
export function asSerializationError (thrown: unknown): Error {
  const err = thrown instanceof Error ? thrown : new Error(`Response serialization failed: ${safeString(thrown)}`)
  const withStatus = err as Error & { statusCode?: unknown }
  if (typeof withStatus.statusCode !== 'number') withStatus.statusCode = 500
  return err
}
