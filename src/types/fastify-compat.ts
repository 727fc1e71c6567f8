/**
 * Fastify's type names, as aliases of Enclave's, so code written against Fastify's types ports by changing the
 * import. Generic parameters follow Enclave's types, not Fastify's (most code passes none; `FastifyRequest<{ Body: B }>`
 * works the same). Declaration merging must name the Enclave interface (`interface EnclaveInstance { … }`), since an
 * alias cannot be merged into.
 */
import type { EnclaveInstance } from './instance'
import type { EnclaveContextConfig, EnclaveRequest } from './request'
import type { EnclaveReply } from './reply'
import type { EnclaveError } from './errors'
import type { EnclaveOptions, ListenOptions } from './options'
import type { EnclaveBaseLogger, EnclaveLoggerOptions } from './logger'
import type { EnclavePlugin, EnclavePluginAsync, EnclavePluginCallback, EnclavePluginOptions, RegisterOptions } from './plugin'
import type { EnclaveSchema, RouteGenericInterface } from './route-generic'
import type { RouteHandler } from './route'
import type { SchemaRegistry } from './schema'
import type { ContentTypeParser, BodyParser } from './content-type-parser'
import type { ValidationResult } from './errors'
import type { ApplicationHookHandlers, OnErrorHook, OnRequestAbortHook, PayloadHook, PreParsingHook, RequestHook } from './hooks'

export type FastifyInstance<SharedSchemas extends SchemaRegistry = Record<never, never>> = EnclaveInstance<SharedSchemas>
export type FastifyRequest<G extends RouteGenericInterface = RouteGenericInterface, C = EnclaveContextConfig> = EnclaveRequest<G, C>
export type FastifyReply<G extends RouteGenericInterface = RouteGenericInterface, C = EnclaveContextConfig> = EnclaveReply<G, C>
export type FastifyError = EnclaveError
export type FastifySchema = EnclaveSchema
export type FastifySchemaValidationError = ValidationResult
export type FastifyServerOptions = EnclaveOptions
export type FastifyListenOptions = ListenOptions
export type FastifyBaseLogger = EnclaveBaseLogger
export type FastifyLoggerOptions = EnclaveLoggerOptions
export type FastifyContextConfig = EnclaveContextConfig
export type FastifyPluginOptions = EnclavePluginOptions
export type FastifyRegisterOptions<Options> = Options & RegisterOptions
export type FastifyPluginCallback<Options extends EnclavePluginOptions = Record<never, never>> = EnclavePluginCallback<Options>
export type FastifyPluginAsync<Options extends EnclavePluginOptions = Record<never, never>> = EnclavePluginAsync<Options>
export type FastifyPlugin<Options extends EnclavePluginOptions = Record<never, never>> = EnclavePlugin<Options>
export type RouteHandlerMethod<G extends RouteGenericInterface = RouteGenericInterface> = RouteHandler<G>
export type FastifyContentTypeParser = ContentTypeParser
export type FastifyBodyParser<Body extends string | Buffer = string | Buffer> = BodyParser<Body>

export type onRequestHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = RequestHook<G>
export type preParsingHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = PreParsingHook<G>
export type preValidationHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = RequestHook<G>
export type preHandlerHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = RequestHook<G>
export type preSerializationHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = PayloadHook<G>
export type onSendHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = PayloadHook<G>
export type onResponseHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = RequestHook<G>
export type onTimeoutHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = RequestHook<G>
export type onErrorHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = OnErrorHook<G>
export type onRequestAbortHookHandler<G extends RouteGenericInterface = RouteGenericInterface> = OnRequestAbortHook<G>
export type onReadyHookHandler = ApplicationHookHandlers['onReady']
export type onListenHookHandler = ApplicationHookHandlers['onListen']
export type preCloseHookHandler = ApplicationHookHandlers['preClose']
export type onCloseHookHandler = ApplicationHookHandlers['onClose']
export type onRouteHookHandler = ApplicationHookHandlers['onRoute']
export type onRegisterHookHandler = ApplicationHookHandlers['onRegister']
