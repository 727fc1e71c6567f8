// What a typed handler may return, and the errors hooks and handlers receive, at the Fastify 5 level: Fastify 5's
// return type (a payload, nothing, or a promise of these; a reply map itself beside its payloads), and
// @fastify/error 4's FastifyError, the one a Fastify 5 program imports (here `@fastify/error` is another installed
// copy of 4.3.0, and TypeScript takes one package for both).
import type { FastifyError } from '@fastify/error'
import { type FastifyError as EnclaveFastifyError, type FastifyInstance } from 'fastify'
import { typeOf } from '../helpers.js'

const item = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const

export function handlerReturns (app: FastifyInstance): void {
  // An async handler may return the reply it sent with: awaiting a reply yields nothing.
  app.get('/async', { schema: { response: { 200: item } } }, async (_request, reply) => {
    if (Math.random() > 0.5) return reply.code(200).send({ id: 1 })
    return { id: 2 }
  })
  // A synchronous one returns its payload or nothing, as in Fastify 5.
  app.get('/sync', { schema: { response: { 200: item } } }, (_request, reply) => {
    reply.send({ id: 1 })
  })
  // @ts-expect-error Fastify 5 takes no reply as a typed synchronous handler's result
  app.get('/sync-reply', { schema: { response: { 200: item } } }, (_request, reply) => reply.send({ id: 1 }))
  // @ts-expect-error a payload outside the response schemas
  app.get('/wrong', { schema: { response: { 200: item } } }, async () => false)
  // A route generic's reply map may be returned whole, as Fastify 5's types allow.
  app.get<{ Reply: { 200: { id: number }, 404: { error: string } } }>('/map', async () => ({ 200: { id: 1 }, 404: { error: 'none' } }))
  app.get<{ Reply: { 200: { id: number }, 404: { error: string } } }>('/payload', async () => ({ error: 'none' }))
}

export function errors (app: FastifyInstance, programsOwn: FastifyError): void {
  // the program's own @fastify/error 4 has the members Enclave adds (it is the copy Enclave augments)
  void programsOwn.validation?.[0]?.instancePath
  void programsOwn.validationContext
  typeOf<EnclaveFastifyError>(programsOwn).is<FastifyError>()
  app.addHook('onError', async (_request, _reply, error) => {
    typeOf(error).is<FastifyError>()
    // the members Enclave adds to it, as Fastify 5 adds them to its copy
    void error.validation?.[0]?.message
    void error.validationContext
  })
  app.setErrorHandler<FastifyError>(async (error) => {
    typeOf(error).is<FastifyError>()
  })
}

export function sendArguments (app: FastifyInstance): void {
  // send()'s payload is required when the reply type declares one, optional when it declares nothing to send
  app.get<{ Reply: { 200: { id: number }, 204: undefined, 205: void, 206: never } }>('/send', async (_request, reply) => {
    reply.code(204).send()
    reply.code(205).send()
    reply.code(206).send()
    // @ts-expect-error a declared payload must be sent
    reply.code(200).send()
    reply.code(200).send({ id: 1 })
  })
  // a reply type that includes undefined among others still needs its payload, as in Fastify 5
  app.get<{ Reply: { id: number } | undefined }>('/maybe', async (_request, reply) => {
    // @ts-expect-error the reply type is not only undefined
    reply.send()
    reply.send(undefined)
  })
  // without a reply type, anything or nothing
  app.get('/untyped', async (_request, reply) => {
    reply.send()
  })
}
