// A route answering HTTP and WebSocket on one URL through @fastify/websocket's `wsHandler`, a member the plugin adds
// to `RouteOptions` by declaration merging: route() must take it, and type its socket and request.
import type { FastifyPluginAsync, FastifyRequest, RouteGenericInterface } from 'fastify'
import websocket, { type WebSocket } from '@fastify/websocket'
import { typeOf } from '../../helpers'

const live: FastifyPluginAsync = async (fastify) => {
  await fastify.register(websocket)

  fastify.route({
    method: 'GET',
    url: '/live',
    handler: async () => ({ hint: 'connect with a WebSocket' }),
    wsHandler: (socket, request) => {
      typeOf(socket).is<WebSocket>()
      typeOf(request).is<FastifyRequest<RouteGenericInterface>>()
      socket.send(JSON.stringify({ hello: request.ip }))
    }
  })

  fastify.route<{ Params: { room: string } }>({
    method: 'GET',
    url: '/live/:room',
    handler: async (request) => ({ room: request.params.room }),
    wsHandler: (socket, request) => {
      typeOf(request.params).is<{ room: string }>()
      socket.on('message', (message) => { socket.send(`${request.params.room}: ${message.toString()}`) })
    }
  })
}

export default live
