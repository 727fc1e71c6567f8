// A CommonJS module of the same package (.cts): under NodeNext, `import x = require()` and the default import
// both get the factory, and the decorator declared in app.ts is there too.
import Fastify = require('fastify')
import fastifyDefault, { fastify, type FastifyInstance } from 'fastify'

export const apps: FastifyInstance[] = [Fastify(), Fastify.fastify(), fastifyDefault({ logger: false }), fastify()]
export const now: number = apps[0].clock.now()
export const codes: string = Fastify.errorCodes.FST_ERR_NOT_FOUND.name
