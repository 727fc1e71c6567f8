// The README's example, kept compiling: if this file breaks, the README is wrong.
import enclave from '../../src/index'

export async function readmeExample (): Promise<void> {
  const app = enclave({ logger: true })

  app.decorateRequest('answer', 42)

  app.register(async function api (child) {
    child.addHook('onRequest', async (request) => { request.log.info('inside /api') })

    child.post('/users', {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 50 } } },
        response: { 201: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
      }
    }, async (request, reply) => {
      reply.code(201)
      return { id: 1, name: request.body.name, password: 'never sent: not in the response schema' }
    })
  }, { prefix: '/api' })

  await app.listen({ port: 3000 })
}
