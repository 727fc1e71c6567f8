/**
 * Body parsing: the encapsulated registry of content-type parsers, the body reader that enforces `bodyLimit` and
 * `Content-Length`, and the built-in `application/json` (prototype-poisoning safe) and `text/plain` parsers.
 * See https://fastify.dev/docs/v4.29.x/Reference/ContentTypeParser/
 */
import { codes } from '../core/errors'
import type { ApiLevel } from '../core/api-level'
import { kApp, kPluginContext } from '../core/symbols'
import { assertNotStarted } from '../core/start-guard'
import type { Instance } from '../encapsulation/app-state'
import type { RequestState } from './request'
import { readBody, runParser } from './body-reader'
import { createJsonParser, defaultTextParser } from './default-parsers'
import {
  isMediaTypeName, matchesName, nameKey, nameMatcher, normalizedHeader, parseHeader, parseHeaderLeniently, testsMediaTypeOnly, type NameMatcher,
  type ParsedContentType
} from './content-type-matching'

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
  /** Maximum body size for this parser; overrides the server's `bodyLimit`, never a route's own. */
  bodyLimit?: number
}

/** `err` is null on success, else whatever the parser failed with. */
export type ParserDone = (err: unknown, body?: unknown) => void
/** `(request, payload | body, done)`, or `async (request, payload | body) => body`; `this` is the instance. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a stream, a string or a Buffer, as the parser declared
export type ContentTypeParserFn = (this: Instance, request: RequestState, payloadOrBody: any, done: ParserDone) => unknown

/** A media type (`'application/json'`, `'*'`, see content-type-matching.ts for the other forms), a RegExp, or a list of them. */
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

/** A parser registered under a string other than the catch-all. */
interface NamedEntry {
  /** `nameKey` of the name: the identity used by `has`, `remove` and conflicts. */
  readonly key: string
  readonly matcher: NameMatcher
  readonly entry: ParserEntry
}

interface RegExpEntry {
  /** `RegExp#toString()` of the registered expression: the identity used by `has` and `remove`. */
  readonly key: string
  /** A copy without the `g`/`y` flags, so that `test` keeps no state between requests. */
  readonly matcher: RegExp
  readonly subject: RegExpSubject
  readonly entry: ParserEntry
}

/** What a RegExp is tested on (see `ApiLevel.contentTypeParsers`). */
type RegExpSubject = 'media-type' | 'header' | 'normalized-header'

/** The level's rules for parsers (`ApiLevel.contentTypeParsers`), and its 415 error. */
interface ParserRules {
  readonly bareNames: boolean
  readonly regExpsSeeNormalizedHeader: boolean
  readonly refuseInvalidHeaders: boolean
  readonly decodedTextLengthChecked: boolean
  readonly parseHeader: (header: string) => ParsedContentType
  readonly unsupportedMediaType: (contentType: string | undefined) => Error
}

function rulesOf (level: ApiLevel): ParserRules {
  const Unsupported = level.errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE
  return {
    ...level.contentTypeParsers,
    parseHeader: level.contentTypeParsers.lenientHeaders ? parseHeaderLeniently : parseHeader,
    // Fastify 4's message names the content type; Fastify 5's has no placeholder for it
    unsupportedMediaType: Unsupported === codes.FST_ERR_CTP_INVALID_MEDIA_TYPE ? (type) => new Unsupported(type) : () => new Unsupported()
  }
}

const CATCH_ALL = '*'
/** What a header that is no media type resolves to where the level refuses it before any parser (`refuseInvalidHeaders`). */
const INVALID_HEADER: ParserEntry = Object.freeze({ fn: () => undefined, parseAs: undefined, bodyLimit: undefined, builtin: true })
// Bounds of the header → parser cache: hostile clients can rotate headers, but never grow memory.
const CACHE_MAX_ENTRIES = 64
const CACHE_MAX_HEADER_LENGTH = 256

