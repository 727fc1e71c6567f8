// Route typing: request parts inferred from inline schemas, handler results and reply.send() checked against
// schema.response, Fastify-style explicit generics, $ref through addSchema(), and unknown without schemas.
import type {
  EnclaveInstance, EnclavePluginAsync, EnclaveTypeProvider, RawServerDefault, EnclaveReply, EnclaveRequest, FastifyRequest, preHandlerHookHandler, RouteHandler,
  RouteShorthandOptions
} from '../../src/types'
import { createReadStream } from 'node:fs'
import { ReadableStream } from 'node:stream/web'
import { assert, typeOf, type Equal } from './helpers'

declare const app: EnclaveInstance

// Route declarations live in functions that are never called: this file is only type-checked.
export function inferredFromInlineSchemas (): void {
  app.post('/users/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      querystring: { type: 'object', properties: { notify: { type: 'boolean' }, page: { type: 'integer', default: 1 } } },
      headers: { type: 'object', properties: { 'x-api-key': { type: 'string' } }, required: ['x-api-key'] },
      body: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          role: { type: 'string', enum: ['admin', 'member'] },
          nickname: { type: ['string', 'null'] },
          tags: { type: 'array', items: { type: 'string' } }
        },
        required: ['name', 'role'],
        additionalProperties: false
      }
    }
  }, async (request) => {
    typeOf(request.params).is<{ id: number }>()
    typeOf(request.query).is<{ page: number, notify?: boolean }>()
    typeOf(request.body).is<{ name: string, role: 'admin' | 'member', nickname?: string | null, tags?: string[] }>()
    typeOf(request.headers['x-api-key']).is<string>()
    // Node's own headers are still there.
    typeOf(request.headers['content-type']).is<string | undefined>()

    // @ts-expect-error wrong property: not in the body schema
    void request.body.email
    // @ts-expect-error wrong property type: name is a string
    const n: number = request.body.name
    // @ts-expect-error role is one of the enum values
    request.body.role = 'owner'
    void n
  })

  // The same schemas written `as const` outside the call.
  const schema = {
    body: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    params: { postId: { type: 'string' } }
  } as const
  app.put('/posts/:postId', { schema }, async (request) => {
    typeOf(request.body).is<{ title: string }>()
    typeOf(request.params).is<{ postId?: string }>()
  })
}

export function missingRequiredIsOptional (): void {
  app.post('/items', {
    schema: { body: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } }, required: ['sku'] } }
  }, async (request) => {
    // @ts-expect-error qty is not required, so it may be undefined
    const qty: number = request.body.qty
    const sku: string = request.body.sku
    void qty; void sku
  })
}

export function unknownWithoutSchema (): void {
  app.get('/raw', async (request, reply) => {
    typeOf(request.body).is<unknown>()
    typeOf(request.query).is<unknown>()
    typeOf(request.params).is<unknown>()
    // @ts-expect-error unknown: must be narrowed before use
    void request.body.anything
    // @ts-expect-error unknown, not any
    void request.query.page
    // Without a response schema anything may be sent or returned.
    reply.send({ whatever: true })
    return 'text'
  })
  // A schema for one part leaves the others unknown.
  app.post('/partial', { schema: { body: { type: 'string' } } }, async (request) => {
    typeOf(request.body).is<string>()
    typeOf(request.params).is<unknown>()
  })
}

const itemResponses = {
  200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] },
  '4xx': { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
  500: { type: 'object', properties: { fatal: { type: 'boolean' } }, required: ['fatal'] }
} as const

export function responsesChecked (): void {
  app.get('/items/:id', { schema: { response: itemResponses } }, async () => {
    return { id: 1, name: 'ok' }
  })
  app.get('/items/:id', { schema: { response: itemResponses } }, async (_request, reply) => {
    return reply.code(404).send({ error: 'not found' })
  })
  // Every declared status code's payload is accepted as a return value.
  app.get('/items/:id', { schema: { response: itemResponses } }, async () => ({ error: 'gone' }))
  // Returning nothing (having sent with reply) is fine.
  app.get('/items/:id', { schema: { response: itemResponses } }, (_request, reply) => {
    reply.send({ id: 1, name: 'ok' })
  })

  // @ts-expect-error wrong response type: id must be an integer
  app.get('/items/:id', { schema: { response: itemResponses } }, async () => ({ id: 'one', name: 'ok' }))
  // @ts-expect-error missing required field in the response
  app.get('/items/:id', { schema: { response: itemResponses } }, async () => ({ id: 1 }))
  app.get('/items/:id', { schema: { response: itemResponses } }, async (_request, reply) => {
    // @ts-expect-error reply.send() is checked too
    reply.send({ id: 1, name: 2 })
    // @ts-expect-error after code(404) only the 4xx payload is accepted
    reply.code(404).send({ id: 1, name: 'ok' })
    reply.code(503).send({ fatal: true }.fatal ? { id: 1, name: 'x' } : { error: 'x' })
    // @ts-expect-error exact codes win over ranges: 500 declares { fatal }
    reply.code(500).send({ error: 'x' })
    reply.code(500).send({ fatal: true })
    reply.status(201).send({ id: 1, name: 'created' })
    // A status code that is not a literal keeps every declared payload.
    const status: number = 400
    reply.code(status).send({ error: 'x' })
  })
}

