// The instance at the Fastify 5 level: declared decorators refuse `null`, any method name, response schemas limiting
// `code()`, initialConfig with routerOptions.
import fastify, { type FastifyInstance, type FastifyRequest, type HTTPMethods, type FastifyRouterOptions, type RawServerDefault } from 'fastify'
import { typeOf } from '../helpers.js'

declare module 'fastify' {
  interface FastifyInstance {
    level5Flag: boolean
  }
  interface FastifyRequest {
    level5User: { id: number }
  }
}

export function declaredDecoratorsRefuseNull (app: FastifyInstance): void {
  app.decorate('level5Flag', false)
  // @ts-expect-error a declared decorator gets a value of its type
  app.decorate('level5Flag', null)
  // @ts-expect-error the same for a request decorator
  app.decorateRequest('level5User', null)
  // `null` with dependencies, no value at all, or an undeclared name are placeholders.
  app.decorateRequest('level5User', null, ['level5Flag'])
  app.decorateRequest('level5User')
  app.decorateReply('level5Undeclared', null)
}

export function methods (app: FastifyInstance): void {
  // Any method name (one added with addHttpMethod()), in one or a list.
  app.route({ method: 'CONNECT', url: '/', handler: async () => 'ok' })
  app.route({ method: ['GET', 'MKCALENDAR', 'BREW'], url: '/list', handler: async () => 'ok' })
  // @ts-expect-error still a string or a list of strings
  app.route({ method: 42, url: '/', handler: async () => 'ok' })
  app.get('/', async (request) => {
    typeOf(request.routeOptions.method).is<HTTPMethods | HTTPMethods[]>()
  })
}

export function codesOfTheResponseSchema (app: FastifyInstance): void {
  app.get('/', { schema: { response: { 200: { type: 'string' }, 500: { type: 'string' } } } }, async (_request, reply) => {
    reply.code(500)
    // @ts-expect-error the response schema lists 200 and 500 only
    reply.code(201)
    return 'ok'
  })
  // A range or `default` key leaves every code open.
  app.get('/range', { schema: { response: { 200: { type: 'string' }, '4xx': { type: 'string' } } } }, async (_request, reply) => {
    reply.code(201)
    return 'ok'
  })
}

export function initialConfig (): void {
  const config = fastify().initialConfig
  typeOf(config.routerOptions).is<FastifyRouterOptions<RawServerDefault> | undefined>()
  typeOf(config.disableRequestLogging).is<boolean | ((req: FastifyRequest) => boolean) | undefined>()
}
