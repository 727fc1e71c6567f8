/**
 * How a request's `Content-Type` header is compared with the names parsers were registered under, as Fastify
 * 4.29.1 does it (see `ContentTypeParserRegistry`, which tries them newest first):
 * - the header equal to a registered name takes that parser before any parsing (`'empty'`, set by a hook);
 * - a header that cannot be parsed (`application/json;`, `application/json; foo`) has no media type: only the
 *   catch-all `'*'` parser may take it;
 * - a name `type/subtype` takes exactly that media type, case-insensitively. (Fastify also gives it any media type
 *   that merely contains the name, `application/jsonx` included: Enclave does not, see docs/compatibility.md);
 * - a name without a slash (`'json'`) takes every media type containing it, as in Fastify;
 * - parameters in a name (`'application/json; charset=utf-8'`) must all be in the header, with the same values;
 * - a RegExp without `;` in its source is tested against the media type, one with `;` against the whole header.
 */
import { safeParse as parseContentType } from 'fast-content-type-parse'

/** A header as the matching reads it; `type` is `''` when the header cannot be parsed. */
export interface ParsedContentType {
  readonly header: string
  /** The lower-cased media type. */
  readonly type: string
  readonly parameters: Record<string, string>
}

export function parseHeader (header: string): ParsedContentType {
  const { type, parameters } = parseContentType(header)
  return { header, type, parameters }
}

/** What a name registered for string matching compares. */
export interface NameMatcher {
  /** The lower-cased media type, or for a name without a slash the text the media type must contain. */
  readonly type: string
  readonly partial: boolean
  /** Parameters the header must carry, with these values. */
  readonly parameters: ReadonlyArray<readonly [string, string]>
}

/** The identity of a string name: `has`, `remove` and conflicts compare names case-insensitively. */
export function nameKey (name: string): string {
  return name.trim().toLowerCase()
}

export function nameMatcher (name: string): NameMatcher {
  const parsed = parseContentType(name)
  const withParameters = name.includes(';')
  let type = parsed.type
  if (type === '') {
    // not a parsable type: its text before any `;` ('json;' → 'json'), or the whole name (';' stays ';')
    const before = name.split(';', 1)[0]
    type = (before.trim() === '' ? name : before).trim().toLowerCase()
  }
  return {
    type,
    partial: !type.includes('/'),
    parameters: withParameters ? Object.entries(parsed.parameters) : []
  }
}

export function matchesName (parsed: ParsedContentType, matcher: NameMatcher): boolean {
  if (matcher.partial ? !parsed.type.includes(matcher.type) : parsed.type !== matcher.type) return false
  for (const [key, value] of matcher.parameters) {
    if (!Object.hasOwn(parsed.parameters, key) || parsed.parameters[key] !== value) return false
  }
  return true
}

/** A RegExp without `;` in its source is about the media type alone, as in Fastify. */
export function testsMediaTypeOnly (re: RegExp): boolean {
  return !re.source.includes(';')
}
