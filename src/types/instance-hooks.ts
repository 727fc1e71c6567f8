/**
 * `addHook(name, hook)`, one overload per hook name. The hook's form is chosen by the function given: an `async`
 * function must be the async form (it may not declare `done`), any other function the callback form.
 */
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifySchema } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type { FastifyTypeProvider } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase } from './raw'
import type { ContextConfigDefault } from './utils'
import type {
  LifecycleHook, onErrorAsyncHookHandler, onErrorHookHandler, onRequestAbortAsyncHookHandler, onRequestAbortHookHandler,
  onRequestAsyncHookHandler, onRequestHookHandler, onResponseAsyncHookHandler, onResponseHookHandler, onSendAsyncHookHandler,
  onSendHookHandler, onTimeoutAsyncHookHandler, onTimeoutHookHandler, preHandlerAsyncHookHandler, preHandlerHookHandler,
  preParsingAsyncHookHandler, preParsingHookHandler, preSerializationAsyncHookHandler, preSerializationHookHandler,
  preValidationAsyncHookHandler, preValidationHookHandler
} from './hooks'
import type {
  ApplicationHook, HookAsyncLookup, HookLookup, onCloseAsyncHookHandler, onCloseHookHandler, onListenAsyncHookHandler,
  onListenHookHandler, onReadyAsyncHookHandler, onReadyHookHandler, onRegisterHookHandler, onRouteHookHandler,
  preCloseAsyncHookHandler, preCloseHookHandler
} from './application-hooks'

type AsyncFunction = (...args: any) => Promise<any>

/** The hook parameter's type: the async form for an async function `Fn`, else the callback form. */
type HookArgument<Fn, Callback, Async> = Fn extends unknown ? (Fn extends AsyncFunction ? Async : Callback) : Fn

/**
 * The `addHook` overloads of an instance. The type parameters of a request hook's overload (route generic,
 * `config` type, schema, logger) only matter when given explicitly; `preSerialization` and `onSend` take the
 * payload type first (`addHook<Payload>('onSend', …)`).
 */
export interface FastifyInstanceHooks<
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger, TypeProvider extends FastifyTypeProvider
> {
  /** `onRequest`: the first hook; the body is not parsed yet. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | onRequestAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onRequest', hook: HookArgument<Fn, onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, onRequestAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `preParsing`: may replace the payload stream. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | preParsingAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'preParsing', hook: HookArgument<Fn, preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, preParsingAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `preValidation`: the body is parsed, not yet validated. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'preValidation', hook: HookArgument<Fn, preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `preHandler`: the request is validated; the last hook before the handler. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'preHandler', hook: HookArgument<Fn, preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `preSerialization`: may replace an object payload before it is serialized. */
  addHook<
    PreSerializationPayload = unknown,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | preSerializationAsyncHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'preSerialization', hook: HookArgument<Fn, preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, preSerializationAsyncHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onSend`: may replace the serialized payload. */
  addHook<
    OnSendPayload = unknown,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | onSendAsyncHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onSend', hook: HookArgument<Fn, onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, onSendAsyncHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onResponse`: the response is sent. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | onResponseAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onResponse', hook: HookArgument<Fn, onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, onResponseAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onTimeout`: the socket timed out. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | onTimeoutAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onTimeout', hook: HookArgument<Fn, onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, onTimeoutAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onRequestAbort`: the client closed the connection before the response was sent. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> | onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger> = onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onRequestAbort', hook: HookArgument<Fn, onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>, onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onError`: observes an error before the error handler; it cannot send. */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger,
    Fn extends onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, HookLogger> | onErrorAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, HookLogger> = onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, HookLogger>
  >(name: 'onError', hook: HookArgument<Fn, onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, HookLogger>, onErrorAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, HookLogger>>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onRoute`: a route is being added; its options may still be changed (synchronous). */
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
    HookLogger extends FastifyBaseLogger = Logger
  >(name: 'onRoute', hook: onRouteHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, HookLogger>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onRegister`: a plugin creates a new encapsulation context (not with fastify-plugin). */
  addHook(name: 'onRegister', hook: onRegisterHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onReady`: every plugin is loaded, before the server listens. */
  addHook<Fn extends onReadyHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | onReadyAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> = onReadyHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>(
    name: 'onReady', hook: HookArgument<Fn, onReadyHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>, onReadyAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onListen`: the server listens; errors are logged and ignored. */
  addHook<Fn extends onListenHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | onListenAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> = onListenHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>(
    name: 'onListen', hook: HookArgument<Fn, onListenHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>, onListenAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `onClose`: the instance closes, after in-flight requests. */
  addHook<Fn extends onCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | onCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> = onCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>(
    name: 'onClose', hook: HookArgument<Fn, onCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>, onCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** `onClose` with an object to dispose of when the instance closes (`Symbol.asyncDispose`, else `Symbol.dispose`). */
  addHook(name: 'onClose', hook: AsyncDisposable | Disposable): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** `preClose`: `close()` was called, before the server stops accepting connections. */
  addHook<Fn extends preCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | preCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> = preCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>(
    name: 'preClose', hook: HookArgument<Fn, preCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>, preCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** Any hook, by a name known only as a union (`addHook(name as LifecycleHook, …)`). */
  addHook<K extends ApplicationHook | LifecycleHook, Fn extends (...args: any) => Promise<any> | any>(
    name: K, hook: Fn extends unknown ? (Fn extends AsyncFunction ? HookAsyncLookup<K> : HookLookup<K>) : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
}
