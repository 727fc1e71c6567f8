/**
 * The runners of request hooks. A hook may be a callback-style function (calls `done`) or return a promise; either
 * way the runner moves on exactly once per hook. They are called only with non-empty lists (empty ones are null).
 */
import { failureOf } from '../core/to-error'
import { kReplyErrorHandler, kReplyHijacked } from '../core/symbols'
import { isThenable } from '../core/objects'
import type { AnyFn } from '../core/types'
import type { RequestState } from '../request/request'
import type { ReplyState } from '../reply/reply'

/** True once the reply is answered, hijacked, or in the error handler: later hooks must not run. */
export function isAnswered (reply: ReplyState): boolean {
  return reply.sent === true || reply[kReplyErrorHandler] !== null
}

/**
 * Whether a hook's failure is for nobody: the reply was hijacked (by this hook or an earlier one), so the response
 * is the hook's own business and an error response could only collide with it (Fastify drops it the same way).
 */
function failsUnheard (reply: ReplyState, stopWhenAnswered: boolean): boolean {
  return stopWhenAnswered && reply[kReplyHijacked]
}

/** `err` is null when every hook succeeded, else what the failing hook threw, rejected or gave `done`. */
type Done = (err: unknown, request: RequestState, reply: ReplyState) => void

/**
 * Runs `(request, reply, done)` hooks in order. With `stopWhenAnswered`, a hook that answers (or hijacks) ends the
 * chain silently; otherwise (onResponse, onTimeout) every hook runs.
 */
export function runHooks (hooks: AnyFn[], request: RequestState, reply: ReplyState, stopWhenAnswered: boolean, done: Done): void {
  let index = 0
  let settled = false
  next()

  function next (err?: unknown): void {
    if (stopWhenAnswered && isAnswered(reply)) return
    if (err !== undefined && err !== null) {
      done(failureOf(err), request, reply)
      return
    }
    if (index === hooks.length) {
      done(null, request, reply)
      return
    }
    const fn = hooks[index++]
    settled = false
    let result: unknown
    try {
      result = fn(request, reply, once)
    } catch (error) {
      settled = true
      if (!failsUnheard(reply, stopWhenAnswered)) done(failureOf(error), request, reply)
      return
    }
    if (isThenable(result)) {
      result.then(resolved, rejected)
    }
  }
  // A callback hook that both calls `done` and returns a promise must not advance twice.
  function once (err?: unknown): void {
    if (settled) return
    settled = true
    next(err)
  }
  function resolved (): void { once() }
  function rejected (err: unknown): void {
    if (settled) return
    settled = true
    if (!failsUnheard(reply, stopWhenAnswered)) done(failureOf(err), request, reply)
  }
}

type PayloadDone<T> = (err: unknown, reply: ReplyState, payload: T) => void

/**
 * Runs `(request, reply, payload, done(err, newPayload))` hooks; an async hook's resolved value replaces the payload.
 * `T` is what the caller gives; a hook may replace it with anything, which the caller then handles. With
 * `stopWhenAnswered` (preParsing), a hook that answers ends the chain silently, as with `runHooks`.
 */
export function runPayloadHooks<T> (hooks: AnyFn[], request: RequestState, reply: ReplyState, payload: T,
  stopWhenAnswered: boolean, done: PayloadDone<T>): void {
  let index = 0
  let current = payload
  let settled = false
  next(null, payload)

  function next (err: unknown, newPayload?: unknown): void {
    if (stopWhenAnswered && isAnswered(reply)) return
    if (err !== undefined && err !== null) {
      done(failureOf(err), reply, current)
      return
    }
    if (newPayload !== undefined) current = newPayload as T
    if (index === hooks.length) {
      done(null, reply, current)
      return
    }
    const fn = hooks[index++]
    settled = false
    let result: unknown
    try {
      result = fn(request, reply, current, once)
    } catch (error) {
      settled = true
      if (!failsUnheard(reply, stopWhenAnswered)) done(failureOf(error), reply, current)
      return
    }
    if (isThenable(result)) {
      result.then(resolved, rejected)
    }
  }
  function once (err?: unknown, newPayload?: unknown): void {
    if (settled) return
    settled = true
    next(err, newPayload)
  }
  function resolved (value: unknown): void { once(null, value) }
  function rejected (err: unknown): void {
    if (settled) return
    settled = true
    if (!failsUnheard(reply, stopWhenAnswered)) done(failureOf(err), reply, current)
  }
}
