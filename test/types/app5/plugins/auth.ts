// Sign-in with @fastify/cookie 11 and @fastify/jwt 10, typed through their augmentations of 'fastify' and of
// '@fastify/jwt' (FastifyJWT: what a token carries and what `request.user` is).
import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest } from 'fastify'

export type Role = 'admin' | 'reader'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string, role: Role }
    user: { sub: string, role: Role, iat: number }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate (request: FastifyRequest, reply: FastifyReply): Promise<void>
  }
}

export default fp(async (app) => {
  await app.register(cookie, { secret: 'a cookie secret of the right length' })
  await app.register(jwt, { secret: 'a signing secret', cookie: { cookieName: 'token', signed: true } })
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await request.jwtVerify()
    } catch (err) {
      await reply.code(401).send({ error: 'unauthorised', message: (err as Error).message })
    }
  })
}, { name: 'auth', fastify: '5.x', dependencies: ['clock'] })
