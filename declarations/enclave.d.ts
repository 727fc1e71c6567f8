/**
 * The package's entry, as Node loads it: `module.exports` is the factory, carrying the named exports
 * (src/index.ts). It is described with `export =` and a namespace merged into the factory, as Fastify 4 describes
 * its own export, because only that form is read right under every module setting: `import Fastify from 'fastify'`
 * in an ES module under `module: NodeNext` gets the callable factory (a CommonJS `export default` would be read as
 * `module.exports.default` there, and the default import as the module object), named imports and
 * `declare module 'fastify'` augmentations reach the same interfaces, and `require('enclave-http')` is typed as what it
 * returns. The types themselves are the ones tsc emits from src/ (dist/src/index.d.ts).
 *
 * Every name dist/src/index.d.ts exports is listed below, once; test/types/published-entry.test.ts fails when a
 * name is missing or left over, and test/types/esm/app.ts that the overloads below are EnclaveFactory's.
 * TypeScript 5.0 to 5.3 reach this file through typescript-5.0.d.ts (package.json `typesVersions` and `types@<5.4`).
 */
import * as http from 'node:http'
import * as https from 'node:https'
import * as http2 from 'node:http2'
import * as api from '../dist/src/index'
// names src/types re-exports with `export type`, which an import alias cannot reference
import type {
  FastifyError, LightMyRequestChain, InjectOptions, LightMyRequestResponse, LightMyRequestCallback
} from '../dist/src/index'

type Root<Server extends api.RawServerBase, Request extends api.RawRequestDefaultExpression<Server>, Reply extends api.RawReplyDefaultExpression<Server>, Logger extends api.FastifyBaseLogger, TypeProvider extends api.FastifyTypeProvider> =
  api.FastifyInstance<Server, Request, Reply, Logger, TypeProvider> & api.InstancePromiseLike<api.FastifyInstance<Server, Request, Reply, Logger, TypeProvider>>

/** Creates an application (the root encapsulation context); the overloads of `EnclaveFactory`. */
declare function enclave<
  Server extends http2.Http2SecureServer,
  Request extends api.RawRequestDefaultExpression<Server> = api.RawRequestDefaultExpression<Server>,
  Reply extends api.RawReplyDefaultExpression<Server> = api.RawReplyDefaultExpression<Server>,
  Logger extends api.FastifyBaseLogger = api.FastifyBaseLogger,
  TypeProvider extends api.FastifyTypeProvider = api.FastifyTypeProviderDefault
>(opts: api.FastifyHttp2SecureOptions<Server, Logger>): Root<Server, Request, Reply, Logger, TypeProvider>
declare function enclave<
  Server extends http2.Http2Server,
  Request extends api.RawRequestDefaultExpression<Server> = api.RawRequestDefaultExpression<Server>,
  Reply extends api.RawReplyDefaultExpression<Server> = api.RawReplyDefaultExpression<Server>,
  Logger extends api.FastifyBaseLogger = api.FastifyBaseLogger,
  TypeProvider extends api.FastifyTypeProvider = api.FastifyTypeProviderDefault
>(opts: api.FastifyHttp2Options<Server, Logger>): Root<Server, Request, Reply, Logger, TypeProvider>
declare function enclave<
  Server extends https.Server,
  Request extends api.RawRequestDefaultExpression<Server> = api.RawRequestDefaultExpression<Server>,
  Reply extends api.RawReplyDefaultExpression<Server> = api.RawReplyDefaultExpression<Server>,
  Logger extends api.FastifyBaseLogger = api.FastifyBaseLogger,
  TypeProvider extends api.FastifyTypeProvider = api.FastifyTypeProviderDefault
>(opts: api.FastifyHttpsOptions<Server, Logger>): Root<Server, Request, Reply, Logger, TypeProvider>
declare function enclave<
  Server extends http.Server,
  Request extends api.RawRequestDefaultExpression<Server> = api.RawRequestDefaultExpression<Server>,
  Reply extends api.RawReplyDefaultExpression<Server> = api.RawReplyDefaultExpression<Server>,
  Logger extends api.FastifyBaseLogger = api.FastifyBaseLogger,
  TypeProvider extends api.FastifyTypeProvider = api.FastifyTypeProviderDefault
