// The application: the factory with options, real typed plugins, the app's own plugins, hooks, an error handler and
// listen(). Written against Fastify 4's types; compiled against Enclave's (see tsconfig.json).
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import cookie from '@fastify/cookie'
import jwt from '@fastify/jwt'
import sensible from '@fastify/sensible'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import db from './plugins/db'
import users from './routes/users'
import items from './routes/items'
import live from './routes/live'

export async function build (options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'warn' }, trustProxy: true, ...options }).withTypeProvider<TypeBoxTypeProvider>()

  await app.register(sensible)
  await app.register(cookie, { secret: 'a cookie secret', parseOptions: { sameSite: 'lax' } })
  await app.register(jwt, { secret: 'a jwt secret', cookie: { cookieName: 'session', signed: false } })
  await app.register(db, { url: 'memory://', poolSize: 2 })
  app.register(users, { prefix: '/api', cookieName: 'session' })
  app.register(items, { prefix: '/api' })
  app.register(live)

  app.addHook('preHandler', (request, reply, done) => {
    if (request.routeOptions.config.public === true) reply.header('cache-control', 'no-store')
    done()
  })
  app.setErrorHandler((error: FastifyError, request, reply) => {
    request.log.error({ err: error, elapsed: Date.now() - request.startedAt })
    reply.code(error.statusCode ?? 500).send({ message: error.message })
  })
  app.get('/health', async () => ({ ok: true, db: typeof app.db.findUser === 'function' }))
  return app
}

export async function start (): Promise<void> {
  const app = await build()
  try {
    await app.listen({ port: 3000, host: '0.0.0.0' })
  } catch (err) {
    app.log.error(err)
    process.exit(1)
  }
}
