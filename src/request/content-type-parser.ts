/**
 * Body parsing: the encapsulated registry of content-type parsers, the body reader that enforces `bodyLimit` and
 * `Content-Length`, and the built-in `application/json` (prototype-poisoning safe) and `text/plain` parsers.
 * See https://fastify.dev/docs/v4.29.x/Reference/ContentTypeParser/
 */
import { safeParse as parseContentType } from 'fast-content-type-parse'
import { codes } from '../core/errors'
import { kPluginContext } from '../core/symbols'
import { normalizeMediaType } from '../core/media-type'
import { assertNotStarted } from '../core/start-guard'
import type { Instance } from '../encapsulation/app-state'
import type { RequestState } from './request'
import { readBody, runParser } from './body-reader'
import { createJsonParser, defaultTextParser } from './default-parsers'

export type PoisoningAction = 'error' | 'remove' | 'ignore'

export interface ContentTypeParserRegistryOptions {
  bodyLimit: number
  onProtoPoisoning: PoisoningAction
  onConstructorPoisoning: PoisoningAction
}

/** Options of `addContentTypeParser(type, opts, parser)`. */
export interface ContentTypeParserOptions {
  /** Collect the body and hand it to the parser instead of the stream. */
  parseAs?: 'string' | 'buffer'
  /** Maximum body size for this parser; overrides the route's and the server's `bodyLimit`. */
  bodyLimit?: number
}

/** `err` is null on success, else whatever the parser failed with. */
export type ParserDone = (err: unknown, body?: unknown) => void
/** `(request, payload | body, done)`, or `async (request, payload | body) => body`; `this` is the instance. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a stream, a string or a Buffer, as the parser declared
export type ContentTypeParserFn = (this: Instance, request: RequestState, payloadOrBody: any, done: ParserDone) => unknown

/** A media type (`'application/json'`, `'*'`), a RegExp tested against the media type, or a list of them. */
export type ContentTypeKey = string | RegExp | Array<string | RegExp>

/** A body as a stream: the request itself, or what preParsing hooks made of it (it may report its encoded length). */
export type BodyStream = NodeJS.ReadableStream & { receivedEncodedLength?: number }

export interface ParserEntry {
  readonly fn: ContentTypeParserFn
  readonly parseAs: 'string' | 'buffer' | undefined
  readonly bodyLimit: number | undefined
  /** The default JSON/text parsers: a user parser may replace them, and they are called without a once-guard. */
  readonly builtin: boolean
}

interface RegExpEntry {
  /** `RegExp#toString()` of the registered expression: the identity used by `has` and `remove`. */
  readonly key: string
  /** A copy without the `g`/`y` flags, so that `test` keeps no state between requests. */
  readonly matcher: RegExp
  readonly entry: ParserEntry
}

