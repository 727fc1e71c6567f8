/**
 * `register()`: adds a plugin in a new encapsulation context. The plugin's options type is inferred from the plugin
 * and the options given, and the two must agree; `register()`'s own options (`prefix`, `logLevel`,
 * `logSerializers`) are always accepted, and the options may also be a function of the parent instance.
 *
 * An inline plugin's instance has the parent's type provider (so its inference and shared schemas).
 */
import type { FastifyInstance, IsEnclaveInstance } from './instance'
import type { FastifyBaseLogger, LogLevel } from './logger'
import type { FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from './plugin'
import type { FastifyTypeProvider } from './type-provider'
import type { RawServerBase, RawServerDefault } from './raw'

/** Options `register()` itself understands, next to the plugin's own. */
export interface RegisterOptions {
  /** Prefix of every route the plugin registers. */
  prefix?: string
  /** Log level of the plugin's routes. */
  logLevel?: LogLevel
  /** Log serializers of the plugin's routes. */
  logSerializers?: Record<string, (value: any) => string>
}

/** The second argument of `register()`: the options, or a function of the parent instance returning them. */
export type FastifyRegisterOptions<Options> =
  | (RegisterOptions & Options)
  | ((instance: FastifyInstance) => RegisterOptions & Options)

type EitherPlugin<Options extends FastifyPluginOptions, Server extends RawServerBase, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger> =
  | FastifyPluginCallback<Options, Server, TypeProvider, Logger>
  | FastifyPluginAsync<Options, Server, TypeProvider, Logger>

/**
 * A plugin typed for another framework's instance type (a plugin compiled against the real `fastify` package's
 * types, when both are installed): its instance parameter is not checked, its options are. A plugin typed for
 * Enclave never takes this path (`P & ForeignPlugin<P>` is then `never`).
 */
export type ForeignPlugin<P> = P extends (instance: infer X, ...args: any[]) => unknown
  ? (IsEnclaveInstance<X> extends true ? never : unknown)
  : never

/** The options type of a plugin function. */
export type PluginOptionsOf<P> = P extends (instance: any, opts: infer O, ...args: any[]) => unknown ? O : never

/**
 * `register()`: returns `T` (the instance, also a promise that settles once the plugin is loaded). The other type
 * parameters are the defaults an inline plugin's instance gets: the parent's.
 */
export interface FastifyRegister<
  T = void,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProviderDefault extends FastifyTypeProvider = FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger = FastifyBaseLogger
> {
  <P extends (instance: any, opts: any, done: any) => unknown>(
    plugin: P & ForeignPlugin<P>,
    opts?: FastifyRegisterOptions<PluginOptionsOf<P>>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginCallback<Options, Server, TypeProvider, Logger>,
    opts?: FastifyRegisterOptions<Options>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginAsync<Options, Server, TypeProvider, Logger>,
    opts?: FastifyRegisterOptions<Options>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin:
      | EitherPlugin<Options, Server, TypeProvider, Logger>
      | { default: EitherPlugin<Options, Server, TypeProvider, Logger> }
      | Promise<{ default: EitherPlugin<Options, Server, TypeProvider, Logger> }>,
    opts?: FastifyRegisterOptions<Options>
  ): T
}
