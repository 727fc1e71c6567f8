// A Fastify 5 application: the factory with a logger instance, a typed plugin with fastify-plugin 5, decorators
// declared by module augmentation, TypeBox 1 schemas through the type provider, @fastify/cookie 11 and
// @fastify/jwt 10. Each `@ts-expect-error` is a mistake the types must catch.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { pino } from 'pino'
import { Type, type FastifyPluginAsyncTypebox, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import clock from './plugins/clock.js'
import auth, { type Role } from './plugins/auth.js'

const Note = Type.Object({ id: Type.Integer(), title: Type.String(), tags: Type.Array(Type.String()) })
const NewNote = Type.Object({ title: Type.String({ minLength: 1 }), tags: Type.Optional(Type.Array(Type.String())) })
const Problem = Type.Object({ error: Type.String(), message: Type.String() })

const notes: FastifyPluginAsyncTypebox = async (app) => {
  const stored = new Map<number, { id: number, title: string, tags: string[] }>()

  app.post('/notes', {
    onRequest: [app.authenticate],
    schema: { body: NewNote, response: { 201: Note, 403: Problem } }
  }, async (request, reply) => {
    const title: string = request.body.title
    const tags: string[] | undefined = request.body.tags
    // @ts-expect-error the body schema has no `owner`
    void request.body.owner
    const role: Role = request.user.role
    if (role !== 'admin') return reply.code(403).send({ error: 'forbidden', message: `${request.user.sub} may only read` })
    const note = { id: stored.size + 1, title, tags: tags ?? [] }
    stored.set(note.id, note)
    return reply.code(201).send(note)
  })

  app.get('/notes/:id', {
    schema: { params: Type.Object({ id: Type.Integer() }), querystring: Type.Object({ fields: Type.Optional(Type.String()) }) }
  }, async (request, reply) => {
    const id: number = request.params.id
    // @ts-expect-error a numeric parameter is not a string
    const asText: string = request.params.id
    void asText
    const fields: string | undefined = request.query.fields
    void fields
    const note = stored.get(id)
    if (note === undefined) return reply.callNotFound()
    return note
  })

  app.get('/elsewhere', async (_request, reply) => {
    // Fastify 5's order: the URL, then the status code
    return reply.redirect('/notes/1', 301)
  })
}

export async function build (options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ ...options, loggerInstance: pino({ level: 'silent' }) }).withTypeProvider<TypeBoxTypeProvider>()
  await app.register(clock, { origin: 0 })
  // @ts-expect-error the plugin's options are checked
  await app.register(clock, { origin: 'yesterday' })
  await app.register(auth)

  app.post('/login', {
    schema: { body: Type.Object({ user: Type.String(), role: Type.Union([Type.Literal('admin'), Type.Literal('reader')]) }) }
  }, async (request, reply) => {
    const token = app.jwt.sign({ sub: request.body.user, role: request.body.role })
    // @ts-expect-error the token's payload is FastifyJWT's: `role` is one of the roles
    app.jwt.sign({ sub: request.body.user, role: 'owner' })
    return reply.setCookie('token', token, { httpOnly: true, signed: true, path: '/' }).send({ at: app.clock.now() })
  })

  app.get('/whoami', { onRequest: [app.authenticate] }, async (request) => {
    const cookie = request.unsignCookie(request.cookies.token ?? '')
    return {
      user: request.user.sub,
      validCookie: cookie.valid,
      host: request.host,
      port: request.port,
      took: app.clock.since(request.startedAt)
    }
  })

  await app.register(notes, { prefix: '/v1' })
  return app
}
