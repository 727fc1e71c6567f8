/**
 * The application-wide state every context shares through `instance[kApp]`, and the internal view of an instance
 * object. Both are built by `app/create-app.ts`; everything below reads them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type FindMyWay from 'find-my-way'
import type { ApiLevel } from '../core/api-level'
import type { AnyFn } from '../core/types'
import type { HttpMethods } from '../core/http-methods'
import type { kApp, kPluginContext } from '../core/symbols'
import type { Logger } from '../types/logger'
import type { RawServerBase } from '../types/raw'
import type { NormalizedOptions } from '../app/options'
import type { RequestState } from '../request/request'
import type { RouteRecord } from '../routing/route-model'
import type { RouteTable } from '../routing/route-table'
import type { RequestIdentityDefaults } from '../request/request-identity'
import type { PluginContext } from './plugin-context'

/** Node's `(req, res)` request listener, as the server and `inject()` call it. */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void

/** The parts of find-my-way's constrainer Enclave reads (not in its published types). */
export interface Constrainer {
  strategiesInUse: Set<string>
  asyncStrategiesInUse: Set<string>
  validateConstraints (constraints: Record<string, unknown>): void
  deriveConstraints (req: IncomingMessage, ctx?: unknown, done?: (err: unknown, constraints: Record<string, unknown>) => void): Record<string, unknown>
}

export type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1> & { constrainer: Constrainer }

/** An `onReady`, `preClose` or `onListen` hook with the instance it was added on (its `this`). */
export interface ApplicationHookEntry {
  fn: AnyFn
  instance: Instance
}

export type ApplicationHookList = 'onReady' | 'preClose' | 'onListen'

export interface AppState {
  root: Instance
  /** The Fastify API level the application was created at (src/core/api-level.ts). */
  level: ApiLevel
  options: NormalizedOptions
  logger: Logger
  loggingEnabled: boolean
  requestLogging: boolean
  /** `disableRequestLogging` given as a function (Fastify 5, both levels): true for a request whose lines are skipped. */
  requestLogFilter: ((request: RequestState) => boolean) | null
  started: boolean
  listening: boolean
  closing: boolean
  /** Set the moment `close()` is called: a `listen()` still starting binds nothing from then on. */
  closeRequested: boolean
  /** A `listen()` under way (never rejects): closing waits for it to settle, then closes whatever it bound. */
  pendingListen: Promise<void> | null
  router: RouteTable
  notFoundRouter: Router
  /** The methods routes may use and how each is read for a body: the level's defaults plus `addHttpMethod`. */
  httpMethods: HttpMethods
  /** Once any constraint strategy is in use, every request derives constraints before the lookup. */
  hasConstraints: boolean
  routes: RouteRecord[]
  notFoundByPrefix: Map<string, RouteRecord>
  notFoundRecords: RouteRecord[]
  /** `setDefaultRoute` (deprecated): takes every unmatched request as raw `(req, res)` instead of the 404 handlers. */
  defaultRoute: RawHandler | null
  applicationHooks: Record<ApplicationHookList, ApplicationHookEntry[]>
  readyPromise: Promise<Instance> | null
  server: RawServerBase
  /** The servers `listen()` added for the other loopback addresses of `localhost` (IPv6 `::1` next to 127.0.0.1). */
  extraServers: RawServerBase[]
  /** The server's request listener, also what `inject()` dispatches to. */
  handler: RawHandler
  /** Factory-level request id and child logger settings; each route resolves its own from them at ready. */
  requestIdentity: RequestIdentityDefaults
  initialConfig: Readonly<Record<string, unknown>>
  /** avvio, which loads plugins and runs `onClose` hooks. */
  loader: { prettyPrint (): string, ready (cb: AnyFn): void }
}

/**
 * The internal view of an instance object (the root, or a plugin's `Object.create` of its parent's). Its public
 * members are typed in `src/types/instance.ts`; decorators make it open-ended.
 */
export interface Instance {
  [kPluginContext]: PluginContext
  [kApp]: AppState
  register (plugin: unknown, opts?: unknown): unknown
  route (options: unknown): Instance
  ready (cb?: (err: Error | null) => void): Promise<Instance> | undefined
  close (cb?: (err?: Error) => void): Promise<unknown> | Instance
  onClose (hook: AnyFn): Instance
  /** avvio's: runs `fn` once the plugins registered so far in this context have loaded. */
  after (fn: (err: Error | null, done: (err?: Error | null) => void) => void): Instance
  [member: string | symbol]: unknown
}
