// Routes at the Fastify 5 level: a handler in an object typed `RouteOptions`.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { typeOf } from '../helpers.js'

export function routeOptionsHandler (app: FastifyInstance): void {
  // The handler of an object typed `RouteOptions` gets the default request and reply types themselves.
  const options: RouteOptions = {
    method: 'GET',
    url: '/',
    handler: (request, reply) => {
      typeOf(request).is<FastifyRequest>()
      typeOf(reply).is<FastifyReply>()
    }
  }
  app.route(options)
}