>(opts?: api.FastifyHttpOptions<Server, Logger>): Root<Server, Request, Reply, Logger, TypeProvider>

type Factory = typeof enclave

declare namespace enclave {
  // the values: the factory under its three names, and what src/index.ts exports beside it
  export const enclave: Factory
  export const fastify: Factory
  export { fastify as default }
  export const errorCodes: api.FastifyErrorCodes
  export import createError = api.createError
  export import FASTIFY_API_VERSION = api.FASTIFY_API_VERSION
  /** Enclave only: writes the compile cache of an application created with `compileCache: { dir }` (docs/compile-cache.md). */
  export const precompile: api.EnclaveFactory['precompile']
  export type { FastifyError, LightMyRequestChain, InjectOptions, LightMyRequestResponse, LightMyRequestCallback }
  // Enclave's names of Fastify's interfaces: the same interfaces, so an augmentation under either name reaches both
  export import EnclaveContextConfig = api.FastifyContextConfig
  export import EnclaveRequest = api.FastifyRequest
  export import EnclaveReply = api.FastifyReply
  export import EnclaveInstance = api.FastifyInstance

  // src/types/utils.ts
  export import HTTPMethods = api.HTTPMethods
  export import RequestBodyDefault = api.RequestBodyDefault
  export import RequestQuerystringDefault = api.RequestQuerystringDefault
  export import RequestParamsDefault = api.RequestParamsDefault
  export import RequestHeadersDefault = api.RequestHeadersDefault
  export import ContextConfigDefault = api.ContextConfigDefault
  export import ReplyDefault = api.ReplyDefault
  export import CodeClasses = api.CodeClasses
  export import IsHttpCode = api.IsHttpCode
  export import ReplyKeysToCodes = api.ReplyKeysToCodes
  export import CodeToReplyKey = api.CodeToReplyKey
  export import RecordKeysToLowercase = api.RecordKeysToLowercase
  export import HttpHeader = api.HttpHeader
  export import NoInferCompat = api.NoInferCompat
  export import SafePromiseLike = api.SafePromiseLike
  export import InstancePromiseLike = api.InstancePromiseLike
  // src/types/raw.ts
  export import RawServerBase = api.RawServerBase
  export import RawServerDefault = api.RawServerDefault
  export import RawRequestDefaultExpression = api.RawRequestDefaultExpression
  export import RawReplyDefaultExpression = api.RawReplyDefaultExpression
  export import RawRequestDefault = api.RawRequestDefault
  export import RawReplyDefault = api.RawReplyDefault
  export import RawRequestHeaders = api.RawRequestHeaders
  // src/types/schema.ts
  export import JSONSchemaTypeName = api.JSONSchemaTypeName
  export import JSONSchema = api.JSONSchema
  export import JSONSchemaDefinition = api.JSONSchemaDefinition
  export import SchemaRegistry = api.SchemaRegistry
  export import SchemaDirection = api.SchemaDirection
  export import MaxDepth = api.MaxDepth
  export import FromSchema = api.FromSchema
  export import Simplify = api.Simplify
  // src/types/route-generic.ts
  export import RequestGenericInterface = api.RequestGenericInterface
  export import ReplyGenericInterface = api.ReplyGenericInterface
  export import RouteGenericInterface = api.RouteGenericInterface
  export import ExpandShorthand = api.ExpandShorthand
  export import RequestPartFromSchema = api.RequestPartFromSchema
  export import ResponseTypesFromSchema = api.ResponseTypesFromSchema
  export import RouteGenericFromSchema = api.RouteGenericFromSchema
  export import IsReplyMap = api.IsReplyMap
  export import PayloadForStatus = api.PayloadForStatus
  // src/types/type-provider.ts
  export import FastifyTypeProvider = api.FastifyTypeProvider
  export import EnclaveTypeProvider = api.EnclaveTypeProvider
  export import FastifyTypeProviderDefault = api.FastifyTypeProviderDefault
  export import CallTypeProvider = api.CallTypeProvider
  export import IsEnclaveTypeProvider = api.IsEnclaveTypeProvider
  export import SharedSchemasOf = api.SharedSchemasOf
  export import WithSharedSchema = api.WithSharedSchema
  export import SchemaType = api.SchemaType
  export import FastifyRequestType = api.FastifyRequestType
  export import ResolveFastifyRequestType = api.ResolveFastifyRequestType
  export import ResponseTypes = api.ResponseTypes
  export import FastifyReplyType = api.FastifyReplyType
  export import ResolveFastifyReplyType = api.ResolveFastifyReplyType
  export import ResolveReplyTypeWithRouteGeneric = api.ResolveReplyTypeWithRouteGeneric
  export import ResolveFastifyReplyReturnType = api.ResolveFastifyReplyReturnType
  // src/types/compilers.ts
  export import FastifySchema = api.FastifySchema
  export import FastifyRouteSchemaDef = api.FastifyRouteSchemaDef
  export import FastifySchemaValidationError = api.FastifySchemaValidationError
  export import FastifyValidationResult = api.FastifyValidationResult
  export import FastifySchemaCompiler = api.FastifySchemaCompiler
  export import FastifySerializerCompiler = api.FastifySerializerCompiler
  export import SchemaErrorDataVar = api.SchemaErrorDataVar
  export import SchemaErrorFormatter = api.SchemaErrorFormatter
  export import ValidatorFactory = api.ValidatorFactory
  export import SerializerFactory = api.SerializerFactory
  export import FastifySchemaControllerOptions = api.FastifySchemaControllerOptions
  export import AjvServerOptions = api.AjvServerOptions
  export import SerializerServerOptions = api.SerializerServerOptions
  export import ValidatorCompiler = api.ValidatorCompiler
  export import SerializerCompiler = api.SerializerCompiler
  export import ValidatorFunction = api.ValidatorFunction
  export import SerializerFunction = api.SerializerFunction
  export import SchemaControllerOptions = api.SchemaControllerOptions
  export import HttpPart = api.HttpPart
  // src/types/errors.ts
  export import EnclaveErrorCodeName = api.EnclaveErrorCodeName
  export import FastifyErrorCodes = api.FastifyErrorCodes
  export import ValidationResult = api.ValidationResult
  export import EnclaveError = api.EnclaveError
  export import EnclaveErrorCodes = api.EnclaveErrorCodes
  // src/types/context.ts
  export import FastifyContextConfig = api.FastifyContextConfig
  export import FastifyRouteConfig = api.FastifyRouteConfig
  export import FastifyRequestContext = api.FastifyRequestContext
  export import FastifyReplyContext = api.FastifyReplyContext
  // src/types/logger.ts
  export import FastifyLogFn = api.FastifyLogFn
  export import LogLevel = api.LogLevel
  export import Bindings = api.Bindings
  export import ChildLoggerOptions = api.ChildLoggerOptions
  export import PinoLoggerOptions = api.PinoLoggerOptions
  export import FastifyBaseLogger = api.FastifyBaseLogger
  export import FastifyLoggerInstance = api.FastifyLoggerInstance
  export import FastifyLoggerStreamDestination = api.FastifyLoggerStreamDestination
  export import ResSerializerReply = api.ResSerializerReply
  export import FastifyLoggerOptions = api.FastifyLoggerOptions
  export import FastifyChildLoggerFactory = api.FastifyChildLoggerFactory
  export import Logger = api.Logger
  export import EnclaveBaseLogger = api.EnclaveBaseLogger
  export import EnclaveLoggerOptions = api.EnclaveLoggerOptions
  export import ChildLoggerFactory = api.ChildLoggerFactory
  // src/types/request.ts
  export import RouteGenericOfRequest = api.RouteGenericOfRequest
  export import ValidationFunction = api.ValidationFunction
  export import RequestRouteOptions = api.RequestRouteOptions
  export import FastifyRequest = api.FastifyRequest
  // src/types/reply.ts
  export import AnyReply = api.AnyReply
  export import FastifyReply = api.FastifyReply
  export import ReplyOf = api.ReplyOf
  export import SendArgs = api.SendArgs
  // src/types/hooks.ts
  export import HookHandlerDoneFunction = api.HookHandlerDoneFunction
  export import DoneFuncWithErrOrRes = api.DoneFuncWithErrOrRes
  export import RequestPayload = api.RequestPayload
  export import onRequestHookHandler = api.onRequestHookHandler
  export import onRequestAsyncHookHandler = api.onRequestAsyncHookHandler
  export import preParsingHookHandler = api.preParsingHookHandler
  export import preParsingAsyncHookHandler = api.preParsingAsyncHookHandler
  export import preValidationHookHandler = api.preValidationHookHandler
  export import preValidationAsyncHookHandler = api.preValidationAsyncHookHandler
  export import preHandlerHookHandler = api.preHandlerHookHandler
  export import preHandlerAsyncHookHandler = api.preHandlerAsyncHookHandler
  export import preSerializationHookHandler = api.preSerializationHookHandler
  export import preSerializationAsyncHookHandler = api.preSerializationAsyncHookHandler
  export import onSendHookHandler = api.onSendHookHandler
  export import onSendAsyncHookHandler = api.onSendAsyncHookHandler
  export import onResponseHookHandler = api.onResponseHookHandler
  export import onResponseAsyncHookHandler = api.onResponseAsyncHookHandler
  export import onTimeoutHookHandler = api.onTimeoutHookHandler
  export import onTimeoutAsyncHookHandler = api.onTimeoutAsyncHookHandler
  export import onErrorHookHandler = api.onErrorHookHandler
  export import onErrorAsyncHookHandler = api.onErrorAsyncHookHandler
  export import onRequestAbortHookHandler = api.onRequestAbortHookHandler
  export import onRequestAbortAsyncHookHandler = api.onRequestAbortAsyncHookHandler
  export import LifecycleHook = api.LifecycleHook
  export import LifecycleHookLookup = api.LifecycleHookLookup
  export import LifecycleHookAsyncLookup = api.LifecycleHookAsyncLookup
  // src/types/application-hooks.ts
  export import onRouteHookHandler = api.onRouteHookHandler
  export import onRegisterHookHandler = api.onRegisterHookHandler
  export import onReadyHookHandler = api.onReadyHookHandler
  export import onReadyAsyncHookHandler = api.onReadyAsyncHookHandler
  export import onListenHookHandler = api.onListenHookHandler
  export import onListenAsyncHookHandler = api.onListenAsyncHookHandler
  export import onCloseHookHandler = api.onCloseHookHandler
  export import onCloseAsyncHookHandler = api.onCloseAsyncHookHandler
  export import preCloseHookHandler = api.preCloseHookHandler
  export import preCloseAsyncHookHandler = api.preCloseAsyncHookHandler
  export import ApplicationHook = api.ApplicationHook
  export import ApplicationHookLookup = api.ApplicationHookLookup
  export import ApplicationHookAsyncLookup = api.ApplicationHookAsyncLookup
  export import HookLookup = api.HookLookup
  export import HookAsyncLookup = api.HookAsyncLookup
  // src/types/route-hooks.ts
  export import onRequestMetaHookHandler = api.onRequestMetaHookHandler
  export import preParsingMetaHookHandler = api.preParsingMetaHookHandler
  export import preValidationMetaHookHandler = api.preValidationMetaHookHandler
  export import preHandlerMetaHookHandler = api.preHandlerMetaHookHandler
  export import preSerializationMetaHookHandler = api.preSerializationMetaHookHandler
  export import onSendMetaHookHandler = api.onSendMetaHookHandler
  export import onResponseMetaHookHandler = api.onResponseMetaHookHandler
  export import onTimeoutMetaHookHandler = api.onTimeoutMetaHookHandler
  export import onErrorMetaHookHandler = api.onErrorMetaHookHandler
  export import onRequestAbortMetaHookHandler = api.onRequestAbortMetaHookHandler
  // src/types/route.ts
  export import RouteConstraintType = api.RouteConstraintType
  export import RouteConstraint = api.RouteConstraint
  export import RouteShorthandOptions = api.RouteShorthandOptions
  export import RouteHandlerMethod = api.RouteHandlerMethod
  export import RouteShorthandOptionsWithHandler = api.RouteShorthandOptionsWithHandler
  export import OptionsWithFixedHandler = api.OptionsWithFixedHandler
  export import RouteShorthandMethod = api.RouteShorthandMethod
  export import AssignableOnly = api.AssignableOnly
  export import DeclaredHandler = api.DeclaredHandler
  export import HandlerRouteGeneric = api.HandlerRouteGeneric
  export import IfDeclaredHandler = api.IfDeclaredHandler
  export import RouteOptionsExtensions = api.RouteOptionsExtensions
  export import RouteMethodAndUrl = api.RouteMethodAndUrl
  export import RouteOptions = api.RouteOptions
  export import RouteHandler = api.RouteHandler
  export import DefaultRoute = api.DefaultRoute
  // src/types/content-type-parser.ts
  export import FastifyBodyParser = api.FastifyBodyParser
  export import FastifyContentTypeParser = api.FastifyContentTypeParser
  export import ContentTypeMatcher = api.ContentTypeMatcher
  export import AddContentTypeParser = api.AddContentTypeParser
  export import hasContentTypeParser = api.hasContentTypeParser
  export import ProtoAction = api.ProtoAction
  export import ConstructorAction = api.ConstructorAction
  export import getDefaultJsonParser = api.getDefaultJsonParser
  export import removeContentTypeParser = api.removeContentTypeParser
  export import removeAllContentTypeParsers = api.removeAllContentTypeParsers
  export import PoisoningAction = api.PoisoningAction
  // src/types/plugin.ts
  export import FastifyPluginOptions = api.FastifyPluginOptions
  export import PluginDone = api.PluginDone
  export import FastifyPluginCallback = api.FastifyPluginCallback
  export import FastifyPluginAsync = api.FastifyPluginAsync
  export import FastifyPlugin = api.FastifyPlugin
  export import EnclavePluginOptions = api.EnclavePluginOptions
  export import EnclavePluginCallback = api.EnclavePluginCallback
  export import EnclavePluginAsync = api.EnclavePluginAsync
  export import EnclavePlugin = api.EnclavePlugin
  // src/types/register.ts
  export import RegisterOptions = api.RegisterOptions
  export import FastifyRegisterOptions = api.FastifyRegisterOptions
  export import ForeignPlugin = api.ForeignPlugin
  export import PluginOptionsOf = api.PluginOptionsOf
  export import FastifyRegister = api.FastifyRegister
  // src/types/decorate.ts
  export import DecorationMethod = api.DecorationMethod
  // src/types/server-factory.ts
  export import FastifyServerFactoryHandler = api.FastifyServerFactoryHandler
  export import FastifyServerFactory = api.FastifyServerFactory
  // src/types/options.ts
  export import FindMyWayVersion = api.FindMyWayVersion
  export import ConnectionError = api.ConnectionError
  export import FastifyServerOptions = api.FastifyServerOptions
  export import FastifyRouterOptions = api.FastifyRouterOptions
  export import FastifyHttpOptions = api.FastifyHttpOptions
  export import FastifyHttpsOptions = api.FastifyHttpsOptions
  export import FastifyHttp2Options = api.FastifyHttp2Options
  export import FastifyHttp2SecureOptions = api.FastifyHttp2SecureOptions
  export import FastifyListenOptions = api.FastifyListenOptions
  export import EnclaveOptions = api.EnclaveOptions
  export import ListenOptions = api.ListenOptions
  // src/types/instance-hooks.ts
  export import FastifyInstanceHooks = api.FastifyInstanceHooks
  // src/types/instance.ts
  export import IsEnclaveInstance = api.IsEnclaveInstance
  export import PrintRoutesOptions = api.PrintRoutesOptions
  export import FindMyWayFindResult = api.FindMyWayFindResult
  export import FastifyInstance = api.FastifyInstance
  // src/types/factory.ts
  export import EnclaveFactory = api.EnclaveFactory
  export import PrecompileResult = api.PrecompileResult
  // src/types/light-my-request.ts
}

export = enclave