/** The parsers of one plugin context. A child starts as a copy of its parent and never changes it. */
export class ContentTypeParserRegistry {
  readonly #bodyLimit: number
  readonly #rules: ParserRules
  /** Name key → parser, the catch-all `'*'` included. A Map, so `constructor` or `__proto__` are just missing keys. */
  readonly #byName: Map<string, ParserEntry>
  /** String parsers, newest first: the last one registered that matches wins, as in Fastify. */
  #named: NamedEntry[]
  /** Tried after the string parsers, newest first too. */
  #byRegExp: RegExpEntry[]
  /** Raw header → resolved parser (`null`: none), so a repeated header costs one Map lookup. */
  readonly #resolved = new Map<string, ParserEntry | null>()

  private constructor (bodyLimit: number, rules: ParserRules, byName: Map<string, ParserEntry>, named: NamedEntry[], byRegExp: RegExpEntry[]) {
    this.#bodyLimit = bodyLimit
    this.#rules = rules
    this.#byName = byName
    this.#named = named
    this.#byRegExp = byRegExp
  }

  /** The root registry of an application at `level`, with the built-in `application/json` and `text/plain` parsers. */
  static root (opts: ContentTypeParserRegistryOptions, level: ApiLevel): ContentTypeParserRegistry {
    const json: ParserEntry = { fn: createJsonParser(opts.onProtoPoisoning, opts.onConstructorPoisoning, level.contentTypeParsers.invalidJsonCoded), parseAs: 'string', bodyLimit: undefined, builtin: true }
    const text: ParserEntry = { fn: defaultTextParser, parseAs: 'string', bodyLimit: undefined, builtin: true }
    const registry = new ContentTypeParserRegistry(opts.bodyLimit, rulesOf(level), new Map(), [], [])
    registry.#addNamed('text/plain', text)
    registry.#addNamed('application/json', json)
    return registry
  }

