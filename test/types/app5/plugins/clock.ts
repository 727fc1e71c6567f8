// A typed plugin wrapped with fastify-plugin 5: its decorator reaches the application that registers it, and the
// instance type of `declare module 'fastify'` tells every route about it.
import fp from 'fastify-plugin'
import type { FastifyPluginAsync } from 'fastify'

export interface Clock {
  now (): number
  since (start: number): number
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock
  }
  interface FastifyRequest {
    startedAt: number
  }
}

export interface ClockOptions {
  /** Where time starts, for tests. */
  origin?: number
}

const clock: FastifyPluginAsync<ClockOptions> = async (app, options) => {
  const origin = options.origin ?? 0
  app.decorate('clock', {
    now: () => Date.now() - origin,
    since: (start: number) => Date.now() - origin - start
  })
  app.decorateRequest('startedAt', 0)
  app.addHook('onRequest', async (request) => {
    request.startedAt = app.clock.now()
  })
}

export default fp(clock, { name: 'clock', fastify: '5.x' })
