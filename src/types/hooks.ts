/**
 * Request lifecycle hook types. Each hook exists in two forms: a callback form that calls `done` (`xHookHandler`)
 * and an async form that returns a promise and must not declare `done` (`xAsyncHookHandler`). `this` is the
 * instance. Hooks in route options (`onRequest: …`) see the route's typed request and reply; hooks added with
 * `addHook()` see the instance's default ones. Application hooks (onReady, onClose, …) are in application-hooks.ts.
 */
import type { Readable } from 'node:stream'
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyRequest } from './request'
import type { ReplyOf } from './reply'
import type { FastifyBaseLogger } from './logger'
import type { FastifySchema } from './compilers'
import type { RouteGenericInterface } from './route-generic'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'
import type { ContextConfigDefault } from './utils'

/** Continues the lifecycle; an error stops it and goes to the error handler. */
export type HookHandlerDoneFunction = <TError extends Error = FastifyError>(err?: TError) => void

/** The `done` of `preSerialization` and `onSend`: an error, or `null` and the new payload. */
export interface DoneFuncWithErrOrRes {
  (): void
  <TError extends Error = FastifyError>(err: TError): void
  (err: null, res: unknown): void
}

/** The request payload stream `preParsing` hooks receive and may replace. */
export interface RequestPayload extends Readable {
  receivedEncodedLength?: number
}

/** The `done` of `preParsing`: an error, or the (possibly new) payload stream. */
type PreParsingDone = <TError extends Error = FastifyError>(err?: TError | null, res?: RequestPayload) => void

/** A hook called with the request, the reply and `Rest`; every lifecycle hook but `onRequestAbort` has this shape. */
interface RequestReplyHook<
  Rest extends unknown[], Return,
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger
> {
  (
    this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger>,
    reply: ReplyOf<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>,
    ...rest: Rest
  ): Return
}

/** A hook called with the request and `Rest` (`onRequestAbort`: there is no reply to send). */
interface RequestOnlyHook<
  Rest extends unknown[], Return,
  RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger
> {
  (
    this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
    request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger>,
    ...rest: Rest
  ): Return
}

// Each hook below takes the same type parameters, in this order, with these defaults.
/* eslint-disable @typescript-eslint/no-empty-object-type -- each hook is its own named interface, its signature inherited */

/** `onRequest`: the first hook; the body is not parsed yet. */
export interface onRequestHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onRequestAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `preParsing`: may replace the payload stream (returned, or passed to `done`). */
export interface preParsingHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: RequestPayload, done: PreParsingDone], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface preParsingAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: RequestPayload], Promise<RequestPayload | unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `preValidation`: the body is parsed, not yet validated. */
export interface preValidationHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface preValidationAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `preHandler`: the request is validated; the last hook before the handler. */
export interface preHandlerHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface preHandlerAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `preSerialization`: may replace an object payload before it is serialized. */
export interface preSerializationHookHandler<
  PreSerializationPayload = unknown,
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: PreSerializationPayload, done: DoneFuncWithErrOrRes], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface preSerializationAsyncHookHandler<
  PreSerializationPayload = unknown,
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: PreSerializationPayload], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `onSend`: may replace the serialized payload (a string, Buffer, stream or null). */
export interface onSendHookHandler<
  OnSendPayload = unknown,
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: OnSendPayload, done: DoneFuncWithErrOrRes], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onSendAsyncHookHandler<
  OnSendPayload = unknown,
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[payload: OnSendPayload], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `onResponse`: the response is sent. */
export interface onResponseHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onResponseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `onTimeout`: the socket timed out (`connectionTimeout`). */
export interface onTimeoutHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onTimeoutAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `onError`: observes an error before the error handler; it cannot send, and `done` takes no error. */
export interface onErrorHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, TError extends Error = FastifyError, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[error: TError, done: () => void], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onErrorAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, TError extends Error = FastifyError, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestReplyHook<[error: TError], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/** `onRequestAbort`: the client closed the connection before the response was sent. */
export interface onRequestAbortHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestOnlyHook<[done: HookHandlerDoneFunction], void, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

export interface onRequestAbortAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault, RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger
> extends RequestOnlyHook<[], Promise<unknown>, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {}

/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The request lifecycle hook names. */
export type LifecycleHook =
  | 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onResponse'
  | 'onError' | 'onTimeout' | 'onRequestAbort'

/** The callback form of each lifecycle hook, with the default type parameters. */
interface LifecycleHooksByName {
  onRequest: onRequestHookHandler
  preParsing: preParsingHookHandler
  preValidation: preValidationHookHandler
  preHandler: preHandlerHookHandler
  preSerialization: preSerializationHookHandler
  onSend: onSendHookHandler
  onResponse: onResponseHookHandler
  onError: onErrorHookHandler
  onTimeout: onTimeoutHookHandler
  onRequestAbort: onRequestAbortHookHandler
}

/** The async form of each lifecycle hook, with the default type parameters. */
interface LifecycleAsyncHooksByName {
  onRequest: onRequestAsyncHookHandler
  preParsing: preParsingAsyncHookHandler
  preValidation: preValidationAsyncHookHandler
  preHandler: preHandlerAsyncHookHandler
  preSerialization: preSerializationAsyncHookHandler
  onSend: onSendAsyncHookHandler
  onResponse: onResponseAsyncHookHandler
  onError: onErrorAsyncHookHandler
  onTimeout: onTimeoutAsyncHookHandler
  onRequestAbort: onRequestAbortAsyncHookHandler
}

export type LifecycleHookLookup<K extends LifecycleHook> = LifecycleHooksByName[K]
export type LifecycleHookAsyncLookup<K extends LifecycleHook> = LifecycleAsyncHooksByName[K]