const CATCH_ALL = '*'
// Bounds of the header → parser cache: hostile clients can rotate headers, but never grow memory.
const CACHE_MAX_ENTRIES = 64
const CACHE_MAX_HEADER_LENGTH = 256
// type/subtype (RFC 7230 tokens) with optional whitespace, before the parameters.
const MEDIA_TYPE = /^[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*(?:;|$)/

/** The parsers of one plugin context. A child starts as a copy of its parent and never changes it. */
export class ContentTypeParserRegistry {
  readonly #bodyLimit: number
  /** Lower-cased media type (or `'*'`) → parser. A Map, so `constructor` or `__proto__` are just missing keys. */
  readonly #byMediaType: Map<string, ParserEntry>
  /** Tried in registration order, after the exact media types. */
  #byRegExp: RegExpEntry[]
  /** Raw header → resolved parser (`null`: none), so a repeated header costs one Map lookup. */
  readonly #resolved = new Map<string, ParserEntry | null>()

  private constructor (bodyLimit: number, byMediaType: Map<string, ParserEntry>, byRegExp: RegExpEntry[]) {
    this.#bodyLimit = bodyLimit
    this.#byMediaType = byMediaType
    this.#byRegExp = byRegExp
  }

  /** The root registry, with the built-in `application/json` and `text/plain` parsers. */
  static root (opts: ContentTypeParserRegistryOptions): ContentTypeParserRegistry {
    const json = createJsonParser(opts.onProtoPoisoning, opts.onConstructorPoisoning)
    const byMediaType = new Map<string, ParserEntry>([
      ['application/json', { fn: json, parseAs: 'string', bodyLimit: undefined, builtin: true }],
      ['text/plain', { fn: defaultTextParser, parseAs: 'string', bodyLimit: undefined, builtin: true }]
    ])
    return new ContentTypeParserRegistry(opts.bodyLimit, byMediaType, [])
  }

  /** A copy for a child context: entries are immutable, so only the containers are copied. */
  child (): ContentTypeParserRegistry {
    return new ContentTypeParserRegistry(this.#bodyLimit, new Map(this.#byMediaType), this.#byRegExp.slice())
  }

  add (contentType: ContentTypeKey, opts: ContentTypeParserOptions | undefined, parser: ContentTypeParserFn): void {
    const types = Array.isArray(contentType) ? contentType : [contentType]
    const keys = types.map(validateContentType)
    if (typeof parser !== 'function') throw new codes.FST_ERR_CTP_INVALID_HANDLER()
    const entry = createEntry(opts, parser)

    // Check everything before changing anything, so a failing array leaves the registry as it was.
    const seen = new Set<string>()
    for (const key of keys) {
      const id = typeof key === 'string' ? key : key.toString()
      if (seen.has(id) || this.#isTaken(key)) throw new codes.FST_ERR_CTP_ALREADY_PRESENT(id)
      seen.add(id)
    }
    for (const key of keys) {
      if (typeof key === 'string') this.#byMediaType.set(key, entry)
      else this.#byRegExp.push({ key: key.toString(), matcher: statelessCopy(key), entry })
    }
    this.#resolved.clear()
  }

  has (contentType: string | RegExp): boolean {
    if (typeof contentType === 'string') return this.#byMediaType.has(normalizeMediaType(contentType))
    if (contentType instanceof RegExp) {
      const key = contentType.toString()
      return this.#byRegExp.some((r) => r.key === key)
    }
    return false
  }

  remove (contentType: ContentTypeKey): void {
    const types = Array.isArray(contentType) ? contentType : [contentType]
    for (const key of types.map(validateContentType)) {
      if (typeof key === 'string') {
        this.#byMediaType.delete(key)
      } else {
        const id = key.toString()
        this.#byRegExp = this.#byRegExp.filter((r) => r.key !== id)
      }
    }
    this.#resolved.clear()
  }

  removeAll (): void {
    this.#byMediaType.clear()
    this.#byRegExp = []
    this.#resolved.clear()
  }

  /**
   * Parse one request body. `instance` is `this` for the user parser. Calls `done` exactly once. A type no parser
   * takes is a 415, except for the not-found handler (`optional`), which then gets no body, as in Fastify.
   */
  parse (instance: Instance, request: RequestState, payload: BodyStream, contentType: string | undefined, routeBodyLimit: number | undefined,
    optional: boolean, done: ParserDone): void {
    const entry = this.#resolve(contentType)
    if (entry === null) {
      if (optional) done(null, undefined)
      // An empty header is reported like a missing one, as Fastify does.
      else done(new codes.FST_ERR_CTP_INVALID_MEDIA_TYPE(contentType === '' ? undefined : contentType))
      return
    }
    if (entry.parseAs === undefined) {
      runParser(entry.fn, instance, request, payload, done)
      return
    }
    readBody(instance, request, payload, entry, entry.bodyLimit ?? routeBodyLimit ?? this.#bodyLimit, done)
  }

  /** A user parser may replace a built-in one (here or inherited); any other existing parser is a conflict. */
  #isTaken (key: string | RegExp): boolean {
    if (typeof key === 'string') {
      const existing = this.#byMediaType.get(key)
      return existing !== undefined && !existing.builtin
    }
    const id = key.toString()
    return this.#byRegExp.some((r) => r.key === id)
  }

  #resolve (header: string | undefined): ParserEntry | null {
    if (header === undefined || header === '') return this.#byMediaType.get(CATCH_ALL) ?? null
    const cached = this.#resolved.get(header)
    if (cached !== undefined) return cached
    const found = this.#match(header)
    if (header.length <= CACHE_MAX_HEADER_LENGTH) {
      // First in, first out: Map iteration follows insertion order.
      if (this.#resolved.size >= CACHE_MAX_ENTRIES) this.#resolved.delete(this.#resolved.keys().next().value as string)
      this.#resolved.set(header, found)
    }
    return found
  }

  #match (header: string): ParserEntry | null {
    const mediaType = mediaTypeOf(header)
    if (mediaType !== '') {
      const exact = this.#byMediaType.get(mediaType)
      if (exact !== undefined) return exact
      for (const r of this.#byRegExp) {
        if (r.matcher.test(mediaType)) return r.entry
      }
    }
    // An unparsable header is one more type without a parser: the catch-all takes it, or it is a 415.
    return this.#byMediaType.get(CATCH_ALL) ?? null
  }
}

/** The lower-cased media type of a `Content-Type` header, or `''` when it has none. */
function mediaTypeOf (header: string): string {
  const type = parseContentType(header).type
  if (type !== '') return type
  // safeParse rejects tabs around `;`, a trailing `;` and malformed parameters. Parameters never choose the
  // parser, so a well-formed media type in front of them is enough.
  const match = MEDIA_TYPE.exec(header)
  return match === null ? '' : match[1].toLowerCase()
}

function validateContentType (contentType: unknown): string | RegExp {
  if (contentType instanceof RegExp) return contentType
  if (typeof contentType !== 'string') throw new codes.FST_ERR_CTP_INVALID_TYPE()
  const key = normalizeMediaType(contentType)
  if (key === '') throw new codes.FST_ERR_CTP_EMPTY_TYPE()
  return key
}

function statelessCopy (re: RegExp): RegExp {
  return re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re
}

function createEntry (opts: ContentTypeParserOptions | undefined, fn: ContentTypeParserFn): ParserEntry {
  const parseAs = opts?.parseAs
  if (parseAs !== undefined && parseAs !== 'string' && parseAs !== 'buffer') {
    throw new codes.FST_ERR_CTP_INVALID_PARSE_TYPE(parseAs)
  }
  const bodyLimit = opts?.bodyLimit
  if (bodyLimit !== undefined && !(Number.isInteger(bodyLimit) && bodyLimit > 0)) {
    throw new codes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(bodyLimit)
  }
  return { fn, parseAs, bodyLimit, builtin: false }
}

function registryOf (instance: Instance): ContentTypeParserRegistry {
  return instance[kPluginContext].contentTypeParsers
}

function assertCanChangeParsers (instance: Instance, method: string): void {
  assertNotStarted(instance, method, codes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED)
}

/** Public instance methods, mixed into the root instance; each works on the calling context's registry. */
export const contentTypeInstanceMethods = {
  /** `addContentTypeParser(type, [opts], parser)`: encapsulated in the calling plugin and its children. */
  addContentTypeParser (this: Instance, contentType: ContentTypeKey, opts?: ContentTypeParserOptions | ContentTypeParserFn, parser?: ContentTypeParserFn): Instance {
    assertCanChangeParsers(this, 'addContentTypeParser')
    if (typeof opts === 'function') {
      parser = opts
      opts = undefined
    }
    registryOf(this).add(contentType, opts, parser as ContentTypeParserFn)
    return this
  },

  hasContentTypeParser (this: Instance, contentType: string | RegExp): boolean {
    return registryOf(this).has(contentType)
  },

  removeContentTypeParser (this: Instance, contentType: ContentTypeKey): void {
    assertCanChangeParsers(this, 'removeContentTypeParser')
    registryOf(this).remove(contentType)
  },

  removeAllContentTypeParsers (this: Instance): void {
    assertCanChangeParsers(this, 'removeAllContentTypeParsers')
    registryOf(this).removeAll()
  },

  /** A JSON parser with its own poisoning settings, to register for other types with `parseAs: 'string'`. */
  getDefaultJsonParser (this: Instance, onProtoPoisoning: PoisoningAction, onConstructorPoisoning: PoisoningAction) {
    return createJsonParser(onProtoPoisoning, onConstructorPoisoning)
  },

  defaultTextParser
}
