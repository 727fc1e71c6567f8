/**
 * The request object handed to hooks and handlers. Fields set per request are own properties assigned in one
 * constructor (a stable shape); derived values (`ip`, `host`, `protocol`, …) are getters on the prototype. The
 * getters whose behaviour differs between API levels (`hostname`, `signal`) are on a class per level (`requestClassOf`).
 * Every encapsulation context gets its own subclass, so `decorateRequest` in one context never reaches a sibling.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type proxyAddrModule from 'proxy-addr'
import { kApp, kRequestHeaders, kRoute, kTrustProxy } from '../core/symbols'
import { warnDeprecated } from '../core/deprecations'
import { lazyModule } from '../core/lazy-module'
import { mediaTypeOf } from '../core/media-type'
import type { ApiLevel } from '../core/api-level'
import type { Logger } from '../types/logger'
import type { CompiledRoute } from '../routing/route-model'
import { requestSchemaMethods } from './route-schema-functions'
import { signalDescriptor, signalProperties } from './request-signal'

/** Node's request as Enclave sees it: `originalUrl` is set when `rewriteUrl` changed the URL. */
export type RawRequest = IncomingMessage & { originalUrl?: string }
export type RouteParams = Record<string, string | undefined>
export type TrustFunction = (addr: string | undefined, index: number) => boolean

/** The internal view of a request object; its public members are typed in `src/types/request.ts`. */
export interface RequestState {
  id: string
  params: RouteParams
  raw: RawRequest
  query: unknown
  log: Logger
  body: unknown
  validationError?: Error
  [kRequestHeaders]: IncomingHttpHeaders
  [kRoute]: CompiledRoute
  [kTrustProxy]: TrustFunction | null
  /** Assigning adds to the incoming headers (Fastify's setter). */
  headers: IncomingHttpHeaders
  readonly url: string
  readonly method: string
  /** Decorators, and whatever hooks and handlers add. */
  [member: string | symbol]: unknown
}

/** A context's request class: decorators go on its prototype. */
export interface RequestClass {
  new (id: string, params: RouteParams, raw: IncomingMessage, query: unknown, log: Logger, route: CompiledRoute): RequestState
  prototype: RequestState
}

/** proxy-addr serves `trustProxy` only. */
const proxyAddr = lazyModule(() => require('proxy-addr') as typeof proxyAddrModule)

/**
 * The trust function of the `trustProxy` option (addresses, CIDR ranges, a hop count or a function), or null. A hop
 * count trusts no proxy at all unless the level allows it (`trustProxyHopCount`).
 */
export function compileTrustProxy (option: unknown, level: ApiLevel): TrustFunction | null {
  if (option === false || option === undefined) return null
  if (option === true) return () => true
  if (typeof option === 'function') return option as TrustFunction
  if (typeof option === 'number') return level.trustProxyHopCount ? (_addr, index) => index < option : () => false
  if (typeof option === 'string') return proxyAddr().compile(option.split(',').map((s) => s.trim())) as TrustFunction
  return proxyAddr().compile(option as string[]) as TrustFunction
}

/** The base of every context's request class: it holds the shared getters; instances come from `subclassRequest`. */
export const Request = function Request (): void {} as unknown as RequestClass

/** Creates the request class of a child context: same fields, prototype chained to the parent's. */
export function subclassRequest (Parent: RequestClass): RequestClass {
  function ContextRequest (this: RequestState, id: string, params: RouteParams, raw: IncomingMessage, query: unknown, log: Logger, route: CompiledRoute): void {
    this.id = id
    this.params = params
    this.raw = raw
    this.query = query
    this.log = log
    this.body = undefined
    this[kRequestHeaders] = raw.headers
    this[kRoute] = route
  }
  ContextRequest.prototype = Object.create(Parent.prototype)
  ContextRequest.prototype.constructor = ContextRequest
  return ContextRequest as unknown as RequestClass
}

function firstHeader (value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The host the client asked for: the last `X-Forwarded-Host` entry from a trusted proxy, else Host or `:authority`. */
function hostOf (request: RequestState): string | undefined {
  const headers = request[kRequestHeaders]
  const trust = request[kTrustProxy]
  if (trust !== null && headers['x-forwarded-host'] !== undefined && trust(request.raw.socket?.remoteAddress, 0)) {
    const forwarded = firstHeader(headers['x-forwarded-host']) as string
    return forwarded.split(',').pop()!.trim()
  }
  return headers.host ?? headers[':authority'] as string | undefined
}

/** The port at the end of a host (`example.com:8080`, `[::1]:8080`). */
const PORT = /:(\d+)$/

/** `request.hostname` of each level (src/core/api-level.ts, `hostnameWithPort`). */
const hostnameGetters = {
  // Fastify 4: the host as sent, with its port; undefined without one
  withPort (this: RequestState) { return hostOf(this) },
  // Fastify 5: the name alone (an IPv6 address keeps its brackets); '' without a host
  withoutPort (this: RequestState) {
    const host = this.host as string
    return host[0] === '[' ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]
  }
}

