/**
 * The Fastify API levels Enclave implements, and everything that differs between them: one policy object per level,
 * read when an application is created and when its contexts' request and reply classes are built, never on a
 * request. Behaviour added by Fastify 5 that does not conflict with Fastify 4 (new methods, new options) is present
 * at both levels and does not appear here; only the conflicts do, each with the value of both levels.
 * The table of these differences, for users, is in docs/compatibility.md ("What differs between the levels").
 */
import { codes, codesChangedInFastify5 } from './errors'
import type { MethodDefaults } from './http-methods'

export interface ApiLevel {
  /** Fastify's major version this level implements. */
  readonly major: 4 | 5
  /** What `app.version` reports: the Fastify release whose behaviour this level follows. */
  readonly fastifyVersion: string
  /**
   * The Fastify versions a plugin's declared `fastify` range is checked against: it loads when one of them
   * satisfies the range. The Fastify 4 level also takes plugins made for Fastify 5 (docs/migration.md), so an
   * application can move to current plugins one at a time.
   */
  readonly pluginVersions: readonly string[]
  /** Defaults of factory options whose default changed between the levels. */
  readonly optionDefaults: Readonly<{
    /** Fastify 4 expands JSON Schema shorthand (`{ name: { type: 'string' } }`); Fastify 5 needs full schemas. */
    jsonShorthand: boolean
    /**
     * The header a request id is taken from: Fastify 4 reads `request-id` by default; Fastify 5 reads none unless
     * asked (a client should not choose its own id): `requestIdHeader: true` or a name.
     */
    requestIdHeader: string | false
  }>
  /**
   * JSON Schema shorthand: Fastify 4 expands `{ name: { type: 'string' } }` to an object schema unless the
   * `jsonShorthand` option is false, and takes a response `content` of one entry without `schema` for a property.
   * Fastify 5 removed both, and the option: schemas compile as written whatever `jsonShorthand` says (Ajv's strict
   * mode then fails ready with FST_ERR_SCH_VALIDATION_BUILD, `unknown keyword`), and every `content` entry needs a
   * `schema` (FST_ERR_SCH_CONTENT_MISSING_SCHEMA).
   */
  readonly schemaShorthand: boolean
  /**
   * A validator that throws: Fastify 4 lets the error through as the request's error (500, never attached by
   * `attachValidation`); Fastify 5 makes it the part's validation error: status 500, `code` FST_ERR_VALIDATION unless
   * it has one, `validationContext`, and `attachValidation` attaches it (the handler runs).
   */
  readonly validatorThrowIsValidationError: boolean
  /**
   * A part whose root value the validator coerces (a JSON body `"12"` under `{ type: 'integer' }`): Fastify 4
   * validates the coerced copy and hands the handler the value as sent (`"12"`); Fastify 5 hands it the coerced one (12).
   */
  readonly coercedRootReachesRequest: boolean
  /** `request.hostname`: Fastify 4 gives the Host header as sent (with its port), Fastify 5 the name alone. */
  readonly hostnameWithPort: boolean
  /**
   * `trustProxy: <number>`: Fastify 4 trusts that many hops; Fastify 5 trusts none, since a hop count cannot tell a
   * proxy from a client that connects directly and forges `X-Forwarded-*` (use addresses or a function instead).
   */
  readonly trustProxyHopCount: boolean
  /** What `errorCodes` holds: Fastify 5 changed some messages (`codesChangedInFastify5`, src/core/errors.ts). */
  readonly errorCodes: typeof codes
  /** How request content types meet parsers where Fastify 5 changed it (src/request/content-type-matching.ts). */
  readonly contentTypeParsers: Readonly<{
    /**
     * Fastify 4 parses headers strictly: one it cannot parse (`application/json ;`, `application/json;`) has no media
     * type, so only the catch-all parser takes it. Fastify 5 reads the media type before the first `;` (spaces
     * around it allowed) and skips malformed parameters.
     */
    lenientHeaders: boolean
    /**
     * A header that has no media type (`invalid`, `undefined`): Fastify 4 gives it to the catch-all parser, or to
     * the not-found handler without a body; Fastify 5 answers 415 before any parser.
     */
    refuseInvalidHeaders: boolean
    /** Fastify 4 also takes a name that is no media type (`'json'`: every type containing it); Fastify 5 throws. */
    bareNames: boolean
    /**
     * What a RegExp is tested on. Fastify 4: the media type, or the header as sent when the RegExp has `;`; Fastify
     * 5: the header normalized (`type/subtype; name="value"`), whatever the RegExp.
     */
    regExpsSeeNormalizedHeader: boolean
    /**
     * A body the built-in JSON parser cannot parse: Fastify 4 answers 400 with the parser's own SyntaxError message;
     * Fastify 5 with FST_ERR_CTP_INVALID_JSON_BODY (`Body is not valid JSON but content-type is set to 'application/json'`).
     */
    invalidJsonCoded: boolean
    /**
     * A text body (`parseAs: 'string'`) that is not valid UTF-8, with a `Content-Length`: Fastify 4 measures the
     * decoded text against it, so such a body gets FST_ERR_CTP_INVALID_CONTENT_LENGTH; Fastify 5 counts the bytes
     * received, and the body goes on to its parser.
     */
    decodedTextLengthChecked: boolean
  }>
  /**
   * A handler that throws or rejects `null` or `undefined`: Fastify 4 answers an error body (Enclave's is
   * FST_ERR_SEND_UNDEFINED_ERR's), Fastify 5 sends the value as the payload (`null` as JSON, `undefined` as no body).
   */
  readonly nullishThrownAsPayload: boolean
  /** A second `setErrorHandler()` in one scope: Fastify 5 warns (FSTWRN004) unless `allowErrorHandlerOverride: false` refuses it. */
  readonly errorHandlerOverrideWarns: boolean
  /**
   * `request.signal` (Fastify 5's, present at both levels): Fastify 4 has none, so its applications and plugins may
   * decorate or assign their own (`decorateRequest('signal', null)`); at the Fastify 4 level theirs replaces it for
   * the request. Fastify 5's is a read-only built-in, which a decorator cannot take (FST_ERR_DEC_ALREADY_PRESENT).
   */
  readonly requestSignalAssignable: boolean
  /**
   * The HTTP methods on by default and how each is read for a body (`addHttpMethod` changes an application's table).
   * Fastify 4 has the WebDAV methods, reads OPTIONS and DELETE bodies only when typed, and lets TRACE carry one;
   * Fastify 5 has the standard methods plus QUERY (RFC 10008), a body on all but GET, HEAD and TRACE.
   */
  readonly httpMethods: MethodDefaults
  /** Methods with a built-in shorthand beyond get/head/post/put/delete/options/patch (Fastify 5's `trace`, `query`). */
  readonly methodShorthands: readonly string[]
  /** Fastify 5 deprecates the router options given at the top level (FSTDEP022): they belong in `routerOptions`. */
  readonly topLevelRouterOptionsDeprecated: boolean
  /**
   * A route `logLevel` (its own or its plugin's) the application's logger does not know: Fastify 4 takes it and every
   * request of the route fails (Enclave fails `ready()`, FST_ERR_ROUTE_OPTION_INVALID); Fastify 5 throws at
   * registration (FST_ERR_ROUTE_LOG_LEVEL_INVALID).
   */
  readonly logLevelCheckedAtRegistration: boolean
  /** A parameter longer than `maxParamLength`: Fastify 4 finds no route (404), Fastify 5 answers 414 FST_ERR_MAX_PARAM_LENGTH. */
  readonly longParamAnswered: boolean
  /**
   * A malformed URL no route's method saw (no route of its method): Fastify 4 gives it to the not-found handler
   * (404), Fastify 5 answers FST_ERR_BAD_URL (400), as for any other malformed URL.
   */
  readonly badUrlBeforeNotFound: boolean
  /** A plugin prefix without its leading slash under a parent prefix ending in one: Fastify 4 adds a slash ('/v1//inner'), Fastify 5 joins them ('/v1/inner'). */
  readonly prefixJoinsAfterSlash: boolean
  /**
   * `hasRoute({ method, url })`: Fastify 4 looks the URL up as a request would (`/users/1` finds `/users/:id`);
   * Fastify 5 asks whether that very route was registered (`/users/:id`, a regexp parameter's pattern included).
   */
  readonly hasRouteByPattern: boolean
  /**
   * The '/prefix/' twin of a prefixed '/' route (`prefixTrailingSlash: 'both'`): Fastify 4 reports its own path in
   * `request.routeOptions.url`, Fastify 5 the route's ('/prefix').
   */
  readonly slashVariantReportsPrefix: boolean
  /**
   * A request/reply decorator whose value is an object or array (shared by every request): Fastify 4 warns
   * (FSTDEP006), Fastify 5 refuses it (FST_ERR_DEC_REFERENCE_TYPE).
   */
  readonly referenceDecorators: 'warn' | 'throw'
  /**
   * A request/reply decorator named after a field the constructor sets (`id`, `params`, `query`, `body`, `log`, …):
   * Fastify 4 lets a value or function take the name, Fastify 5 refuses it (FST_ERR_DEC_ALREADY_PRESENT).
   */
  readonly decoratorsOverFields: boolean
  /** `logger` given a logger instance: Fastify 4 uses it; Fastify 5 wants `loggerInstance` (FST_ERR_LOG_INVALID_LOGGER_CONFIG). */
  readonly loggerTakesInstance: boolean
  /**
   * `this` of an onRegister hook: Fastify 4 gives avvio's loader (plugins that map the tree read its `_current`),
   * Fastify 5 the parent instance.
   */
  readonly onRegisterThis: 'loader' | 'parent'
  /**
   * A plugin function declaring fewer than three parameters that returns no promise: Fastify 5 (avvio 9) counts it
   * loaded when it returns; Fastify 4 (avvio 8) waits for `done`, which such a function may still call
   * (`(app, opts = {}, next)` has length 1).
   */
  readonly pluginLoadsWithoutDone: boolean
  /** An async plugin that also takes `done`: Fastify 4 warns (FSTWRN002), Fastify 5 refuses it (FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER). */
  readonly mixedPluginStyles: 'warn' | 'throw'
  /** FST_ERR_HOOK_TIMEOUT names the hook's function in Fastify 5 (`hook "name" timed out`), not in Fastify 4. */
  readonly hookTimeoutNamesHook: boolean
  /**
   * `listen({ host: '0.0.0.0' })`: Fastify 4 resolves with and logs `http://0.0.0.0:<port>`; Fastify 5 with the IPv4
   * addresses of the machine's interfaces (internal ones first), logging each.
   */
  readonly wildcardListenInterfaces: boolean
  /** How to ask for the other level, for errors that need it. */
  readonly entry: string
}

