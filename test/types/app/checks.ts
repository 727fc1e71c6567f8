// What the application relies on, asserted: the plugins' augmentations reach Enclave's types through 'fastify' and
// 'enclave-http' alike, the type providers type the routes exactly, Enclave's own inference is the default provider, and
// the raw server, request and reply types follow the factory options.
import * as http from 'node:http'
import * as https from 'node:https'
import * as http2 from 'node:http2'
import Fastify, {
  type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest, type RawServerDefault
} from 'fastify'
import enclave, { type EnclaveInstance, type EnclaveRequest } from 'enclave-http'
import type { JWT } from '@fastify/jwt'
import cookie from '@fastify/cookie'
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import db, { type Db } from './plugins/db'
import { typeOf } from '../helpers'

declare module 'enclave-http' {
  interface EnclaveInstance {
    viaEnclave: () => string
  }
}

declare const app: FastifyInstance
declare const request: FastifyRequest
declare const reply: FastifyReply

export function augmentationsMerge (): void {
  // The app's own (plugins/db.ts) and the plugins' declarations, merged into the one interface under both names.
  typeOf(app.db).is<Db>()
  typeOf(app.jwt).is<JWT>()
  typeOf(request.cookies).is<{ [cookieName: string]: string | undefined }>()
  typeOf(request.user).is<{ id: number, name: string }>()
  typeOf(request.startedAt).is<number>()
  typeOf(app.viaEnclave).is<() => string>()
  const same: EnclaveInstance = app
  const request2: EnclaveRequest = request
  void same; void request2
  reply.notFound().setCookie('a', 'b')
  app.httpErrors.badRequest('no')
  // @ts-expect-error @fastify/jwt's sign() takes the declared payload type
  app.jwt.sign({ id: 'one' })
  // @ts-expect-error not declared by any plugin
  void app.redis
}

export async function pluginOptionsChecked (): Promise<void> {
  const root = Fastify()
  await root.register(db, { url: 'memory://' })
  // @ts-expect-error fastify-plugin keeps the plugin's options type: url is required
  await root.register(db, { poolSize: 1 })
  // @ts-expect-error @fastify/cookie's parseOptions.sameSite is a fixed set of values
  await root.register(cookie, { parseOptions: { sameSite: 'sometimes' } })
}

export function fastifyGenericParameters (): void {
  // Fastify's type parameter lists, as plugins' and providers' declarations spell them.
  const typed: FastifyInstance<http.Server, http.IncomingMessage, http.ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider> =
    Fastify().withTypeProvider<TypeBoxTypeProvider>()
  const plugin: FastifyPluginAsync<{ prefix: string }, http.Server, TypeBoxTypeProvider> = async (instance, opts) => {
    instance.get(`${opts.prefix}/n`, { schema: { querystring: Type.Object({ n: Type.Number() }) } }, async (request) => {
      typeOf(request.query.n).is<number>()
    })
  }
  typed.register(plugin, { prefix: '/p' })
}

export function typeProviders (): void {
  const typebox = Fastify().withTypeProvider<TypeBoxTypeProvider>()
  typebox.post('/t', { schema: { body: Type.Object({ a: Type.String(), b: Type.Optional(Type.Array(Type.Number())) }), response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async (request) => {
    typeOf(request.body).is<{ a: string, b?: number[] }>()
    return { ok: true }
  })
  // @ts-expect-error the response schema types the return value under TypeBox too
  typebox.get('/t', { schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async () => ({ ok: 'yes' }))

  const jstt = Fastify().withTypeProvider<JsonSchemaToTsProvider>()
  jstt.get('/j', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const } }, async (request) => {
    typeOf(request.query).is<{ [x: string]: unknown, n: number }>()
  })

  // No provider: Enclave's own inference, inline schema, no `as const`.
  enclave().get('/native', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } }, async (request) => {
    typeOf(request.query).is<{ n: number }>()
  })
}

export async function rawTypesFollowTheOptions (): Promise<void> {
  const plain = Fastify()
  typeOf(plain.server).is<RawServerDefault>()
  plain.get('/', async (request, reply) => {
    typeOf(request.raw).is<http.IncomingMessage>()
    typeOf(reply.raw).is<http.ServerResponse>()
  })
  const secure = Fastify({ https: { key: 'k', cert: 'c' } })
  typeOf(secure.server).is<https.Server>()
  const h2 = Fastify({ http2: true })
  typeOf(h2.server).is<http2.Http2Server>()
  h2.get('/', async (request, reply) => {
    typeOf(request.raw).is<http2.Http2ServerRequest>()
    typeOf(reply.raw).is<http2.Http2ServerResponse>()
  })
  const h2s = Fastify({ http2: true, https: { allowHTTP1: true, key: 'k', cert: 'c' } })
  typeOf(h2s.server).is<http2.Http2SecureServer>()
  h2s.addHook('onRequest', async (request, reply) => {
    typeOf(request.raw).is<http2.Http2ServerRequest>()
    typeOf(reply.raw).is<http2.Http2ServerResponse>()
  })

  // The deprecated variadic listen() of Fastify 4.
  plain.listen(3000)
  plain.listen(3000, '0.0.0.0')
  plain.listen(3000, '0.0.0.0', (err, address) => { void err; void address })
  const address: string = await plain.listen({ port: 3000 })
  void address
}
