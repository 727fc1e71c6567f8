/**
 * The application's router: find-my-way, with the static routes kept beside it in a table.
 *
 * find-my-way's `on()` costs ~40 µs per route at start-up (it compiles two functions with `new Function` per route
 * and grows its tree), which a warm start of 1,000 routes paid in full. A route whose path has no parameter, no
 * wildcard and no percent sign, and no constraint, needs none of that: a request reaches it only by naming its path
 * exactly, after the same normalization find-my-way applies (query string cut at `?`, `#` and, when configured, `;`;
 * duplicate and trailing slashes; case). Such routes live in a map from path to route; find-my-way holds the others.
 *
 * What keeps the answers find-my-way's own:
 * - find-my-way prefers a static route to a parametric one and backtracks, so a path that no static route names
 *   reaches the same route whether static routes are in its tree or not: a table miss asks find-my-way.
 * - A URL the table cannot read as find-my-way does (absolute form, `*`) and a lookup with derived constraints go to
 *   a router holding every route, built on first need from the routes in their order of registration. Printing the
 *   routes uses it too, so the tree printed is the one find-my-way alone would have built.
 * - Once any constraint is in use (a constrained route, a strategy), every route moves into find-my-way for good:
 *   an unconstrained route can then fail to match a request (`mustMatchWhenDerived`), which a map cannot tell.
 */
import FindMyWay from 'find-my-way'
import { isDeepStrictEqual } from 'node:util'
import type { Router } from '../encapsulation/app-state'
import { derivesConstraints, storedPath } from './router'

type RouterMethod = Parameters<Router['find']>[0]
type RouteHandler = (...args: never[]) => unknown
interface RouteOptions { constraints?: Record<string, unknown> }

interface Registration {
  method: string
  path: string
  opts: RouteOptions
  handler: RouteHandler
  store: unknown
}

/** What find-my-way's settings say about reading a path. */
interface PathRules {
  ignoreTrailingSlash: boolean
  ignoreDuplicateSlashes: boolean
  caseSensitive: boolean
  useSemicolonDelimiter: boolean
}

/** Methods find-my-way accepts on every Node line; a route of another method goes to find-my-way, which checks it. */
const tableMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])

/** `%XX` escapes find-my-way leaves encoded in the path it matches (reserved characters, and `%` itself). */
const KEPT_ENCODED = /%(?:2[3456bBcCfF]|3[aAbBdDfF]|40)/

/** The store of the one route of the bad-URL router: an answer with a null store is the bad URL's. */
const badUrlProbe = Object.freeze({})

export class RouteTable {
  /** find-my-way: every route the table does not hold. */
  #tree: Router
  readonly #createRouter: () => Router
  readonly #rules: PathRules
  /** method → normalized path → route (lower-cased when the router ignores case). */
  readonly #table = new Map<string, Map<string, Registration>>()
  #tableSize = 0
  #tableInUse = true
  /** Every route and constraint strategy, in order: what `#everyRoute` is built from. */
  readonly #registrations: Registration[] = []
  readonly #strategies: unknown[] = []
  #everyRoute: Router | null = null
  #Params: (new () => object) | null = null
  /** The table of GET routes, the most requested method, kept apart from the others. */
  #getTable: Map<string, Registration> | undefined = undefined
  /** No normalization applies: a request path is its own key. */
  readonly #plainPaths: boolean
  readonly #parseQuery: (query: string) => unknown
  #badUrlRouter: Router | null = null

