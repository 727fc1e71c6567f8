// Plugins: both forms, typed options checked by register(), register() awaitable, modules with a default export,
// and plugins typed for Fastify (fastify-plugin) accepted with their options still checked.
import type { FastifyPluginCallback as RealFastifyPluginCallback } from 'fastify'
import type * as https from 'node:https'
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
  // As in Fastify, the options argument itself may be left out (the plugin then gets `{}` at run time).
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
    // An inline plugin's options type is inferred from the options given, as in Fastify.
    typeOf(opts).is<{ prefix: string }>()
    instance.get('/inside', async () => 'ok')
  }, { prefix: '/inline' })

  app.register((instance, _opts, done) => {
    instance.addHook('onRequest', async () => {})
    done()
  })
  // The inline plugin's instance has the parent's type provider; decorators tracked by decorate()'s return value
  // are not carried into it (declare them by merging, as in Fastify).
  app.decorate('version2', 2).register(async (instance) => {
    typeOf(instance).is<EnclaveInstance>()
  })
}

export function pluginOptionsTypes (): void {
  // Fastify's plugin types take the options, server, type provider and logger types.
  const onHttps: FastifyPluginAsync<{ strict: boolean }, https.Server> = async (instance, opts) => {
    typeOf(instance.server).is<https.Server>()
    typeOf(opts.strict).is<boolean>()
  }
  void onHttps
  const options: FastifyPluginOptions = { anything: 1 }
  void options
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
