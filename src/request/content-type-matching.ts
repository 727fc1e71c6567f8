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
 * The Fastify 5 level (`ApiLevel.contentTypeParsers`) reads headers more leniently (`parseHeaderLeniently`), takes
 * only names that are media types, and tests every RegExp against the normalized header (`normalizedHeader`).
 */
import { safeParse as parseContentType } from 'fast-content-type-parse'
import { mediaTypeOf } from '../core/media-type'

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

/** `name=value` or `name="quoted \\" value"` after a `;` (RFC 9110 §5.6.6); what does not match is skipped. */
const PARAMETER = /(?:^|;)[\t ]*([!#$%&'*+.^`|~\w-]+)=("(?:[^"\\]|\\.)*"|[!#$%&'*+.^`|~\w-]+)/g

/**
 * A header as the Fastify 5 level reads it: the media type before the first `;` (spaces around it allowed, so
 * `application/json ;` and `application/json;` have one), then whichever parameters are well formed.
 */
export function parseHeaderLeniently (header: string): ParsedContentType {
  const type = mediaTypeOf(header)
  const parameters: Record<string, string> = Object.create(null)
  if (type === undefined) return { header, type: '', parameters }
  const semicolon = header.indexOf(';')
  if (semicolon !== -1) {
    for (const [, name, value] of header.slice(semicolon).matchAll(PARAMETER)) {
      parameters[name.toLowerCase()] = value[0] === '"' ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value
    }
  }
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

/** Whether a parser's name is a media type (`type/subtype`, parameters allowed), as the Fastify 5 level requires. */
export function isMediaTypeName (name: string): boolean {
  return mediaTypeOf(name) !== undefined
}

/**
 * The header as the Fastify 5 level tests RegExps on it: the media type and each parameter as `; name="value"`
 * (`Application/JSON;charset=utf8` → `application/json; charset="utf8"`).
 */
export function normalizedHeader (parsed: ParsedContentType): string {
  let normalized = parsed.type
  for (const name of Object.keys(parsed.parameters)) normalized += `; ${name}="${parsed.parameters[name]}"`
  return normalized
}

/** A RegExp without `;` in its source is about the media type alone, as in Fastify 4. */
export function testsMediaTypeOnly (re: RegExp): boolean {
  return !re.source.includes(';')
}
