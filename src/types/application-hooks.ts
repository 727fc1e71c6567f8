/**
 * Application hook types: hooks about the instance rather than a request (a route or plugin is added, the
 * instance starts, listens, closes). Like the lifecycle hooks (hooks.ts), most exist in a callback form and an
 * async form; `this` is the instance.
 */
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifySchema } from './compilers'
import type { FastifyPluginOptions } from './plugin'
import type { RegisterOptions } from './register'
import type { RouteGenericInterface } from './route-generic'
import type { RouteOptions } from './route'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault } from './utils'
import type { HookHandlerDoneFunction, LifecycleHook, LifecycleHookAsyncLookup, LifecycleHookLookup } from './hooks'
import type { AtLevel } from './level'

/** A hook called with the instance as `this` and `Rest`. */
interface InstanceHook<
  Rest extends unknown[], Return,
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger, TypeProvider extends FastifyTypeProvider
> {
  (this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, ...rest: Rest): Return
}

/** `onRoute`: a route is being added; its options may still be changed (synchronous). */
export interface onRouteHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> {
  (
    this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    opts: RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider> & { routePath: string, path: string, prefix: string }
  ): Promise<unknown> | void
}

/** `onRegister`: a plugin creates a new encapsulation context (not for plugins wrapped with fastify-plugin). */
export interface onRegisterHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Options extends FastifyPluginOptions = FastifyPluginOptions
> {
  (
    // at run time, Fastify 4 calls it on avvio's boot object and Fastify 5 on the instance
    this: AtLevel<any, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>,
    instance: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    opts: RegisterOptions & Options,
    done: HookHandlerDoneFunction
  ): Promise<unknown> | void
}

/* eslint-disable @typescript-eslint/no-empty-object-type -- each hook is its own named interface, its signature inherited */

/** `onReady`: every plugin is loaded, before the server listens. */
export interface onReadyHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

export interface onReadyAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

/** `onListen`: the server listens. Errors are logged and ignored. */
export interface onListenHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

export interface onListenAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

/** `onClose`: the instance closes, after in-flight requests; called with the instance. */
export interface onCloseHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[instance: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

export interface onCloseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[instance: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>], Promise<unknown>, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

/** `preClose`: `close()` was called, before the server stops accepting connections. */
export interface preCloseHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

export interface preCloseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends InstanceHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, Logger, TypeProvider> {}

/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The application hook names. */
export type ApplicationHook = 'onRoute' | 'onRegister' | 'onReady' | 'onListen' | 'onClose' | 'preClose'

interface ApplicationHooksByName {
  onRoute: onRouteHookHandler
  onRegister: onRegisterHookHandler
  onReady: onReadyHookHandler
  onListen: onListenHookHandler
  onClose: onCloseHookHandler
  preClose: preCloseHookHandler
}

interface ApplicationAsyncHooksByName {
  onRoute: never
  onRegister: onRegisterHookHandler
  onReady: onReadyAsyncHookHandler
  onListen: onListenAsyncHookHandler
  onClose: onCloseAsyncHookHandler
  preClose: preCloseAsyncHookHandler
}

export type ApplicationHookLookup<K extends ApplicationHook> = ApplicationHooksByName[K]
export type ApplicationHookAsyncLookup<K extends ApplicationHook> = ApplicationAsyncHooksByName[K]

/** The callback form of any hook, by name. */
export type HookLookup<K extends ApplicationHook | LifecycleHook> =
  K extends ApplicationHook ? ApplicationHookLookup<K> : K extends LifecycleHook ? LifecycleHookLookup<K> : never

/** The async form of any hook, by name. */
export type HookAsyncLookup<K extends ApplicationHook | LifecycleHook> =
  K extends ApplicationHook ? ApplicationHookAsyncLookup<K> : K extends LifecycleHook ? LifecycleHookAsyncLookup<K> : never
