/**
 * Plugin types. A plugin is a function of the instance and its options, in callback form (calls `done`) or async
 * form (returns a promise). `register(plugin, options)` checks the options against the plugin's options type.
 */
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './raw'

/** The base type of plugin options: any object. */
export type FastifyPluginOptions = Record<string, any>

/** Signals that a callback plugin is loaded (or failed). */
export type PluginDone = (err?: Error) => void

/** A plugin in callback form: calls `done()` when it is loaded. */
export type FastifyPluginCallback<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (
  instance: FastifyInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, TypeProvider>,
  opts: Options,
  done: PluginDone
) => void

/** A plugin in async form: loaded when the promise resolves. */
export type FastifyPluginAsync<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (
  instance: FastifyInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, TypeProvider>,
  opts: Options
) => Promise<void>

/**
 * A plugin in either form.
 * @deprecated A union infers badly: type plugins with `FastifyPluginCallback` or `FastifyPluginAsync`.
 */
export type FastifyPlugin<Options extends FastifyPluginOptions = Record<never, never>> =
  | FastifyPluginCallback<Options>
  | FastifyPluginAsync<Options>

/** Enclave's names for the plugin types. */
export type EnclavePluginOptions = FastifyPluginOptions
export type EnclavePluginCallback<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = FastifyPluginCallback<Options, Server, TypeProvider, Logger>
export type EnclavePluginAsync<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = FastifyPluginAsync<Options, Server, TypeProvider, Logger>
export type EnclavePlugin<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginCallback<Options> | FastifyPluginAsync<Options>
