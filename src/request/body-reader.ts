/**
 * Reading a request body for a parser: a `parseAs` parser gets the collected body, checked against the body limit
 * (before and while reading) and the `Content-Length`; a stream parser gets the stream. Either form of parser
 * (callback or promise) reports once, whatever it does.
 */
import { isUtf8 } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { codes } from '../core/errors'
import { failureOf } from '../core/to-error'
import { isThenable } from '../core/objects'
import type { Instance } from '../encapsulation/app-state'
import type { RequestState } from './request'
import type { BodyStream, ContentTypeParserFn, ParserDone, ParserEntry } from './content-type-parser'

/** Calls a user parser in either form (callback or promise) and reports to `done` once, whatever it does. */
export function runParser (fn: ContentTypeParserFn, instance: Instance, request: RequestState, input: unknown, done: ParserDone): void {
  let settled = false
  const finish: ParserDone = (err, body) => {
    if (settled) return
    settled = true
    // a parser may fail with any value (`done('boom')`): it must still become an error response, never a body
    if (err) done(err)
    else done(null, body)
  }
  let result: unknown
  try {
    result = fn.call(instance, request, input, finish)
  } catch (err) {
    // Once settled, the throw came from the lifecycle behind `done`: not the parser's to report.
    if (settled) throw err
    finish(failureOf(err))
    return
  }
  if (isThenable(result)) {
    result.then((body: unknown) => finish(null, body), (err: unknown) => finish(failureOf(err)))
  }
}

/** The body length a request's `Content-Length` declares, or -1 when it declares none (or no number). */
export function declaredLength (headers: IncomingHttpHeaders | undefined): number {
  const declared = headers === undefined ? undefined : headers['content-length']
  const parsed = declared === undefined ? NaN : Number(declared)
  return Number.isFinite(parsed) ? parsed : -1
}

/**
 * Collects the body for a `parseAs` parser, enforcing the body limit (before and while reading) and the
 * `Content-Length` of the original request, then hands it to the parser. `decodedLengthChecked`: the level's rule
 * for a text body that is not UTF-8 (`contentTypeParsers.decodedTextLengthChecked` in src/core/api-level.ts).
 */
export function readBody (instance: Instance, request: RequestState, payload: BodyStream, entry: ParserEntry, limit: number, decodedLengthChecked: boolean, done: ParserDone): void {
  const expected = declaredLength(request.headers ?? request.raw?.headers)
  if (expected > limit) {
    done(new codes.FST_ERR_CTP_BODY_TOO_LARGE())
    return
  }

  // The length on the wire is known for the original request, or when a preParsing stream reports it.
  const isOriginal = payload === request.raw
  let chunks: Buffer[] | null = []
  let received = 0
  let settled = false

  // The listeners stay attached once settled (each returns at once then): removing five listeners per request cost
  // more than the rest of the read, and the 'error' one must stay anyway (an error nobody hears crashes the process).
  const stop = (): void => {
    settled = true
    chunks = null
  }

  function onData (chunk: Buffer | string): void {
    if (settled) return
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    received += buffer.length
    if (received > limit) {
      stop()
      // A preParsing stream (e.g. a decompressor) is ours to stop; the raw request is drained by Node after the reply.
      if (!isOriginal) (payload as Partial<Readable>).destroy?.()
      done(new codes.FST_ERR_CTP_BODY_TOO_LARGE())
      return
    }
    chunks!.push(buffer)
  }

  function onEnd (): void {
    if (settled) return
    const collected = chunks!
    stop()
    const encoded = payload.receivedEncodedLength
    const actual = typeof encoded === 'number' ? encoded : (isOriginal ? received : -1)
    if (expected !== -1 && actual !== -1 && actual !== expected) {
      done(new codes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
      return
    }
    const buffer = collected.length === 1 ? collected[0] : Buffer.concat(collected, received)
    // decoding would turn invalid bytes into U+FFFD silently: a text body must be UTF-8. Fastify 4 answers 400 too: it
    // measures the decoded text against Content-Length, so a gzip body sent as JSON gets its length mismatch
    if (entry.parseAs === 'string' && !isUtf8(buffer)) {
      const decoded = buffer.toString('utf8')
      const mismatch = decodedLengthChecked && expected !== -1 && isOriginal && typeof encoded !== 'number' && Buffer.byteLength(decoded) !== expected
      if (mismatch) done(new codes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
      else refuseNonUtf8(instance, request, entry, decoded, done)
      return
    }
    const body = entry.parseAs === 'string' ? buffer.toString('utf8') : buffer
    // Built-in parsers are synchronous and call done once: no guard needed on the hottest path.
    if (entry.builtin) entry.fn.call(instance, request, body, done)
    else runParser(entry.fn, instance, request, body, done)
  }

  function onError (err: Error & { statusCode?: number }): void {
    if (settled) return
    stop()
    // the body could not be read (a bad gzip stream, a failing preParsing stream): the client's fault, as in Fastify,
    // unless the stream said which error status it is (a 408 from a timing-out decoder, say)
    if (typeof err.statusCode !== 'number' || err.statusCode < 400) err.statusCode = 400
    done(err)
  }

  function onAbort (): void {
    if (settled) return
    stop()
    done(requestAbortedError())
  }

  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onError)
  payload.on('aborted', onAbort)
  payload.on('close', onAbort)
  // A stream paused explicitly (e.g. while async hooks ran) would not start flowing from a 'data' listener alone.
  if (payload.isPaused()) payload.resume()
}

/**
 * A text body that is not UTF-8, for the parser that would have read it: a built-in parser that fails on the decoded
 * text gives its own error, as Fastify answers (a gzip body sent as JSON is not valid JSON); otherwise the body is
 * refused rather than parsed with U+FFFD in place of its bytes (FST_ERR_CTP_INVALID_UTF8).
 */
function refuseNonUtf8 (instance: Instance, request: RequestState, entry: ParserEntry, decoded: string, done: ParserDone): void {
  if (!entry.builtin) {
    done(new codes.FST_ERR_CTP_INVALID_UTF8())
    return
  }
  runParser(entry.fn, instance, request, decoded, (err) => done(err ?? new codes.FST_ERR_CTP_INVALID_UTF8()))
}

function requestAbortedError (): Error {
  const err = new Error('Request aborted before its body was received') as Error & { code: string, statusCode: number }
  err.code = 'ECONNRESET'
  err.statusCode = 400
  return err
}
