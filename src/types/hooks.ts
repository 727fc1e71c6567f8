/**
 * Hook types. A hook either takes a `done` callback or returns a promise (an `async` function); it is called with
 * the instance as `this`. Request hooks added to a route (`onRequest: …` in the route options) see the route's
 * typed request and reply; hooks added with `app.addHook()` see the untyped ones.
 */
import type { Readable } from 'node:stream'
import type { EnclaveInstance } from './instance'
import type { EnclaveContextConfig, EnclaveRequest } from './request'
import type { EnclaveReply } from './reply'
import type { EnclaveError } from './errors'
import type { RouteGenericInterface } from './route-generic'
import type { RouteOptions } from './route'
import type { EnclavePluginOptions, RegisterOptions } from './plugin'

/** Continues the lifecycle; an error stops it and goes to the error handler. */
export type HookDone = (err?: Error | null) => void

/** The request payload stream `preParsing` hooks receive and may replace. */
export type RequestPayload = Readable & { receivedEncodedLength?: number }

/** `onRequest`, `preValidation`, `preHandler`, `onResponse`, `onTimeout`: request, reply and `done`. */
export type RequestHook<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  request: EnclaveRequest<G, C>,
  reply: EnclaveReply<G, C>,
  done: HookDone
) => unknown

/** `preParsing`: may return (or pass to `done`) a new payload stream. */
export type PreParsingHook<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  request: EnclaveRequest<G, C>,
  reply: EnclaveReply<G, C>,
  payload: RequestPayload,
  done: (err?: Error | null, payload?: RequestPayload) => void
) => unknown

/** `preSerialization` and `onSend`: may return (or pass to `done`) a new payload. */
export type PayloadHook<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  request: EnclaveRequest<G, C>,
  reply: EnclaveReply<G, C>,
  payload: any,
  done: (err?: Error | null, payload?: unknown) => void
) => unknown

/** `onError`: observes an error before the error handler; it cannot send. */
export type OnErrorHook<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  request: EnclaveRequest<G, C>,
  reply: EnclaveReply<G, C>,
  error: EnclaveError,
  done: () => void
) => unknown

/** `onRequestAbort`: the client closed the connection before the response was sent. */
export type OnRequestAbortHook<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = (
  this: I,
  request: EnclaveRequest<G, C>,
  done: HookDone
) => unknown

/** The request and reply hooks, by name. */
export interface RequestHookHandlers<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> {
  onRequest: RequestHook<G, I, C>
  preParsing: PreParsingHook<G, I, C>
  preValidation: RequestHook<G, I, C>
  preHandler: RequestHook<G, I, C>
  preSerialization: PayloadHook<G, I, C>
  onSend: PayloadHook<G, I, C>
  onResponse: RequestHook<G, I, C>
  onTimeout: RequestHook<G, I, C>
  onError: OnErrorHook<G, I, C>
  onRequestAbort: OnRequestAbortHook<G, I, C>
}

/** The route options passed to `onRoute` hooks; they may be changed before the route is registered. */
export type OnRouteOptions<I = EnclaveInstance> = RouteOptions<any, I> & { routePath: string, path: string, prefix: string }

/** The application hooks, by name. */
export interface ApplicationHookHandlers<I = EnclaveInstance> {
  /** Before the server starts listening, once every plugin is loaded. */
  onReady: (this: I, done: HookDone) => unknown
  /** Once the server listens. Errors are logged and ignored. */
  onListen: (this: I, done: HookDone) => unknown
  /** When `close()` is called, before the server stops accepting connections. */
  preClose: (this: I, done: HookDone) => unknown
  /** When the instance closes, after in-flight requests. */
  onClose: (this: I, instance: I, done: HookDone) => unknown
  /** When a route is registered (synchronous). */
  onRoute: (this: I, routeOptions: OnRouteOptions<I>) => void
  /** When a plugin creates a new encapsulation context (synchronous). */
  onRegister: (instance: I, opts: RegisterOptions & EnclavePluginOptions) => void
}

/** Every hook `addHook()` accepts, by name. */
export type HookHandlers<I = EnclaveInstance> = RequestHookHandlers<RouteGenericInterface, I> & ApplicationHookHandlers<I>

/** The names of every hook. */
export type HookName = keyof HookHandlers

/** The route-level hooks: each option takes a hook or an array of hooks. */
export type RouteHooks<G extends RouteGenericInterface = RouteGenericInterface, I = EnclaveInstance, C = EnclaveContextConfig> = {
  [Name in keyof RequestHookHandlers]?: NoInfer<RequestHookHandlers<G, I, C>[Name] | Array<RequestHookHandlers<G, I, C>[Name]>>
}
