/** The built-in body parsers: `application/json` (protected against prototype poisoning) and `text/plain`. */
import { parse as parseJson } from 'secure-json-parse'
import { codes } from '../core/errors'
import type { ParserDone, PoisoningAction } from './content-type-parser'

/**
 * Whether a JSON text certainly holds no `__proto__` or `constructor` key: secure-json-parse looks for those with two
 * regular expressions over the whole text, after parsing; without either word, without a backslash (every `\uXXXX`
 * spelling of them needs one) and without a BOM (which it strips first), it returns `JSON.parse`'s result as it is,
 * so the scans can be skipped. Three `includes` are several times cheaper than its two scans.
 */
function cannotBePoisoned (text: string): boolean {
  return text.charCodeAt(0) !== 0xFEFF && !text.includes('\\') && !text.includes('__proto__') && !text.includes('constructor')
}

/**
 * The built-in `application/json` parser for a `parseAs: 'string'` (or `'buffer'`) body. `invalidJsonCoded`: the
 * level policy's choice of error for a body it cannot parse (src/core/api-level.ts).
 */
export function createJsonParser (onProtoPoisoning: PoisoningAction = 'error', onConstructorPoisoning: PoisoningAction = 'error', invalidJsonCoded = false) {
  const options = { protoAction: onProtoPoisoning, constructorAction: onConstructorPoisoning }
  return function defaultJsonParser (_request: unknown, body: string | Buffer, done: ParserDone): void {
    if (body.length === 0) {
      done(new codes.FST_ERR_CTP_EMPTY_JSON_BODY())
      return
    }
    let json: unknown
    try {
      json = typeof body === 'string' && cannotBePoisoned(body) ? JSON.parse(body) : parseJson(body, null, options)
    } catch (err) {
      if (invalidJsonCoded) {
        done(new codes.FST_ERR_CTP_INVALID_JSON_BODY())
        return
      }
      // Malformed JSON and poisoning both throw a SyntaxError; Fastify 4 answers 400 with its message.
      (err as Error & { statusCode?: number }).statusCode = 400
      done(err as Error)
      return
    }
    done(null, json)
  }
}

/** The built-in `text/plain` parser. */
export function defaultTextParser (_request: unknown, body: string, done: ParserDone): void {
  done(null, body)
}
