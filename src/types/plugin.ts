/**
 * Plugin types. A plugin is a function of the instance and its options, in callback form (calls `done`) or async
 * form (returns a promise). `register(plugin, options)` checks the options against the plugin's options type and
 * requires them when the plugin has required options.
 */
import type { EnclaveInstance, IsEnclaveInstance } from './instance'
import type { LogLevel } from './logger'

/** The base type of plugin options: any object. */
export type EnclavePluginOptions = Record<string, any>

/** Signals that a callback plugin is loaded (or failed). */
export type PluginDone = (err?: Error) => void

/** A plugin in callback form: calls `done()` when it is loaded. */
export type EnclavePluginCallback<Options extends EnclavePluginOptions = Record<never, never>, I = EnclaveInstance> = (
  instance: I,
  opts: Options,
  done: PluginDone
) => void

/** A plugin in async form: loaded when the promise resolves. */
export type EnclavePluginAsync<Options extends EnclavePluginOptions = Record<never, never>, I = EnclaveInstance> = (
  instance: I,
  opts: Options
) => Promise<void>

/** A plugin in either form. */
export type EnclavePlugin<Options extends EnclavePluginOptions = Record<never, never>, I = EnclaveInstance> =
  | EnclavePluginCallback<Options, I>
  | EnclavePluginAsync<Options, I>

/**
 * The plugin parameter of `register()`: one signature covering both forms, so that an inline plugin's parameters
 * are typed from it.
 */
export type PluginFunction<Options extends EnclavePluginOptions, I> = (instance: I, opts: Options, done: PluginDone) => void | Promise<void>

/** A plugin, or a module (or dynamic import) whose `default` export is one. */
export type PluginReference<Options extends EnclavePluginOptions, I> =
  | PluginFunction<Options, I>
  | { default: PluginFunction<Options, I> }
  | Promise<{ default: PluginFunction<Options, I> }>

/** Options `register()` itself understands, next to the plugin's own. */
export interface RegisterOptions {
  /** Prefix of every route the plugin registers. */
  prefix?: string
  /** Log level of the plugin's routes. */
  logLevel?: LogLevel
  /** Log serializers of the plugin's routes. */
  logSerializers?: Record<string, (value: any) => unknown>
}

/** The second argument of `register()`: the options, or a function of the parent instance returning them. */
export type RegisterOptionsArgument<Options, I> =
  | (Options & RegisterOptions)
  | ((instance: I) => Options & RegisterOptions)

/** `register()`'s options argument: optional unless the plugin's options have required keys. */
export type RegisterOptionsRest<Options, I> = Record<never, never> extends Options
  ? [opts?: RegisterOptionsArgument<NoInfer<Options>, I>]
  : [opts: RegisterOptionsArgument<NoInfer<Options>, I>]

/**
 * `register()`'s options for a foreign plugin. Its options type is already fixed by the plugin argument, so no
 * `NoInfer` is needed, and `NoInfer` over a union containing function types (as `@fastify/cors` declares) makes
 * TypeScript reject valid options.
 */
export type ForeignOptionsRest<Options, I> = Record<never, never> extends Options
  ? [opts?: RegisterOptionsArgument<Options, I>]
  : [opts: RegisterOptionsArgument<Options, I>]

/**
 * A plugin typed for another framework's instance type (for example a Fastify plugin, or `fastify-plugin`'s
 * result): its instance parameter is not checked, its options are. A plugin typed for Enclave never takes this
 * path, so its instance type (decorators, shared schemas it relies on) is always checked.
 */
export type ForeignPlugin<P> = P extends (instance: infer X, ...args: any[]) => unknown
  ? (IsEnclaveInstance<X> extends true ? never : P)
  : never

/** The options type of a plugin function. */
export type PluginOptionsOf<P> = P extends (instance: any, opts: infer O, ...args: any[]) => unknown ? O : never

/**
 * `register()` on instance `I`. The result is the instance and a promise: `await app.register(plugin)` waits for
 * the plugin to load.
 */
export interface RegisterMethod<I = EnclaveInstance> {
  <Options extends EnclavePluginOptions = EnclavePluginOptions>(
    plugin: PluginReference<Options, I>,
    ...opts: RegisterOptionsRest<Options, I>
  ): I & PromiseLike<undefined>
  <P extends (instance: any, opts: any, done: PluginDone) => unknown>(
    plugin: ForeignPlugin<P>,
    ...opts: ForeignOptionsRest<PluginOptionsOf<P>, I>
  ): I & PromiseLike<undefined>
}
