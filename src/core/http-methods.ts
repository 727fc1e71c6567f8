/**
 * The HTTP methods an application's routes may use, and how a request of each is read for a body. Each application
 * has its own table, started from its level's defaults (src/core/api-level.ts) and extended by `addHttpMethod`.
 */
import { METHODS } from 'node:http'
import type { HTTPMethod } from 'find-my-way'

/**
 * How a request of a method is read for a body:
 * - `none`: never (and a route may not declare a body schema);
 * - `when-typed`: only when it has a Content-Type and declares a length or is chunked (Fastify 4's OPTIONS, DELETE);
 * - `any`: whenever one is sent (a body without a Content-Type goes to the '' parser);
 * - `typed`: as `any`, but a request without a Content-Type is refused (QUERY, RFC 10008 section 2).
 */
export type BodyRule = 'none' | 'when-typed' | 'any' | 'typed'

/** A level's default methods, in the order `supportedMethods` and `all()` list them, with their body rules. */
export type MethodDefaults = Readonly<Record<string, BodyRule>>

/** The rule `addHttpMethod(method, { hasBody })` gives: QUERY keeps its Content-Type requirement. */
function ruleFor (method: string, hasBody: boolean): BodyRule {
  if (!hasBody) return 'none'
  return method === 'QUERY' ? 'typed' : 'any'
}

const nodeMethods: ReadonlySet<string> = new Set(METHODS)

/**
 * Whether Node's HTTP parser knows the method, case included: what `addHttpMethod` accepts, and what a not-found
 * handler answers (an HTTP/2 request may carry any other token).
 */
export function isNodeMethod (method: unknown): method is string {
  return typeof method === 'string' && nodeMethods.has(method)
}

export class HttpMethods {
  readonly #rules: Map<string, BodyRule>
  #list: string[] | null = null

  constructor (defaults: MethodDefaults) {
    this.#rules = new Map(Object.entries(defaults))
  }

  has (method: string): boolean {
    return this.#rules.has(method)
  }

  /** The method's body rule, undefined for a method the application does not support. */
  bodyRule (method: string): BodyRule | undefined {
    return this.#rules.get(method)
  }

  /** The methods without a body first, then the others, each group in the order it was added (as Fastify 5 lists them). */
  list (): readonly string[] {
    if (this.#list === null) {
      const entries = [...this.#rules]
      this.#list = [...entries.filter(([, rule]) => rule === 'none'), ...entries.filter(([, rule]) => rule !== 'none')].map(([method]) => method)
    }
    return this.#list
  }

  /** Adds a method, or changes an existing one's body rule (it then moves to the end of its new group). */
  set (method: string, hasBody: boolean): void {
    const rule = ruleFor(method, hasBody)
    if (this.#rules.get(method) === rule) return
    this.#rules.delete(method)
    this.#rules.set(method, rule)
    this.#list = null
  }
}

/** find-my-way types methods as a closed union; Enclave checks them against the application's table first. */
export function asRouterMethod (method: string): HTTPMethod
export function asRouterMethod (methods: readonly string[]): HTTPMethod[]
export function asRouterMethod (methods: string | readonly string[]): HTTPMethod | HTTPMethod[] {
  return methods as HTTPMethod | HTTPMethod[]
}