const fastify4Methods: MethodDefaults = Object.freeze({
  DELETE: 'when-typed',
  GET: 'none',
  HEAD: 'none',
  PATCH: 'any',
  POST: 'any',
  PUT: 'any',
  OPTIONS: 'when-typed',
  PROPFIND: 'any',
  PROPPATCH: 'any',
  MKCOL: 'any',
  COPY: 'any',
  MOVE: 'any',
  LOCK: 'any',
  UNLOCK: 'any',
  TRACE: 'any',
  SEARCH: 'any',
  REPORT: 'any',
  MKCALENDAR: 'any'
})

const fastify5Methods: MethodDefaults = Object.freeze({
  GET: 'none',
  HEAD: 'none',
  TRACE: 'none',
  DELETE: 'any',
  OPTIONS: 'any',
  PATCH: 'any',
  PUT: 'any',
  POST: 'any',
  QUERY: 'typed'
})

export const FASTIFY_4: ApiLevel = Object.freeze({
  major: 4,
  fastifyVersion: '4.29.1',
  pluginVersions: Object.freeze(['4.29.1', '5.12.8']),
  optionDefaults: Object.freeze({ jsonShorthand: true, requestIdHeader: 'request-id' }),
  schemaShorthand: true,
  validatorThrowIsValidationError: false,
  coercedRootReachesRequest: false,
  hostnameWithPort: true,
  trustProxyHopCount: true,
  errorCodes: codes,
  contentTypeParsers: Object.freeze({ lenientHeaders: false, refuseInvalidHeaders: false, bareNames: true, regExpsSeeNormalizedHeader: false, invalidJsonCoded: false, decodedTextLengthChecked: true }),
  nullishThrownAsPayload: false,
  errorHandlerOverrideWarns: false,
  requestSignalAssignable: true,
  httpMethods: fastify4Methods,
  methodShorthands: Object.freeze([]),
  topLevelRouterOptionsDeprecated: false,
  logLevelCheckedAtRegistration: false,
  longParamAnswered: false,
  badUrlBeforeNotFound: false,
  prefixJoinsAfterSlash: false,
  hasRouteByPattern: false,
  slashVariantReportsPrefix: false,
  referenceDecorators: 'warn',
  decoratorsOverFields: true,
  loggerTakesInstance: true,
  onRegisterThis: 'loader',
  pluginLoadsWithoutDone: false,
  mixedPluginStyles: 'warn',
  hookTimeoutNamesHook: false,
  wildcardListenInterfaces: false,
  entry: 'enclave-http/fastify4'
})

