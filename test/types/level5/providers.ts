// The JSON Schema to TS type provider's Fastify 5 release (@fastify/type-provider-json-schema-to-ts 5) on the
// Fastify 5 level: its provider on an instance, a plugin typed with it, and its options. (TypeBox's Fastify 5
// provider is in ../app5.)
import type { FastifyPluginAsyncJsonSchemaToTs, JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import Fastify, { type FastifyInstance } from 'fastify'
import { typeOf } from '../helpers.js'

const user = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id', 'name']
} as const

export function onAnInstance (): FastifyInstance {
  const app = Fastify().withTypeProvider<JsonSchemaToTsProvider>()
  app.post('/users/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const,
      querystring: { type: 'object', properties: { verbose: { type: 'boolean' } } } as const,
      body: user,
      response: { 201: user, 404: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const }
    }
  }, async (request, reply) => {
    typeOf(request.params.id).is<number>()
    typeOf(request.query.verbose).is<boolean | undefined>()
    typeOf(request.body).is<{ [x: string]: unknown, id: number, name: string, tags?: string[] }>()
    if (request.params.id === 0) return reply.code(404).send({ message: 'no such user' })
    // @ts-expect-error the 404 response has no `id`
    reply.code(404).send({ id: 1 })
    reply.code(201)
    return { id: request.params.id, name: request.body.name }
  })
  // @ts-expect-error a 201 payload without the required `name`
  app.get('/users', { schema: { response: { 201: user } } }, async () => ({ id: 1 }))
  return app
}

// A plugin typed with the provider gets its inference in its routes.
export const usersPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get('/users/:name', {
    schema: { params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const }
  }, async (request) => {
    typeOf(request.params.name).is<string>()
    return request.params.name
  })
}

// The provider's options reach the validator's types: here `deserialize` types a date-time string as a Date.
type WithDates = JsonSchemaToTsProvider<{
  ValidatorSchemaOptions: { deserialize: [{ pattern: { type: 'string', format: 'date-time' }, output: Date }] }
}>

export function withOptions (app: FastifyInstance): void {
  app.withTypeProvider<WithDates>().post('/events', {
    schema: { body: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] } as const }
  }, async (request) => {
    typeOf(request.body.at).is<Date>()
  })
  void app.register(usersPlugin, { prefix: '/v2' })
}
