/**
 * The module of each API level, made once per process: every entry point (the main one, `./fastify4`,
 * `./fastify5`) hands out one of these, so all of them share one copy of Enclave (an application made by one copy
 * is opaque to another, since internals are keyed by symbols). The build bundles this file alone as the core.
 */
import { FASTIFY_4, FASTIFY_5 } from './core/api-level'
import { fastifyModule } from './app/fastify-module'

export const fastify4 = fastifyModule(FASTIFY_4)
export const fastify5 = fastifyModule(FASTIFY_5)
