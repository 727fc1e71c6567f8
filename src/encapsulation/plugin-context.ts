/**
 * Encapsulation state. Every `register()` (unless the plugin skips override) creates a child `PluginContext`
 * that copies its parent's lists at creation; later additions in the child never reach the parent or siblings.
 */
import type { AnyFn } from '../core/types'
import type { HookLists } from '../hooks/hook-names'
import type { SchemaScope } from '../schema/schema-scope'
import type { ContentTypeParserRegistry } from '../request/content-type-parser'
import type { RequestClass } from '../request/request'
import type { ReplyClass } from '../reply/reply'
import type { Instance } from './app-state'

/** One handler of the error-handler chain: a handler that fails hands the error to its `parent`. */
export interface ErrorHandlerLink {
  fn: AnyFn
  /** The instance the handler was set on: it is called with this `this` (null: the reply's server). */
  instance: Instance | null
  /** null only for the default handler, the end of every chain. */
  parent: ErrorHandlerLink | null
}

/** A decorator value set as an own property of every request or reply at construction (a stable shape). */
export type OwnDecorator = [name: string | symbol, value: unknown]

/** What a new context starts with: every field but those it fills itself. */
export type PluginContextInit = Pick<PluginContext, 'instance' | 'prefix' | 'pluginName' | 'hooks' | 'schema' |
  'contentTypeParsers' | 'errorHandler' | 'replySerializer' | 'Request' | 'Reply' | 'registeredPlugins' | 'sharedPlugins' |
  'ownPlugin'> & Partial<Pick<PluginContext, 'logLevel' | 'logSerializers'>>

export class PluginContext {
  readonly parent: PluginContext | null
  /** The public instance object of this context (an `Object.create` of the parent's instance). */
  instance: Instance
  prefix: string
  pluginName: string
  hooks: HookLists
  schema: SchemaScope
  contentTypeParsers: ContentTypeParserRegistry
  errorHandler: ErrorHandlerLink
  /** Default serializer for replies without a response schema (`setReplySerializer`). */
  replySerializer: AnyFn | null
  /** Per-context request/reply classes: decorators go on their prototypes, so sibling contexts never share them. */
  Request: RequestClass
  Reply: ReplyClass
  /** Own (non-function) request/reply decorator values, set as own properties at construction for a stable shape. */
  readonly requestProps: OwnDecorator[] = []
  readonly replyProps: OwnDecorator[] = []
  /** Plugin-meta names of plugins registered in this context or its ancestors: what `dependencies` may name. */
  registeredPlugins: string[]
  /**
   * With `registeredPlugins`, what `hasPlugin()` reports, as in Fastify: the non-encapsulated plugins loaded into
   * this context or into an ancestor before this context was created, and this context's own plugin (an
   * encapsulated plugin without plugin-meta is visible to itself only, not to its parent or children).
   */
  sharedPlugins: string[]
  ownPlugin: string | null
  /** The `logLevel` register option of this context or its nearest ancestor: the default of its routes. */
  logLevel: string | undefined
  /** The `logSerializers` register options of this context and its ancestors, merged (nearest wins). */
  logSerializers: Record<string, AnyFn> | undefined
  /** Child contexts created so far: a hook added here later must reach them too. */
  readonly children: PluginContext[] = []

  constructor (parent: PluginContext | null, init: PluginContextInit) {
    this.parent = parent
    this.instance = init.instance
    this.prefix = init.prefix
    this.pluginName = init.pluginName
    this.hooks = init.hooks
    this.schema = init.schema
    this.contentTypeParsers = init.contentTypeParsers
    this.errorHandler = init.errorHandler
    this.replySerializer = init.replySerializer
    this.Request = init.Request
    this.Reply = init.Reply
    this.registeredPlugins = init.registeredPlugins
    this.sharedPlugins = init.sharedPlugins
    this.ownPlugin = init.ownPlugin
    this.logLevel = init.logLevel
    this.logSerializers = init.logSerializers
  }

  /** This context and its ancestors, root first. */
  chain (): PluginContext[] {
    const chain: PluginContext[] = []
    for (let context: PluginContext | null = this; context !== null; context = context.parent) chain.unshift(context)
    return chain
  }
}
