// register() at the Fastify 5 level: a plugin alone only when its options may be left out, a wrong options object
// reported at the call, an inline plugin's instance of the default type, and plugins typed for fastify 5 itself.
import type { Http2Server } from 'node:http2'
import fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback } from 'fastify'
import type { FastifyPluginCallback as RealFastifyPluginCallback } from 'real-fastify'
import { typeOf } from '../helpers.js'

interface CacheOptions {
  ttl: number
  namespace?: string
}

const needsOptions: FastifyPluginAsync<CacheOptions> = async () => {}
const needsOptionsCallback: FastifyPluginCallback<CacheOptions, Http2Server> = (_instance, _opts, done) => done()
const optionalOptions: FastifyPluginAsync<{ namespace?: string }> = async () => {}
const noOptions: FastifyPluginCallback = (_instance, _opts, done) => done()

export async function pluginsWithRequiredOptions (app: FastifyInstance): Promise<void> {
  // @ts-expect-error `ttl` is required, so the options are too
  app.register(needsOptions)
  // @ts-expect-error the same for a callback plugin of another server type
  app.register(needsOptionsCallback)
  app.register(needsOptions, { ttl: 60 })
  app.register(needsOptionsCallback, { ttl: 60, prefix: '/cache' })
  app.register(needsOptions, (parent) => ({ ttl: parent.prefix.length }))
  app.register(optionalOptions)
  app.register(noOptions)
  app.register(noOptions, { prefix: '/v1', logLevel: 'debug' })
  await app.register(Promise.resolve({ default: optionalOptions }))
  // @ts-expect-error a module's plugin with a required option needs its options as well
  app.register(Promise.resolve({ default: needsOptions }))
  app.register(Promise.resolve({ default: needsOptions }), { ttl: 1 })
}

export function wrongOptionsAreReportedAtTheCall (app: FastifyInstance): void {
  const cache: FastifyPluginCallback<CacheOptions> = (_instance, _opts, done) => done()
  // With three candidates that fail at different arguments, TypeScript reports "No overload matches this call" on
  // `register` (as Fastify 5 does), where a directive above the call finds it; with a fourth it reported the last
  // one's error, at the property.
  // @ts-expect-error No overload matches this call
  app.register(cache, {
    ttl: 60,
    unknownOption: true
  })
  // @ts-expect-error No overload matches this call
  app.register(cache, {
    ttl: 'sixty'
  })
}

export function inlinePluginInstance (): void {
  const app = fastify().withTypeProvider<{ schema: unknown, validator: 'validated', serializer: 'serialized' }>()
  // As in Fastify 5, an inline plugin's instance is the default `FastifyInstance`, whatever the parent's provider.
  app.register(async (instance) => {
    typeOf(instance).is<FastifyInstance>()
  })
  app.register((instance, opts, done) => {
    typeOf(instance).is<FastifyInstance>()
    typeOf(opts).is<{ flag: boolean }>()
    done()
  }, { flag: true })
}

export function pluginsTypedForFastify (app: FastifyInstance): void {
  // A plugin typed with fastify 5's own types registers, its options checked, also when left out.
  const fastifyTyped: RealFastifyPluginCallback<{ secret: string }> = (_instance, _opts, done) => done()
  const fastifyTypedOptional: RealFastifyPluginCallback<{ secret?: string }> = (_instance, _opts, done) => done()
  app.register(fastifyTyped, { secret: 's' })
  // @ts-expect-error No overload matches this call
  app.register(fastifyTyped, { secret: 1 })
  // @ts-expect-error `secret` is required
  app.register(fastifyTyped)
  app.register(fastifyTypedOptional)
}
