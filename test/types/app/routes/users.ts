// Routes typed by the TypeBox type provider, using the decorators of @fastify/cookie, @fastify/jwt and
// @fastify/sensible, and the app's own `db` decorator (plugins/db.ts).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { id: number }
    user: { id: number, name: string }
  }
}

const User = Type.Object({ id: Type.Integer(), name: Type.String() })
const Problem = Type.Object({ message: Type.String() })

export async function authenticate (request: FastifyRequest, reply: FastifyReply): Promise<void> {
  try {
    await request.jwtVerify()
  } catch (err) {
    reply.send(err)
  }
}

const users: FastifyPluginAsyncTypebox<{ cookieName: string }> = async (fastify, opts) => {
  fastify.post('/login', {
    schema: { body: Type.Object({ name: Type.String({ minLength: 1 }) }), response: { 200: Type.Object({ token: Type.String() }) } },
    config: { public: true }
  }, async (request, reply) => {
    const user = await fastify.db.insertUser(request.body.name)
    const token = fastify.jwt.sign({ id: user.id })
    reply.setCookie(opts.cookieName, token, { httpOnly: true, sameSite: 'strict', path: '/' })
    return { token }
  })

  fastify.get('/users/:id', {
    schema: {
      params: Type.Object({ id: Type.Integer() }),
      querystring: Type.Object({ verbose: Type.Optional(Type.Boolean()) }),
      response: { 200: User, 404: Problem }
    },
    onRequest: [authenticate]
  }, async (request, reply) => {
    const id: number = request.params.id
    const verbose: boolean | undefined = request.query.verbose
    request.log.info({ id, verbose, caller: request.user.name, session: request.cookies[opts.cookieName] }, 'lookup')
    const user = await fastify.db.findUser(id)
    if (user === undefined) return reply.notFound(`user ${id}`)
    return user
  })

  fastify.get('/me', { onRequest: [authenticate] }, async (request) => {
    const [err, user] = await fastify.to(fastify.db.findUser(request.user.id))
    if (err !== null) throw fastify.httpErrors.internalServerError()
    if (user === undefined) throw fastify.httpErrors.notFound('no such user')
    return { id: user.id, name: user.name, since: Date.now() - request.startedAt }
  })

  fastify.delete('/session', async (_request, reply) => {
    reply.clearCookie(opts.cookieName).code(204).send()
  })
}

export default users
