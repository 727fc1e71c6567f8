/**
 * Media types of `Content-Type` values.
 * - `normalizeMediaType`: a content type as given by a user (`'Application/JSON; charset=utf-8'` →
 *   `'application/json'`), what parsers and per-content-type serializers are registered and looked up under.
 * - `mediaTypeOf`: what `request.mediaType` and `reply.mediaType` report for a header: its `type/subtype`,
 *   lower-cased, or `undefined` when there is none or it is not a media type (RFC 9110 §8.3.1).
 * Request headers are matched against parsers more strictly, by the body parser (`request/content-type-matching.ts`).
 */
export function normalizeMediaType (contentType: string): string {
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/** `type/subtype`, each an RFC 9110 token; spaces may surround the pair, not sit inside it. */
const MEDIA_TYPE = /^[\t ]*([!#$%&'*+.^`|~\w-]+\/[!#$%&'*+.^`|~\w-]+)[\t ]*$/

export function mediaTypeOf (header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined
  const semicolon = header.indexOf(';')
  const match = MEDIA_TYPE.exec(semicolon === -1 ? header : header.slice(0, semicolon))
  return match === null ? undefined : match[1].toLowerCase()
}
