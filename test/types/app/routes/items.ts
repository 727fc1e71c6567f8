// Routes typed by the json-schema-to-ts type provider, given to withTypeProvider() on the plugin's instance.
import type { FastifyPluginCallback } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'

const item = {
  type: 'object',
  properties: { sku: { type: 'string' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['sku', 'price'],
  additionalProperties: false
} as const

const items: FastifyPluginCallback = (instance, _opts, done) => {
  const fastify = instance.withTypeProvider<JsonSchemaToTsProvider>()
  const stock = new Map<string, { sku: string, price: number, tags?: string[] }>()

  fastify.put('/items/:sku', { schema: { params: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } as const, body: item } }, async (request, reply) => {
    const price: number = request.body.price
    stock.set(request.params.sku, { ...request.body, price })
    reply.code(201)
    return { stored: request.body.sku }
  })

  fastify.route({
    method: 'GET',
    url: '/items',
    schema: { querystring: { type: 'object', properties: { tag: { type: 'string' } } } as const, response: { 200: { type: 'array', items: item } as const } },
    handler: async (request) => [...stock.values()].filter((entry) => request.query.tag === undefined || entry.tags?.includes(request.query.tag))
  })
  done()
}

export default items
