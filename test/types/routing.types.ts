// The HTTP-method API and routerOptions (Fastify 5's, at both levels) at the type level.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Config as FindMyWayConfig, HTTPVersion } from 'find-my-way'
import type { EnclaveFactory, FastifyRouterOptions, HTTPMethods } from '../../src/types'
import { typeOf } from './helpers'

declare const enclave: EnclaveFactory

export function httpMethodApi (): void {
  const app = enclave()
  typeOf(app.supportedMethods).is<string[]>()
  // chained like the other instance methods; the added method's shorthand is a decorator as far as types go
  app.addHttpMethod('MKCOL', { hasBody: true }).addHttpMethod('COPY').addHttpMethod('GET', { hasBody: true, overrideExisting: true })
  app.query('/search', async (request) => request.body)
  app.trace('/', async () => 'trace')
  app.route({ method: 'QUERY', url: '/q', handler: async () => 'q' })
  // @ts-expect-error: the options are { hasBody, overrideExisting }
  app.addHttpMethod('MKCOL', { body: true })
  // At the Fastify 4 level, as in Fastify 4, a method is one of the known names (any name at the Fastify 5 level:
  // test/types/level5), and routeOptions.method a string.
  // @ts-expect-error: not a known method
  app.route({ method: 'CONNECT', url: '/c', handler: async () => 'c' })
  app.get('/method', async (request) => {
    typeOf(request.routeOptions.method).is<string>()
  })
  const known: HTTPMethods = 'propfind'
  void known
}

export function routerOptions (): void {
  enclave({
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 200,
      compile: true,
      querystringParser: (text) => ({ text }),
      defaultRoute: (req: IncomingMessage, res: ServerResponse) => { res.end(req.url) },
      onBadUrl: (path, _req, res) => { res.end(path) },
      onMaxParamLength: (path, _req, res) => { res.end(path) },
      buildPrettyMeta: (route) => ({ path: route.path })
    }
  })
  const given: FastifyRouterOptions = { caseSensitive: false }
  enclave({ routerOptions: given })
  // @ts-expect-error: maxParamLength is a number
  enclave({ routerOptions: { maxParamLength: 'long' } })
  // The options are find-my-way's, so they can be handed to it.
  const forFindMyWay: FindMyWayConfig<HTTPVersion.V1> = given
  void forFindMyWay
}