export function rawPayloadsBesideSchemas (): void {
  // Bytes and streams are sent as they are, never through the schema's serializer: accepted under any response
  // schema, as in a route written for Fastify's default provider (an image documented as a binary string).
  const image = { response: { 200: { type: 'string', format: 'binary' } } } as const
  app.get('/image.png', { schema: image }, async (_request, reply) => {
    reply.type('image/png').send(Buffer.from('89504e47', 'hex'))
  })
  app.get('/report', { schema: { response: itemResponses } }, async () => createReadStream('report.json'))
  app.get('/feed', { schema: { response: itemResponses } }, async (_request, reply) => reply.send(new ReadableStream()))
  app.get('/bytes', { schema: { response: itemResponses } }, async () => new Uint8Array([123, 125]))
  app.get('/image.png', { schema: image }, async (_request, reply) => {
    // @ts-expect-error other values are still checked against the schema
    reply.send({ png: true })
  })
}

export function explicitGenericsLikeFastify (): void {
  interface Query { username: string, password: string }
  interface Headers { 'h-custom': string }
  interface Reply { 200: { success: boolean }, 302: { url: string }, '4xx': { error: string } }
  app.get<{ Querystring: Query, Headers: Headers, Reply: Reply }>('/auth', {
    preValidation: (request, _reply, done) => {
      done(request.query.username !== 'admin' ? new Error('Must be admin') : undefined)
    }
  }, async (request, reply) => {
    typeOf(request.query).is<Query>()
    typeOf(request.headers['h-custom']).is<string>()
    reply.code(200).send({ success: true })
    // @ts-expect-error wrong response type for 200
    reply.code(200).send('uh-oh')
    reply.code(404).send({ error: 'Not found' })
    return { success: true }
  })
  // A plain Reply type (not a map of status codes) applies to every code.
  app.get<{ Reply: { ok: boolean } }>('/plain', async () => ({ ok: true }))
  // @ts-expect-error wrong response type
  app.get<{ Reply: { ok: boolean } }>('/plain', async () => ({ ok: 'yes' }))
  // A handler typed with Fastify's names, declared apart from the route.
  const handler = async (request: FastifyRequest<{ Body: { a: number } }>): Promise<number> => request.body.a
  app.post<{ Body: { a: number } }>('/typed', handler)
}

export const userSchema = {
  $id: 'user',
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id', 'name']
} as const

export function sharedSchemasAndRefs (): void {
  const withUser = app.addSchema({
    $id: 'user',
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
    required: ['id', 'name']
  })
  const withBoth = withUser.addSchema({ $id: 'address', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })

  withBoth.post('/users', {
    schema: {
      body: { $ref: 'user#' },
      querystring: { type: 'object', properties: { city: { $ref: 'address#/properties/city' } } },
      response: { 200: { type: 'array', items: { $ref: 'user#' } } }
    }
  }, async (request) => {
    typeOf(request.body).is<{ id: number, name: string }>()
    typeOf(request.query).is<{ city?: string }>()
    return [request.body]
  })
  // @ts-expect-error the referenced response type is checked
  withBoth.get('/users', { schema: { response: { 200: { $ref: 'user#' } } } }, async () => ({ id: 1 }))

  // Plugins registered on the instance see its shared schemas.
  withBoth.register(async (child) => {
    child.post('/addresses', { schema: { body: { $ref: 'address#' } } }, async (request) => {
      typeOf(request.body).is<{ city: string }>()
    })
  })
  // A plugin can state the shared schemas it relies on through its type provider (the third type parameter).
  const usersPlugin: EnclavePluginAsync<{ limit: number }, RawServerDefault, EnclaveTypeProvider<{ user: typeof userSchema }>> = async (instance, opts) => {
    instance.get('/users', { schema: { response: { 200: { type: 'array', items: { $ref: 'user#' } } } } }, async () => {
      return [{ id: opts.limit, name: 'ada' }]
    })
  }
  withUser.register(usersPlugin, { limit: 10 })

  // getSchema knows the registered schemas.
  assert<Equal<ReturnType<typeof withBoth.getSchema<'address'>>['$id'], 'address'>>()

  // On an instance that does not know the schema, the reference falls back to unknown.
  app.post('/users', { schema: { body: { $ref: 'user#' } } }, async (request) => {
    typeOf(request.body).is<unknown>()
  })
}

