/** Internal symbol keys, all in one place. None of them is part of the public API. */

/** On every instance object: its own `PluginContext` (encapsulated state of that context). */
export const kContext = Symbol('enclave.context')
/** On the root instance only: the application-wide state (router, server, avvio, options). */
export const kApp = Symbol('enclave.app')
/** On a request or reply: the compiled `RouteContext` it is served by. */
export const kRouteContext = Symbol('enclave.routeContext')
/** On a reply: a serializer set for this reply alone with `reply.serializer(fn)`. */
export const kReplySerializer = Symbol('enclave.replySerializer')
/** On a reply: whether the error handler chain is currently running (to fall back to the parent handler). */
export const kReplyErrorHandlerIndex = Symbol('enclave.replyErrorHandlerIndex')
