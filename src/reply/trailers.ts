/**
 * HTTP trailers: `reply.trailer(name, fn)` registers a value computed once the body has been written (a digest,
 * `Server-Timing`). Node sends trailers only with chunked encoding, so a reply with trailers announces them in a
 * `Trailer` header, drops `Content-Length`, writes the body, then ends the response once every value is known.
 * Replies without trailers never reach this module: the reply reads one prototype default (`null`).
 */
import { validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders } from 'node:http'
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kReplyTrailers } from '../core/symbols'
import { isThenable } from '../core/objects'
import type { ReplyState } from './reply'

export type TrailerFunction = (reply: ReplyState, payload: string | Buffer | null, done: (err: Error | null, value?: unknown) => void) => unknown

/** Fields a sender must not put in a trailer (RFC 9110 §6.5.1: framing, routing, authentication, content handling). */
const forbiddenTrailers = new Set([
  'transfer-encoding', 'content-length', 'host', 'cache-control', 'max-forwards', 'te', 'authorization',
  'set-cookie', 'content-encoding', 'content-type', 'content-range', 'trailer'
])

function isValidName (name: string): boolean {
  if (forbiddenTrailers.has(name)) return false
  try {
    validateHeaderName(name)
    return true
  } catch {
    return false
  }
}

/** Mixed into the base reply prototype (`reply.ts`). */
export const trailerReplyMethods = {
  [kReplyTrailers]: null as Map<string, TrailerFunction> | null,

  trailer (this: ReplyState, key: string, fn: TrailerFunction): ReplyState {
    const name = typeof key === 'string' ? key.toLowerCase() : key
    if (typeof name !== 'string' || !isValidName(name)) throw new codes.FST_ERR_BAD_TRAILER_NAME(key)
    if (typeof fn !== 'function') throw new codes.FST_ERR_BAD_TRAILER_VALUE(key, typeof fn)
    // an own map per reply, created on first use so that replies without trailers carry nothing
    if (this[kReplyTrailers] === null) this[kReplyTrailers] = new Map()
    this[kReplyTrailers].set(name, fn)
    return this
  },

  hasTrailer (this: ReplyState, key: string): boolean {
    const trailers: Map<string, TrailerFunction> | null = this[kReplyTrailers]
    return trailers !== null && trailers.has(String(key).toLowerCase())
  },

  removeTrailer (this: ReplyState, key: string): ReplyState {
    const trailers: Map<string, TrailerFunction> | null = this[kReplyTrailers]
    if (trailers !== null) trailers.delete(String(key).toLowerCase())
    return this
  }
}

/**
 * Called before the headers are written for a response with a body. Returns false when trailers cannot be sent
 * (none left after `removeTrailer`, a HEAD request); otherwise sets `Trailer`, switches to chunked encoding and
 * returns true: the caller must then end the response with `endWithTrailers`.
 */
export function announceTrailers (reply: ReplyState, headers: OutgoingHttpHeaders): boolean {
  const trailers = reply[kReplyTrailers]
  if (trailers === null) return false
  if (trailers.size === 0 || reply.request.raw.method === 'HEAD') return false
  // space-separated, as Fastify writes it
  headers.trailer = [...trailers.keys()].join(' ')
  delete headers['content-length']
  // HTTP/2 has no chunked encoding (its frames carry trailers) and rejects the header
  if (reply.request.raw.httpVersionMajor !== 2) headers['transfer-encoding'] = 'chunked'
  return true
}

/**
 * Computes every trailer (callback, promise or plain return value), adds those that produced a value and ends the
 * response. As Fastify documents, a failing trailer is left out and logged at debug level; the body is already sent.
 */
export function endWithTrailers (reply: ReplyState, payload: string | Buffer | null): void {
  const res = reply.raw
  // a snapshot: a trailer function may remove another one while they run
  const trailers = [...(reply[kReplyTrailers] as Map<string, TrailerFunction>)]
  let pending = trailers.length
  // Node's `addTrailers` replaces what an earlier call added: collect the values, add them once
  const values: Record<string, string> = {}
  const settle = (): void => {
    if (--pending !== 0) return
    try {
      res.addTrailers(values)
    } catch (err) {
      reply.log.debug({ err }, 'a trailer has an invalid value; no trailers were sent')
    }
    res.end()
  }
  // all removed after the headers announced them (while a stream was read): nothing to wait for
  if (pending === 0) {
    res.end()
    return
  }
  for (const [name, fn] of trailers) {
    let settled = false
    const done = (err: Error | null, value?: unknown): void => {
      if (settled) return
      settled = true
      if (err) {
        reply.log.debug({ err }, `trailer "${name}" failed`)
      } else if (value !== undefined && value !== null) {
        const text = String(value)
        try {
          validateHeaderValue(name, text)
          values[name] = text
        } catch (err) {
          reply.log.debug({ err }, `trailer "${name}" has an invalid value`)
        }
      }
      settle()
    }
    let result: unknown
    try {
      result = fn(reply, payload, done)
    } catch (err) {
      done(err as Error)
      continue
    }
    if (isThenable(result)) {
      result.then((value: unknown) => done(null, value), (err: unknown) => done(err instanceof Error ? err : new Error(String(err))))
    } else if (result !== undefined || fn.length < 3) {
      // a function that returns its value, or that takes no `done` and so can never call it
      if (result !== undefined && result !== null) {
        warnDeprecated('trailerDirectReturn')
      }
      done(null, result)
    }
  }
}
