/**
 * Every internal symbol key, in one place, so a reader finds what lives on an object by grepping one module. None
 * of them is public, except the three `Symbol.for` keys that plugins set through `fastify-plugin`.
 */

// on every instance object
/** Its own `PluginContext`: the encapsulated state of that context. */
export const kPluginContext = Symbol('enclave.pluginContext')
/** The application-wide `AppState` (router, server, loader, options), shared by every context. */
export const kApp = Symbol('enclave.app')

// on a request and on its reply
/** The `CompiledRoute` serving it: hooks, validators, serializers and error handler resolved at ready. */
export const kRoute = Symbol('enclave.route')

// on a request
/** Its headers: `raw.headers` until a handler assigns `request.headers`. */
export const kRequestHeaders = Symbol('enclave.requestHeaders')
/** On the root request prototype: the trust function compiled from the `trustProxy` option, or null. */
export const kTrustProxy = Symbol('enclave.trustProxy')
/** The response being written for it (the reply's `raw`): `request.signal` watches it for the client going away. */
export const kRequestResponse = Symbol('enclave.requestResponse')
/** The AbortController behind `request.signal`: made at start when the route has a `handlerTimeout`, else on first read. */
export const kRequestAbort = Symbol('enclave.requestAbort')

// on a reply
/** Headers set so far, written once with `writeHead`. */
export const kReplyHeaders = Symbol('enclave.replyHeaders')
/** `send()` has begun the payload path (cleared again when an error takes over before anything was written). */
export const kReplyStarted = Symbol('enclave.replyStarted')
export const kReplyHijacked = Symbol('enclave.replyHijacked')
export const kReplyStartTime = Symbol('enclave.replyStartTime')
/** `code()` was called: the error handler keeps a 4xx/5xx status set by the user. */
export const kReplyHasStatusCode = Symbol('enclave.replyHasStatusCode')
/** The onError hooks are running: `send()` is forbidden there. */
export const kReplyInOnError = Symbol('enclave.replyInOnError')
/** The default error payload is going through onSend: a failure there must not start the error path again. */
export const kReplySendingError = Symbol('enclave.replySendingError')
/** A serializer set for this reply alone with `reply.serializer(fn)`. */
export const kReplySerializer = Symbol('enclave.replySerializer')
/** The link of the error-handler chain now handling this reply's error, or null outside error handling. */
export const kReplyErrorHandler = Symbol('enclave.replyErrorHandler')
/**
 * A reply method: answers with a failure as the error handlers must see it, whatever was thrown (a string, a plain
 * object). `reply.send(value)` treats only Errors as errors; the request path uses this for what user code threw.
 */
export const kReplySendError = Symbol('enclave.replySendError')
/** Trailer functions by name (`reply.trailer()`), or null when there are none. */
export const kReplyTrailers = Symbol('enclave.replyTrailers')

// on a socket
/** The reply in flight on a kept-alive socket, read by its one 'timeout' listener. */
export const kSocketReply = Symbol('enclave.socketReply')

// on plugin functions, set by `fastify-plugin` (shared with Fastify, hence Symbol.for)
export const kSkipOverride = Symbol.for('skip-override')
export const kDisplayName = Symbol.for('fastify.display-name')
export const kPluginMeta = Symbol.for('plugin-meta')
/** On every instance: the plugin-meta names registered in its context and its ancestors (Fastify sets it too). */
export const kRegisteredPlugins = Symbol.for('registered-plugin')
/** On the wrapper `register()` puts around a plugin function: the function the user registered. */
export const kRegisteredFunction = Symbol('enclave.registered-function')