  constructor (createRouter: () => Router) {
    this.#createRouter = createRouter
    this.#tree = createRouter()
    // the settings as find-my-way holds them (its public fields), so that the table reads paths exactly as it does
    const settings = this.#tree as unknown as PathRules & { querystringParser: unknown }
    this.#rules = {
      ignoreTrailingSlash: settings.ignoreTrailingSlash,
      ignoreDuplicateSlashes: settings.ignoreDuplicateSlashes,
      caseSensitive: settings.caseSensitive,
      useSemicolonDelimiter: settings.useSemicolonDelimiter
    }
    this.#plainPaths = !this.#rules.ignoreTrailingSlash && !this.#rules.ignoreDuplicateSlashes && this.#rules.caseSensitive
    // find-my-way's own parser (the `querystringParser` setting, else its default), as its lookups call it
    const parser = settings.querystringParser
    this.#parseQuery = typeof parser === 'function' ? (parser as (query: string) => unknown).bind(settings) : () => ({})
    // a find-my-way that no longer holds these fields as this file expects gets every route, as without the table
    if (typeof parser !== 'function' || !Object.values(this.#rules).every((value) => typeof value === 'boolean')) this.#tableInUse = false
  }

  get constrainer (): Router['constrainer'] {
    return this.#tree.constrainer
  }

  get ignoreTrailingSlash (): boolean {
    return this.#rules.ignoreTrailingSlash
  }

  get ignoreDuplicateSlashes (): boolean {
    return this.#rules.ignoreDuplicateSlashes
  }

  on (method: string, path: string, opts: RouteOptions, handler: RouteHandler, store: unknown): void {
    const registration: Registration = { method, path, opts, handler, store }
    const constrained = opts.constraints !== undefined && Object.keys(opts.constraints).length > 0
    if (constrained || derivesConstraints(this.#tree)) this.#stopUsingTable()
    if (this.#tableInUse && tableMethods.has(method) && isStaticPath(path)) {
      this.#addToTable(registration)
    } else {
      this.#tree.on(method as RouterMethod, path, opts as never, handler as never, store)
    }
    this.#registrations.push(registration)
    this.#everyRoute = null
  }

  off (method: string, path: string, constraints?: Record<string, unknown>): void {
    const normalized = this.#normalize(path)
    const removed = (r: Registration): boolean => r.method === method && this.#normalize(r.path) === normalized &&
      (constraints === undefined || isDeepStrictEqual(constraints, r.opts.constraints ?? {}))
    const entry = this.#tableEntry(method, path, constraints)
    // as find-my-way's, the path compares as written (a case-insensitive router finds '/A' for '/a' but keeps it)
    if (entry !== undefined && this.#normalize(entry.path) === normalized) {
      this.#table.get(method)!.delete(this.#key(normalized))
      this.#tableSize--
    } else if (entry === undefined) {
      this.#tree.off(method as RouterMethod, path, constraints)
    }
    for (let i = this.#registrations.length - 1; i >= 0; i--) {
      if (removed(this.#registrations[i])) this.#registrations.splice(i, 1)
    }
    this.#everyRoute = null
  }

  /** A request's route: its handler, store, params and query, or null (find-my-way's `find`). */
  find (method: string, url: string, derivedConstraints?: Record<string, unknown>): ReturnType<Router['find']> {
    if (this.#tableSize === 0) return this.#tree.find(method as RouterMethod, url, derivedConstraints)
    if (derivedConstraints !== undefined && hasDerivedValue(derivedConstraints)) {
      return this.#allRoutes().find(method as RouterMethod, url, derivedConstraints)
    }
    const byPath = method === 'GET' ? this.#getTable : this.#table.get(method)
    if (byPath === undefined) return this.#tree.find(method as RouterMethod, url)
    if (url.charCodeAt(0) !== 47) return this.#allRoutes().find(method as RouterMethod, url)
    // one scan: where the path ends (find-my-way's query delimiters) and whether it holds an escape
    const semicolon = this.#rules.useSemicolonDelimiter
    let end = url.length
    let escaped = false
    for (let i = 1; i < end; i++) {
      const code = url.charCodeAt(i)
      if (code === 63 || code === 35 || (code === 59 && semicolon)) end = i
      else if (code === 37) escaped = true
    }
    let path = end === url.length ? url : url.slice(0, end)
    if (escaped) {
      const decoded = decodedPath(path)
      if (decoded === null) return this.#unreadable(method, url)
      path = decoded
    }
    const entry = byPath.get(this.#lookupKey(path))
    if (entry === undefined) return this.#tree.find(method as RouterMethod, url)
    return {
      handler: entry.handler,
      store: entry.store,
      params: new (this.#Params ?? this.#paramsShape())(),
      searchParams: this.#parseQuery(end === url.length ? '' : url.slice(end + 1))
    } as unknown as ReturnType<Router['find']>
  }

  /** The route registered for this method, path pattern and constraints, or null (find-my-way's `findRoute`). */
  findRoute (method: string, path: string, constraints: Record<string, unknown> = {}): ReturnType<Router['findRoute']> {
    const entry = this.#tableEntry(method, path, constraints)
    if (entry !== undefined) return { handler: entry.handler, store: entry.store, params: [] } as unknown as ReturnType<Router['findRoute']>
    return this.#tree.findRoute(method as RouterMethod, path, constraints)
  }

  hasRoute (method: string, path: string, constraints: Record<string, unknown> = {}): boolean {
    return this.findRoute(method, path, constraints) !== null
  }

  addConstraintStrategy (strategy: unknown): void {
    this.#tree.addConstraintStrategy(strategy as never)
    this.#strategies.push(strategy)
    // before the table empties into a router built with every strategy (a router built earlier has not this one)
    this.#everyRoute = null
    this.#stopUsingTable()
  }

  hasConstraintStrategy (name: string): boolean {
    return this.#tree.hasConstraintStrategy(name)
  }

  prettyPrint (options: Parameters<Router['prettyPrint']>[0]): string {
    return (this.#tableSize === 0 ? this.#tree : this.#allRoutes()).prettyPrint(options)
  }

  /** `routerOptions.compile`: find-my-way generates its lookup functions (the table needs none). */
  compile (): void {
    (this.#tree as unknown as { compile (): void }).compile()
  }

  #addToTable (registration: Registration): void {
    const key = this.#key(this.#normalize(registration.path))
    let byPath = this.#table.get(registration.method)
    if (byPath === undefined) {
      this.#table.set(registration.method, (byPath = new Map()))
      if (registration.method === 'GET') this.#getTable = byPath
    }
    if (byPath.has(key)) {
      // find-my-way's own message, which registration turns into FST_ERR_DUPLICATED_ROUTE
      throw new Error(`Method '${registration.method}' already declared for route '${key}' with constraints '{}'`)
    }
    byPath.set(key, registration)
    this.#tableSize++
  }

  #tableEntry (method: string, path: string, constraints: Record<string, unknown> | undefined): Registration | undefined {
    if (this.#tableSize === 0 || !isStaticPath(path)) return undefined
    if (constraints !== undefined && Object.keys(constraints).length > 0) return undefined
    return this.#table.get(method)?.get(this.#key(this.#normalize(path)))
  }

  /** From now on find-my-way holds every route: rebuilt from them all, in their order of registration. */
  #stopUsingTable (): void {
    if (!this.#tableInUse) return
    this.#tableInUse = false
    if (this.#tableSize === 0) return
    this.#tree = this.#allRoutes()
    this.#table.clear()
    this.#getTable = undefined
    this.#tableSize = 0
  }

  /** A find-my-way router with every route, as if the table did not exist (built once per change of routes). */
  #allRoutes (): Router {
    if (this.#everyRoute !== null) return this.#everyRoute
    const router = this.#createRouter()
    for (const strategy of this.#strategies) router.addConstraintStrategy(strategy as never)
    for (const { method, path, opts, handler, store } of this.#registrations) {
      router.on(method as RouterMethod, path, opts as never, handler as never, store)
    }
    this.#everyRoute = router
    return router
  }

  /**
   * A URL whose path keeps an escape or cannot be decoded: no table route can match it, yet find-my-way answers a
   * bad escape (`onBadUrl`) for any method it has a route of, and the method's routes may all be in the table. A
   * router with one route of that method gives that answer (its own route is never the one reported).
   */
  #unreadable (method: string, url: string): ReturnType<Router['find']> {
    const found = this.#tree.find(method as RouterMethod, url)
    if (found !== null) return found
    this.#badUrlRouter ??= this.#createRouter()
    if (!this.#badUrlRouter.hasRoute(method as RouterMethod, '/', {})) this.#badUrlRouter.on(method as RouterMethod, '/', () => {}, badUrlProbe)
    const bad = this.#badUrlRouter.find(method as RouterMethod, url)
    return bad !== null && bad.store === null ? bad : null
  }

  /** find-my-way's normalization of a path, on registration and lookup alike. */
  #normalize (path: string): string {
    return storedPath(this.#rules, path)
  }

  #key (normalized: string): string {
    return this.#rules.caseSensitive ? normalized : normalized.toLowerCase()
  }

  /** A request path's key in the table: normalized, then lower-cased when the router ignores case. */
  #lookupKey (path: string): string {
    return this.#plainPaths ? path : this.#key(this.#normalize(path))
  }

  /**
   * A constructor of empty params objects of find-my-way's kind (the same prototype), so that a static route's
   * params compare equal, prototype included, to those find-my-way gives.
   */
  #paramsShape (): new () => object {
    const probe = FindMyWay()
    probe.on('GET', '/', () => {})
    const Params = function (): void {} as unknown as new () => object
    Params.prototype = Object.getPrototypeOf(probe.find('GET', '/')!.params)
    this.#Params = Params
    return Params
  }
}

/** A path find-my-way stores as one static node: no parameter, wildcard or escape. */
function isStaticPath (path: string): boolean {
  return path.charCodeAt(0) === 47 && !path.includes(':') && !path.includes('*') && !path.includes('%')
}

/** Whether derived constraints hold a value (an empty object, or only undefined values, derive nothing). */
function hasDerivedValue (derived: Record<string, unknown>): boolean {
  for (const name in derived) if (derived[name] !== undefined) return true
  return false
}

/**
 * A request path with escapes, decoded as find-my-way decodes it before matching; null when an escape stays encoded
 * there (`%2F`…: no table path holds one) or the path cannot be decoded.
 */
function decodedPath (path: string): string | null {
  if (KEPT_ENCODED.test(path)) return null
  try {
    return decodeURI(path)
  } catch {
    return null
  }
}
