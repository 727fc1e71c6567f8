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
import type { AtLevel } from './level'

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
 * parameters are the defaults an inline plugin's instance gets. Its overloads differ between the levels
 * (src/types/level.ts): Fastify 4's take the options as optional, Fastify 5's take a plugin alone only when its
 * options may be left out.
 */
export type FastifyRegister<
  T = void,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProviderDefault extends FastifyTypeProvider = FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger = FastifyBaseLogger
> = AtLevel<
  RegisterAtFastify4<T, RawServer, TypeProviderDefault, LoggerDefault>,
  RegisterAtFastify5<T, RawServer, TypeProviderDefault, LoggerDefault>
>

/** At the Fastify 4 level, the options may always be left out (the plugin then gets `{}` at run time). */
interface RegisterAtFastify4<
  T,
  RawServer extends RawServerBase,
  TypeProviderDefault extends FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger
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
    plugin: AnyPluginForm<Options, Server, TypeProvider, Logger>,
    opts?: FastifyRegisterOptions<Options>
  ): T
}

/**
 * At the Fastify 5 level, as in Fastify 5: a plugin alone only when its options accept `{}` (a plugin with a required
 * option needs its options), and three overloads with options, so that TypeScript reports a wrong options object at
 * the call ("No overload matches this call"), where a `// @ts-expect-error` above `register(` finds it.
 */
interface RegisterAtFastify5<
  T,
  RawServer extends RawServerBase,
  TypeProviderDefault extends FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger
> {
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginCallback<FastifyPluginOptions, Server, TypeProvider, Logger>
  ): T
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginAsync<FastifyPluginOptions, Server, TypeProvider, Logger>
  ): T
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: AnyPluginForm<FastifyPluginOptions, Server, TypeProvider, Logger> | PluginTaking<FastifyPluginOptions>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginCallback<Options, Server, TypeProvider, Logger>,
    opts: FastifyRegisterOptions<Options>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: FastifyPluginAsync<Options, Server, TypeProvider, Logger>,
    opts: FastifyRegisterOptions<Options>
  ): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: AnyPluginForm<Options, Server, TypeProvider, Logger> | PluginTaking<Options>,
    opts: FastifyRegisterOptions<Options>
  ): T
}

/** A plugin in either form, or a module (or the promise of one) whose default export is one. */
type AnyPluginForm<Options extends FastifyPluginOptions, Server extends RawServerBase, TypeProvider extends FastifyTypeProvider, Logger extends FastifyBaseLogger> =
  | EitherPlugin<Options, Server, TypeProvider, Logger>
  | { default: EitherPlugin<Options, Server, TypeProvider, Logger> }
  | Promise<{ default: EitherPlugin<Options, Server, TypeProvider, Logger> }>

/**
 * Any function taking these options second: at the Fastify 5 level, how a plugin typed for another framework's
 * instance type (the real `fastify` package's, when both are installed) is accepted, its options still checked.
 */
type PluginTaking<Options> = (instance: never, opts: Options, done: never) => unknown