export function routeMethodAndForms (): void {
  app.route({
    method: ['POST', 'put'],
    url: '/things',
    schema: {
      body: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      response: { 200: { type: 'string' } }
    },
    preHandler: async (request) => {
      typeOf(request.body).is<{ n: number }>()
    },
    handler: async (request) => String(request.body.n)
  })
  app.route({
    method: 'GET',
    url: '/things',
    schema: { response: { 200: { type: 'string' } } },
    // @ts-expect-error wrong response type in route()
    handler: async () => 42
  })
  // Options object with the handler inside.
  app.get('/inline', {
    schema: { querystring: { q: { type: 'string' } } },
    handler: async (request) => request.query.q ?? ''
  })
  // Route-level hooks and error handler see the route's types.
  app.post('/hooks', {
    schema: { body: { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } },
    onRequest: [(_request, _reply, done) => done()],
    preValidation: async (request) => {
      typeOf(request.body).is<{ token: string }>()
    },
    errorHandler: (error, request, reply) => {
      typeOf(request.body).is<{ token: string }>()
      reply.code(error.statusCode ?? 500).send({ message: error.message })
    },
    config: { public: true }
  }, async function (request) {
    // The handler's `this` is the instance.
    typeOf(this).is<EnclaveInstance>()
    // `undefined` for a request no route matched (a not-found handler's), as in Fastify.
    typeOf(request.routeOptions.url).is<string | undefined>()
  })
  // Hooks, handlers and options declared apart from the route, with the exported types.
  const authenticate: preHandlerHookHandler = async (request, reply) => {
    if (request.headers.authorization === undefined) return reply.code(401).send({ error: 'unauthorized' })
  }
  app.post('/guarded', {
    schema: { body: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, response: { 200: { type: 'string' } } },
    preHandler: [authenticate]
  }, async (request) => request.body.a)
  const options: RouteShorthandOptions = { logLevel: 'warn', bodyLimit: 1024, onRequest: authenticate }
  const handler: RouteHandler = async function (request: EnclaveRequest, reply: EnclaveReply) {
    reply.header('x-served-by', this.pluginName).send(request.id)
  }
  app.get('/apart', options, handler)
  // Fastify 5's handlerTimeout (route option, reported in routeOptions) and request.signal, at both levels.
  app.get('/report', { handlerTimeout: 120000 }, async (request) => {
    typeOf(request.signal).is<AbortSignal>()
    typeOf(request.routeOptions.handlerTimeout).is<number>()
    return await fetch('http://example.com/report', { signal: request.signal }).then(async (res) => await res.text())
  })
}

export function handlersDeclaredApart (): void {
  // A handler declared with its own route generic gives the route its types, as in Fastify, in every form.
  interface CreateItem { Body: { name: string }, Reply: { 201: { id: number }, '4xx': { error: string } } }
  const create: RouteHandler<CreateItem> = async (request, reply) => {
    typeOf(request.body).is<{ name: string }>()
    if (request.body.name === '') return reply.code(400).send({ error: 'empty' })
    return reply.code(201).send({ id: 1 })
  }
  app.post('/items', create)
  app.post('/items', { bodyLimit: 1024 }, create)
  app.route({ method: 'POST', url: '/items', handler: create })
  // A plain function whose parameters are typed with FastifyRequest / FastifyReply.
  function rename (request: FastifyRequest<{ Params: { id: string }, Body: { name: string } }>, reply: EnclaveReply): void {
    reply.send(`${request.params.id}: ${request.body.name}`)
  }
  app.put('/items/:id', rename)
  app.put('/items/:id', { schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } }, rename)
  // A handler taking the default request type fits any route.
  const any: RouteHandler = async (request) => request.id
  app.post('/anything', { schema: { body: { type: 'object' } } }, any)
  // @ts-expect-error a handler declared for another framework's request type does not fit
  app.post('/wrong', async (request: { body: number }) => request.body)
}

export function validatorsReportingErrors (): void {
  // A custom validator may report validation errors (for the schema error formatter) as well as an Error.
  app.post('/validated', {
    validatorCompiler: () => (data) => data === null
      ? { error: [{ keyword: 'type', instancePath: '', schemaPath: '#/type', params: { type: 'object' }, message: 'not an object' }] }
      : { value: data }
  }, async () => 'ok')
  app.post('/refused', { validatorCompiler: () => () => ({ error: new Error('no') }) }, async () => 'ok')
}

export function codesOutsideTheResponseSchema (): void {
  // At the Fastify 4 level, as in Fastify 4, a response schema does not limit `code()` (at the Fastify 5 level it
  // does: test/types/level5).
  app.get('/codes', { schema: { response: { 200: { type: 'string' } } } }, async (_request, reply) => {
    reply.code(201)
    return 'ok'
  })
}