export const FASTIFY_5: ApiLevel = Object.freeze({
  major: 5,
  fastifyVersion: '5.12.8',
  pluginVersions: Object.freeze(['5.12.8']),
  optionDefaults: Object.freeze({ jsonShorthand: false, requestIdHeader: false }),
  schemaShorthand: false,
  validatorThrowIsValidationError: true,
  coercedRootReachesRequest: true,
  hostnameWithPort: false,
  trustProxyHopCount: false,
  errorCodes: Object.freeze({ ...codes, ...codesChangedInFastify5 }),
  contentTypeParsers: Object.freeze({ lenientHeaders: true, refuseInvalidHeaders: true, bareNames: false, regExpsSeeNormalizedHeader: true, invalidJsonCoded: true, decodedTextLengthChecked: false }),
  nullishThrownAsPayload: true,
  errorHandlerOverrideWarns: true,
  requestSignalAssignable: false,
  httpMethods: fastify5Methods,
  methodShorthands: Object.freeze(['TRACE', 'QUERY']),
  topLevelRouterOptionsDeprecated: true,
  logLevelCheckedAtRegistration: true,
  longParamAnswered: true,
  badUrlBeforeNotFound: true,
  prefixJoinsAfterSlash: true,
  hasRouteByPattern: true,
  slashVariantReportsPrefix: true,
  referenceDecorators: 'throw',
  decoratorsOverFields: false,
  loggerTakesInstance: false,
  onRegisterThis: 'parent',
  pluginLoadsWithoutDone: true,
  mixedPluginStyles: 'throw',
  hookTimeoutNamesHook: true,
  wildcardListenInterfaces: true,
  entry: 'enclave-http/fastify5'
})

/** The level of the package's main entry: Fastify 4, the model of Enclave's specification. */
export const DEFAULT_LEVEL = FASTIFY_4
