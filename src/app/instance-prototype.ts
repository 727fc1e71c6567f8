/**
 * The prototype every instance object shares: the public methods, each acting on `this[kPluginContext]` (the
 * calling context) or `this[kApp]` (the application). Each concern's methods live in its own module and are
 * gathered here; the loader (avvio) adds `register`, `after`, `ready`, `onClose` and `close` to the root.
 */
import { kPluginContext, kApp, kRegisteredPlugins } from '../core/symbols'
import { enclaveVersion } from '../core/version'
import type { Instance } from '../encapsulation/app-state'
import { decoratorInstanceMethods } from '../encapsulation/decorators'
import { addHook } from '../hooks/add-hook'
import { schemaInstanceMethods } from '../schema/schema-scope'
import { serializationInstanceMethods } from '../schema/serialization/serializer-compilers'
import { contentTypeInstanceMethods } from '../request/content-type-parser'
import { requestIdentityInstanceMethods } from '../request/request-identity'
import { errorHandlerInstanceMethods } from '../reply/error-handler'
import { routeInstanceMethods } from '../routing/route-registration'
import { notFoundInstanceMethods } from '../routing/not-found-handlers'
import { httpMethodInstanceMethods } from '../routing/http-method-api'
import { formatAddress, listenInstanceMethods } from './listen'
import { injectInstanceMethods } from './inject'

const ownMethods: ThisType<Instance> & Record<string, unknown> = {
  addHook,
  hasPlugin (this: Instance, name: string): boolean {
    const context = this[kPluginContext]
    return context.ownPlugin === name || context.registeredPlugins.includes(name) || context.sharedPlugins.includes(name)
  },
  printPlugins (this: Instance): string {
    return this[kApp].loader.prettyPrint()
  },
  routing (this: Instance, req: Parameters<Instance[typeof kApp]['handler']>[0], res: Parameters<Instance[typeof kApp]['handler']>[1]): void {
    this[kApp].handler(req, res)
  },
  /** Type-level only (TypeScript type providers): at run time the instance itself. */
  withTypeProvider (this: Instance): Instance {
    return this
  },
  get prefix () { return this[kPluginContext].prefix },
  get pluginName () { return this[kPluginContext].pluginName },
  get version () { return this[kApp].level.fastifyVersion },
  get enclaveVersion () { return enclaveVersion },
  get errorHandler () { return this[kPluginContext].errorHandler.fn },
  get [kRegisteredPlugins] () { return this[kPluginContext].registeredPlugins },
  get listeningOrigin () {
    const app = this[kApp]
    return app.listening ? formatAddress(app.server, Boolean(app.options.https)) : undefined
  }
}

export const instancePrototype: Record<string | symbol, unknown> = {}
// Copied as descriptors, not spread: a spread would evaluate the getters (e.g. `validatorCompiler`) once, here.
for (const methods of [ownMethods, decoratorInstanceMethods, routeInstanceMethods, httpMethodInstanceMethods, notFoundInstanceMethods,
  errorHandlerInstanceMethods, listenInstanceMethods, injectInstanceMethods, contentTypeInstanceMethods, schemaInstanceMethods,
  serializationInstanceMethods, requestIdentityInstanceMethods]) {
  Object.defineProperties(instancePrototype, Object.getOwnPropertyDescriptors(methods))
}
// `await using app = enclave()` closes the app at the end of the scope (the symbol is missing before Node 20.4)
if (typeof Symbol.asyncDispose === 'symbol') {
  instancePrototype[Symbol.asyncDispose] = function asyncDispose (this: Instance) {
    return this.close()
  }
}
