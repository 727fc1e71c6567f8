/**
 * The request object handed to hooks and handlers. Fields set per request are own properties assigned in one
 * constructor (a stable shape); derived values (`ip`, `hostname`, `protocol`, …) are getters on the prototype.
 * Every encapsulation context gets its own subclass, so `decorateRequest` in one context never reaches a sibling.
 */
import proxyAddr from 'proxy-addr'
import { kApp, kRouteContext } from './symbols'
import type { RouteContext } from './context'
import { requestSchemaMethods } from './route-schema-functions'
import { warnDeprecated } from './deprecations'

/** The request's headers: `raw.headers` until a handler assigns `request.headers`. */
const kHeaders = Symbol('enclave.requestHeaders')

export interface RequestState {
  /** Trust function compiled from the `trustProxy` option, or null when proxies are not trusted. */
  trust: ((addr: string, index: number) => boolean) | null
}

export function compileTrustProxy (option: unknown): RequestState['trust'] {
  if (option === false || option === undefined) return null
  if (option === true) return () => true
  if (typeof option === 'function') return option as RequestState['trust']
  if (typeof option === 'number') return (_addr, index) => index < option
  if (typeof option === 'string') return proxyAddr.compile(option.split(',').map((s) => s.trim()))
  return proxyAddr.compile(option as string[])
}

/** The base of every context's request class: it holds the shared getters; instances come from `subclassRequest`. */
export function Request (): void {}

/** Creates the request class of a child context: same fields, prototype chained to the parent's. */
export function subclassRequest (Parent: any): any {
  function ContextRequest (this: any, id: string, params: any, raw: any, query: unknown, log: any, context: RouteContext): void {
    this.id = id
    this.params = params
    this.raw = raw
    this.query = query
    this.log = log
    this.body = undefined
    this[kHeaders] = raw.headers
    this[kRouteContext] = context
  }
  ContextRequest.prototype = Object.create(Parent.prototype)
  ContextRequest.prototype.constructor = ContextRequest
  return ContextRequest
}

function firstHeader (value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The trust function is set on the root prototype by the instance (`trustProxy` option). */
export const kTrust = Symbol('enclave.trustProxy')

Object.defineProperties(Request.prototype, {
  [kTrust]: { value: null, writable: true },
  // assigning headers adds to the incoming ones (Fastify's setter); `raw.headers` stays untouched
  headers: {
    get () { return this[kHeaders] },
    set (value: Record<string, unknown>) { this[kHeaders] = { ...this.raw.headers, ...value } }
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
      const trust = this[kTrust]
      return trust === null ? this.raw.socket?.remoteAddress : proxyAddr(this.raw, trust)
    }
  },
  ips: {
    get () {
      const trust = this[kTrust]
      return trust === null ? undefined : proxyAddr.all(this.raw, trust)
    }
  },
  hostname: {
    get () {
      const headers = this.raw.headers
      if (this[kTrust] !== null && headers['x-forwarded-host'] !== undefined && this[kTrust](this.raw.socket?.remoteAddress, 0)) {
        const forwarded = firstHeader(headers['x-forwarded-host']) as string
        return forwarded.split(',').pop()!.trim()
      }
      return headers.host ?? headers[':authority']
    }
  },
  protocol: {
    get () {
      const headers = this.raw.headers
      if (this[kTrust] !== null && headers['x-forwarded-proto'] !== undefined && this[kTrust](this.raw.socket?.remoteAddress, 0)) {
        const proto = firstHeader(headers['x-forwarded-proto']) as string
        return proto.split(',').pop()!.trim()
      }
      return this.raw.socket?.encrypted === true ? 'https' : 'http'
    }
  },
  routeOptions: {
    get () {
      const context: RouteContext = this[kRouteContext]
      const options = context.options
      // a not-found handler is no route: Fastify reports no method, url or config of its own
      const isRoute = !context.isNotFound
      return {
        method: isRoute ? context.method : undefined,
        url: isRoute ? context.url : undefined,
        config: context.config,
        schema: context.schema,
        bodyLimit: context.bodyLimit,
        attachValidation: isRoute ? context.attachValidation : undefined,
        logLevel: context.logLevel,
        exposeHeadRoute: isRoute ? options.exposeHeadRoute ?? context.instance[kApp].options.exposeHeadRoutes : undefined,
        prefixTrailingSlash: isRoute ? options.prefixTrailingSlash ?? 'both' : undefined,
        version: (options as any).version ?? (options.constraints as any)?.version,
        handler: context.handler
      }
    }
  },
  // the properties Fastify 4 deprecated in favour of routeOptions, with its warnings (once per process each)
  routeConfig: {
    get () {
      warnDeprecated('routeConfig')
      return this[kRouteContext].config
    }
  },
  routerPath: {
    get () {
      warnDeprecated('routerPath')
      return this[kRouteContext].isNotFound ? undefined : this[kRouteContext].url
    }
  },
  routerMethod: {
    get () {
      warnDeprecated('routerMethod')
      return this[kRouteContext].isNotFound ? undefined : this[kRouteContext].method
    }
  },
  routeSchema: {
    get () {
      warnDeprecated('routeSchema')
      return this[kRouteContext].schema
    }
  },
  is404: { get () { return this[kRouteContext].isNotFound } },
  context: {
    get () {
      warnDeprecated('requestContext')
      return this[kRouteContext]
    }
  }
})

Object.assign(Request.prototype, requestSchemaMethods)
