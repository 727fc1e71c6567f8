// Plugins: both forms, typed options checked by register(), register() awaitable, modules with a default export,
// and plugins typed for Fastify (fastify-plugin) accepted with their options still checked.
import type { FastifyPluginCallback as RealFastifyPluginCallback } from 'fastify'
import fp from 'fastify-plugin'
import type {
  EnclaveInstance, EnclavePlugin, EnclavePluginAsync, EnclavePluginCallback, FastifyPluginAsync, FastifyPluginOptions
} from '../../src/types'
import { typeOf } from './helpers'

declare const app: EnclaveInstance

interface CacheOptions {
  ttl: number
  namespace?: string
}

const cacheCallback: EnclavePluginCallback<CacheOptions> = (instance, opts, done) => {
  typeOf(instance).is<EnclaveInstance>()
  typeOf(opts).is<CacheOptions>()
  done()
}

const cacheAsync: EnclavePluginAsync<CacheOptions> = async (instance, opts) => {
  instance.log.info({ ttl: opts.ttl }, 'cache ready')
}

const noOptions: EnclavePluginAsync = async () => {}
const either: EnclavePlugin<{ level: 'low' | 'high' }> = async () => {}

// Code written against Fastify's names ports by changing the import.
const ported: FastifyPluginAsync<{ greeting: string }> = async (fastify, opts) => {
  fastify.get('/hello', async () => ({ hello: opts.greeting }))
}

export async function registerChecksOptions (): Promise<void> {
  app.register(cacheCallback, { ttl: 60 })
  app.register(cacheAsync, { ttl: 60, namespace: 'users', prefix: '/cache' })
  app.register(noOptions)
  app.register(noOptions, { prefix: '/v1', logLevel: 'debug' })
  app.register(either, { level: 'high' })
  app.register(ported, { greeting: 'hi' })
  // Options may be computed from the parent instance.
  app.register(cacheAsync, (parent) => ({ ttl: parent.prefix.length }))

  // @ts-expect-error wrong plugin options: ttl is a number
  app.register(cacheAsync, { ttl: '60' })
  // @ts-expect-error missing required plugin option
  app.register(cacheAsync, {})
  // @ts-expect-error the options are required when the plugin has required options
  app.register(cacheCallback)
  // @ts-expect-error unknown option
  app.register(cacheAsync, { ttl: 1, bogus: true })
  // @ts-expect-error wrong enum value
  app.register(either, { level: 'medium' })

  // register() returns the instance (chainable) and can be awaited.
  const chained: EnclaveInstance = app.register(noOptions).register(cacheAsync, { ttl: 1 })
  void chained
  const loaded = await app.register(noOptions)
  typeOf(loaded).is<undefined>()
  await app.after()
  await app.ready()
}

export function inlinePlugins (): void {
  app.register(async (instance, opts) => {
    typeOf(instance).is<EnclaveInstance>()
    // An inline plugin's options are the plugin options base type.
    typeOf(opts).is<FastifyPluginOptions>()
    instance.get('/inside', async () => 'ok')
  }, { prefix: '/inline' })

  app.register((instance, _opts, done) => {
    instance.addHook('onRequest', async () => {})
    done()
  })
  // Decorations made before register are visible to the inline plugin.
  app.decorate('version2', 2).register(async (instance) => {
    typeOf(instance.version2).is<number>()
  })
}

export function pluginsRelyingOnDecorators (): void {
  // A plugin can require decorators in its instance type; registering it where they are missing is an error.
  const needsClock: EnclavePluginAsync<Record<never, never>, EnclaveInstance & { clock: () => number }> = async (instance) => {
    instance.get('/now', async () => instance.clock())
  }
  app.decorate('clock', () => Date.now()).register(needsClock)
  // @ts-expect-error the plugin needs the 'clock' decorator
  app.register(needsClock)
}

export function pluginModules (): void {
  // An ES module namespace, or a dynamic import, whose default export is a plugin.
  const mod = { default: cacheAsync }
  app.register(mod, { ttl: 5 })
  app.register(Promise.resolve(mod), { ttl: 5 })
  // @ts-expect-error the module's plugin options are checked too
  app.register(mod, { ttl: false })
}

export function pluginsTypedForFastify (): void {
  // A plugin typed with Fastify's own types (as third-party Fastify plugins are): its instance type is not
  // Enclave's, but register() accepts it and still checks its options.
  const fastifyTyped: RealFastifyPluginCallback<{ secret: string }> = (_fastify, _opts, done) => done()
  app.register(fastifyTyped, { secret: 's' })
  // @ts-expect-error options of a Fastify-typed plugin are checked
  app.register(fastifyTyped, { secret: 1 })
  // fastify-plugin's wrapper.
  const wrapped = fp(fastifyTyped, { name: 'secret-plugin' })
  app.register(wrapped, { secret: 's' })
}

// Real Fastify plugins from npm, typed against Fastify's own types, register with their options checked.
import type cors from '@fastify/cors'
declare const realCors: typeof cors
export function registerRealPlugins (): void {
  app.register(realCors, { origin: false })
  app.register(realCors, { origin: ['https://a.example', /\.b\.example$/], credentials: true, maxAge: 60 })
  // @ts-expect-error: `origin` takes strings, booleans, RegExps or functions
  app.register(realCors, { origin: 42 })
}