const levelRequests = new Map<ApiLevel, RequestClass>()

/**
 * The framework's request class of a level: the shared base with the getters whose behaviour the level decides.
 * The root's request class extends it, so those getters count as built-in members, as the base's do.
 */
export function requestClassOf (level: ApiLevel): RequestClass {
  let LevelRequest = levelRequests.get(level)
  if (LevelRequest === undefined) {
    LevelRequest = subclassRequest(Request)
    Object.defineProperty(LevelRequest.prototype, 'hostname', {
      get: level.hostnameWithPort ? hostnameGetters.withPort : hostnameGetters.withoutPort
    })
    Object.defineProperty(LevelRequest.prototype, 'signal', signalDescriptor(level.requestSignalAssignable))
    levelRequests.set(level, LevelRequest)
  }
  return LevelRequest
}

Object.defineProperties(Request.prototype, {
  [kTrustProxy]: { value: null, writable: true },
  // assigning headers adds to the incoming ones (Fastify's setter); `raw.headers` stays untouched
  headers: {
    get () { return this[kRequestHeaders] },
    set (value: Record<string, unknown>) { this[kRequestHeaders] = { ...this.raw.headers, ...value } }
  },
  url: { get () { return this.raw.url } },
  originalUrl: { get () { return this.raw.originalUrl ?? this.raw.url } },
  method: { get () { return this.raw.method } },
  socket: { get () { return this.raw.socket } },
  connection: {
    get () {
      warnDeprecated('requestConnection')
      return this.raw.socket
    }
  },
  ip: {
    get () {
      const trust = this[kTrustProxy]
      return trust === null ? this.raw.socket?.remoteAddress : proxyAddr()(this.raw, trust)
    }
  },
  ips: {
    get () {
      const trust = this[kTrustProxy]
      return trust === null ? undefined : proxyAddr().all(this.raw, trust)
    }
  },
  // Fastify 5's `host` and `port`, present at both levels; `hostname` is the level's (`requestClassOf`)
  host: { get () { return hostOf(this as RequestState) ?? '' } },
  port: {
    get () {
      const port = PORT.exec(this.host)
      return port === null ? null : Number(port[1])
    }
  },
  mediaType: { get () { return mediaTypeOf(this.headers['content-type']) } },
  protocol: {
    get () {
      const headers = this.raw.headers
      if (this[kTrustProxy] !== null && headers['x-forwarded-proto'] !== undefined && this[kTrustProxy](this.raw.socket?.remoteAddress, 0)) {
        const proto = firstHeader(headers['x-forwarded-proto']) as string
        return proto.split(',').pop()!.trim()
      }
      return this.raw.socket?.encrypted === true ? 'https' : 'http'
    }
  },
  routeOptions: {
    get () {
      const route: CompiledRoute = this[kRoute]
      const given = route.options
      // a not-found handler is no route: Fastify reports no method, url or config of its own
      const isRoute = !route.isNotFound
      const options = {
        method: isRoute ? route.config.method : undefined,
        url: isRoute ? route.url : undefined,
        bodyLimit: route.bodyLimit,
        handlerTimeout: route.handlerTimeout,
        attachValidation: isRoute ? route.attachValidation : undefined,
        logLevel: route.logLevel,
        exposeHeadRoute: isRoute ? given.exposeHeadRoute ?? route.instance[kApp].options.exposeHeadRoutes : undefined,
        prefixTrailingSlash: isRoute ? given.prefixTrailingSlash ?? 'both' : undefined,
        // a versioned route reports the version the request asked for (`Accept-Version: 1.x`), as Fastify does
        version: (given.version ?? given.constraints?.version) === undefined ? undefined : this.raw.headers['accept-version'],
        handler: route.handler
      }
      // config and schema are the route's own objects, reachable but not listed (as in Fastify); the rest is frozen:
      // a handler cannot change what the route is
      Object.defineProperties(options, { config: { value: route.config }, schema: { value: route.schema } })
      return Object.freeze(options)
    }
  },
  // the properties Fastify 4 deprecated in favour of routeOptions, with its warnings (once per process each)
  routeConfig: {
    get () {
      warnDeprecated('routeConfig')
      return this[kRoute].config
    }
  },
  routerPath: {
    get () {
      warnDeprecated('routerPath')
      return this[kRoute].isNotFound ? undefined : this[kRoute].url
    }
  },
  routerMethod: {
    get () {
      warnDeprecated('routerMethod')
      return this[kRoute].isNotFound ? undefined : this[kRoute].config.method
    }
  },
  routeSchema: {
    get () {
      warnDeprecated('routeSchema')
      return this[kRoute].schema
    }
  },
  is404: { get () { return this[kRoute].isNotFound } },
  context: {
    get () {
      warnDeprecated('requestContext')
      return this[kRoute]
    }
  }
})

Object.assign(Request.prototype, requestSchemaMethods)
Object.defineProperties(Request.prototype, signalProperties)
