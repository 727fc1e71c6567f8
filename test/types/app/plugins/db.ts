// A decorator plugin as Fastify's docs write one: fastify-plugin, typed options, and the decorator declared by
// augmenting the 'fastify' module.
import fp from 'fastify-plugin'
import type { FastifyPluginAsync } from 'fastify'

export interface User {
  id: number
  name: string
}

export interface Db {
  findUser(id: number): Promise<User | undefined>
  insertUser(name: string): Promise<User>
}

export interface DbOptions {
  url: string
  poolSize?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
  }
  interface FastifyRequest {
    startedAt: number
  }
  interface FastifyContextConfig {
    public?: boolean
  }
}

const db: FastifyPluginAsync<DbOptions> = async (fastify, opts) => {
  const users = new Map<number, User>()
  fastify.log.info({ url: opts.url, poolSize: opts.poolSize ?? 1 }, 'connecting')
  fastify.decorate('db', {
    async findUser (id: number) { return users.get(id) },
    async insertUser (name: string) {
      const user = { id: users.size + 1, name }
      users.set(user.id, user)
      return user
    }
  })
  fastify.decorateRequest('startedAt', 0)
  fastify.addHook('onRequest', async (request) => {
    request.startedAt = Date.now()
  })
  fastify.addHook('onClose', async (instance) => {
    instance.log.info('closing the pool')
  })
}

export default fp(db, { name: 'db', fastify: '4.x' })