  /** A copy for a child context: entries are immutable, so only the containers are copied. */
  child (): ContentTypeParserRegistry {
    return new ContentTypeParserRegistry(this.#bodyLimit, this.#rules, new Map(this.#byName), this.#named.slice(), this.#byRegExp.slice())
  }

  add (contentType: ContentTypeKey, opts: ContentTypeParserOptions | undefined, parser: ContentTypeParserFn): void {
    const types = Array.isArray(contentType) ? contentType : [contentType]
    const keys = types.map(validateContentType)
    if (typeof parser !== 'function') throw new codes.FST_ERR_CTP_INVALID_HANDLER()
    const entry = createEntry(opts, parser)

    // Check everything before changing anything, so a failing array leaves the registry as it was.
    const seen = new Set<string>()
    for (const key of keys) {
      const id = typeof key === 'string' ? nameKey(key) : key.toString()
      if (seen.has(id) || this.#isTaken(key)) throw new codes.FST_ERR_CTP_ALREADY_PRESENT(typeof key === 'string' ? key : id)
      seen.add(id)
    }
    // checked last, as in Fastify 5
    if (!this.#rules.bareNames && keys.some((key) => typeof key === 'string' && key.trim() !== CATCH_ALL && !isMediaTypeName(key))) {
      throw new codes.FST_ERR_CTP_INVALID_TYPE()
    }
    for (const key of keys) {
      if (typeof key === 'string') this.#addNamed(key, entry)
      else this.#byRegExp.unshift({ key: key.toString(), matcher: statelessCopy(key), subject: this.#subjectOf(key), entry })
    }
    this.#resolved.clear()
  }

  has (contentType: string | RegExp): boolean {
    const key = validateContentType(contentType)
    if (typeof key === 'string') return this.#byName.has(nameKey(key))
    const id = key.toString()
    return this.#byRegExp.some((r) => r.key === id)
  }

  remove (contentType: ContentTypeKey): void {
    const types = Array.isArray(contentType) ? contentType : [contentType]
    for (const key of types.map(validateContentType)) {
      if (typeof key === 'string') {
        this.#removeNamed(nameKey(key))
      } else {
        const id = key.toString()
        this.#byRegExp = this.#byRegExp.filter((r) => r.key !== id)
      }
    }
    this.#resolved.clear()
  }

  removeAll (): void {
    this.#byName.clear()
    this.#named = []
    this.#byRegExp = []
    this.#resolved.clear()
  }

  /**
   * Parse one request body. `instance` is `this` for the user parser. Calls `done` exactly once. A type no parser
   * takes is a 415, except for the not-found handler (`optional`), which then gets no body, as in Fastify. The
   * route's own `bodyLimit` wins over the parser's, which wins over the server's (Fastify's order).
   */
  parse (instance: Instance, request: RequestState, payload: BodyStream, contentType: string | undefined, routeBodyLimit: number | undefined,
    optional: boolean, done: ParserDone): void {
    const entry = this.#resolve(contentType)
    if (entry === INVALID_HEADER) {
      done(this.#rules.unsupportedMediaType(contentType))
      return
    }
    if (entry === null) {
      if (optional) done(null, undefined)
      // An empty header is reported like a missing one, as Fastify does.
      else done(this.#rules.unsupportedMediaType(contentType === '' ? undefined : contentType))
      return
    }
    if (entry.parseAs === undefined) {
      runParser(entry.fn, instance, request, payload, done)
      return
    }
    readBody(instance, request, payload, entry, routeBodyLimit ?? entry.bodyLimit ?? this.#bodyLimit, this.#rules.decodedTextLengthChecked, done)
  }

  #subjectOf (re: RegExp): RegExpSubject {
    if (this.#rules.regExpsSeeNormalizedHeader) return 'normalized-header'
    return testsMediaTypeOnly(re) ? 'media-type' : 'header'
  }

  /** A user parser may replace a built-in one (here or inherited); any other existing parser is a conflict. */
  #isTaken (key: string | RegExp): boolean {
    if (typeof key === 'string') {
      const existing = this.#byName.get(nameKey(key))
      return existing !== undefined && !existing.builtin
    }
    const id = key.toString()
    return this.#byRegExp.some((r) => r.key === id)
  }

  #addNamed (name: string, entry: ParserEntry): void {
    const key = nameKey(name)
    this.#removeNamed(key)
    this.#byName.set(key, entry)
    if (key !== CATCH_ALL) this.#named.unshift({ key, matcher: nameMatcher(name), entry })
  }

  #removeNamed (key: string): void {
    if (!this.#byName.delete(key)) return
    this.#named = this.#named.filter((n) => n.key !== key)
  }

  #resolve (header: string | undefined): ParserEntry | null {
    if (header === undefined || header === '') return this.#byName.get(CATCH_ALL) ?? null
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
    // a header spelled exactly as a parser's name takes it (an `onRequest` hook may set `content-type: empty`)
    const exact = this.#byName.get(nameKey(header))
    if (exact !== undefined) return exact
    const parsed = this.#rules.parseHeader(header)
    if (parsed.type !== '') {
      for (const named of this.#named) {
        if (matchesName(parsed, named.matcher)) return named.entry
      }
      for (const r of this.#byRegExp) {
        if (r.matcher.test(regExpSubject(r.subject, parsed))) return r.entry
      }
    }
    // An unparsable header is one more type without a parser: the catch-all takes it, or it is a 415 (the Fastify 5
    // level refuses it before any parser, the catch-all's and the not-found handler's included)
    if (parsed.type === '' && this.#rules.refuseInvalidHeaders) return INVALID_HEADER
    return this.#byName.get(CATCH_ALL) ?? null
  }
}

function regExpSubject (subject: RegExpSubject, parsed: ParsedContentType): string {
  if (subject === 'media-type') return parsed.type
  return subject === 'header' ? parsed.header : normalizedHeader(parsed)
}

function validateContentType (contentType: unknown): string | RegExp {
  if (contentType instanceof RegExp) return contentType
  if (typeof contentType !== 'string') throw new codes.FST_ERR_CTP_INVALID_TYPE()
  if (contentType.trim() === '') throw new codes.FST_ERR_CTP_EMPTY_TYPE()
  return contentType
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
    return createJsonParser(onProtoPoisoning, onConstructorPoisoning, this[kApp].level.contentTypeParsers.invalidJsonCoded)
  },

  defaultTextParser
}
