/**
 * Which serializer a reply's payload goes through, per reply, as in Fastify 4: `reply.serializer(fn)` > the context's
 * `setReplySerializer` > the route's response schema for the status (exact code > class '4xx' > 'default'; with a
 * `content` map, the entry of the reply's media type) > `JSON.stringify`. Error bodies use the route's schema for
 * their status, else the default error format.
 */
import { defaultErrorBody, safeString, type ErrorPayload } from '../core/error-body'
import { kReplySerializer } from '../core/symbols'
import { ContentTypeSerializers } from '../schema/serialization/response-serializers'
import type { CompiledRoute } from '../routing/route-model'
import type { ReplyState } from './reply'

/**
 * Per reply: the serialized body for a payload that is not a string, Buffer or stream (see the order above). A
 * serializer that throws yields an Error with `statusCode` 500 and `serialization` (the route's config: url, method).
 */
export function serializeReply (reply: ReplyState, route: CompiledRoute, payload: unknown, statusCode: number): string {
  try {
    const own = reply[kReplySerializer]
    if (own !== null && own !== undefined) return own(payload)
    // a reply serializer set for the context wins over the route's schemas, as in Fastify (envelopes, say)
    const contextSerializer = route.replySerializer
    if (contextSerializer !== null) return contextSerializer(payload, statusCode)
    const entry = route.serializers?.forStatus(statusCode)
    const serializer = entry instanceof ContentTypeSerializers ? entry.forContentType(reply.getHeader('content-type')) : entry
    return serializer !== undefined ? serializer(payload) : JSON.stringify(payload)
  } catch (err) {
    throw asSerializationError(err, route)
  }
}

/**
 * For the default error handler: the route's schema for the status (a '4xx' or '5xx' one, say) applied to the error
 * itself when there is one, else the default `{ statusCode, code, error, message }` format. `reply.serializer` and
 * `setReplySerializer` are not used: error bodies are JSON. Throws a serialization error when the schema fails; what
 * a custom serializer returns is returned as it is (the caller refuses what is not text).
 */
export function serializeErrorPayload (
  route: CompiledRoute, payload: ErrorPayload, error: object
): unknown {
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
    throw asSerializationError(err, route)
  }
}

/**
 * A serializer's failure as the error handler sees it: an Error answering 500, whose `serialization` is the route's
 * config (`url`, `method` and the route's own `config`), as Fastify marks it.
 */
export function asSerializationError (thrown: unknown, route: CompiledRoute): Error {
  const err = thrown instanceof Error ? thrown : new Error(`Response serialization failed: ${safeString(thrown)}`)
  const marked = err as Error & { statusCode?: unknown, serialization?: unknown }
  if (typeof marked.statusCode !== 'number') marked.statusCode = 500
  marked.serialization = route.config
  return err
}
