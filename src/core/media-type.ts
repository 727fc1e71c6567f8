/**
 * The media type of a content type as given by a user (`'Application/JSON; charset=utf-8'` → `'application/json'`):
 * what parsers and per-content-type serializers are registered and looked up under. Request headers are parsed
 * more strictly, by the body parser (`request/content-type-parser.ts`).
 */
export function normalizeMediaType (contentType: string): string {
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}
