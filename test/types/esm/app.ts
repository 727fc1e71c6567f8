// A Fastify 4 application written as an ES module: the default import is the factory, named imports are the
// factory and the types, and `declare module 'fastify'` adds a decorator that routes and plugins then see.
import Fastify, { fastify, type EnclaveFactory, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify'
import * as framework from 'fastify'
import { clock } from './clock.js'

declare module 'fastify' {
  interface FastifyInstance {
    clock: { now(): number }
  }
  interface FastifyRequest {
    startedAt: number
  }
}

const routes: FastifyPluginAsync<{ greeting: string }> = async (app, options) => {
  app.get('/hello/:name', {
    schema: {
      params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      response: { 200: { type: 'object', properties: { message: { type: 'string' }, at: { type: 'number' } }, required: ['message'] } }
    }
  }, async (request) => {
    const name: string = request.params.name
    // @ts-expect-error the params schema has no `id`
    void request.params.id
    return { message: `${options.greeting}, ${name}`, at: app.clock.now() - request.startedAt }
  })
}

export async function build (): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  app.decorate('clock', clock)
  app.decorateRequest('startedAt', 0)
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    request.startedAt = app.clock.now()
  })
  await app.register(routes, { greeting: 'hello' })
  // @ts-expect-error the plugin's options are checked
  await app.register(routes, { greeting: 1 })
  return app
}

// the named export and the namespace's default are the same factory
const second: FastifyInstance = fastify()
const third: FastifyInstance = framework.default({ ignoreTrailingSlash: true })
export const instances = [second, third]

// declarations/enclave.d.ts repeats EnclaveFactory's overloads on the exported function: they must still match
export const asFactory: EnclaveFactory = Fastify
