// The rest of the public API: factory and options, hooks, errors, compilers, content-type parsers, logging,
// lifecycle and inject().
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Handler, HTTPVersion } from 'find-my-way'
import type { Response as InjectResponse } from 'light-my-request'
import pino from 'pino'
import type {
  EnclaveError, EnclaveFactory, EnclaveInstance, EnclaveOptions, FastifyInstance, FastifyReply, FastifyRequest, FastifyTypeProvider,
  FastifyServerOptions, Logger, ValidationResult, ValidatorCompiler
} from '../../src/types'
import { typeOf } from './helpers'

declare const enclave: EnclaveFactory

export function factory (): void {
  const app = enclave({
    logger: { level: 'info', redact: ['req.headers.authorization'] },
    bodyLimit: 1024 * 1024,
    trustProxy: ['127.0.0.1', '10.0.0.0/8'],
    genReqId: (raw) => String(raw.headers['x-request-id'] ?? ''),
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array' }, plugins: [] },
    schemaErrorFormatter: (errors, dataVar) => new Error(`${dataVar}: ${errors.map((e) => e.message).join(', ')}`),
    forceCloseConnections: 'idle',
    querystringParser: (qs) => Object.fromEntries(new URLSearchParams(qs))
  })
  // The root instance is also a promise of itself, settled once every plugin is loaded.
  typeOf(app).is<EnclaveInstance & PromiseLike<EnclaveInstance>>()
  enclave.default()
  enclave.enclave({ logger: false })
  const ctor = enclave.errorCodes.FST_ERR_NOT_FOUND
  const err: EnclaveError = new ctor()
  void err.code
  // @ts-expect-error not an option
  enclave({ loger: true })
  // @ts-expect-error wrong option type
  enclave({ bodyLimit: '1mb' })
  // @ts-expect-error not an error code
  void enclave.errorCodes.FST_ERR_NOPE
  // the compile cache: a directory, and precompile() of an application built with it
  const cached = enclave({ compileCache: { dir: './.enclave-cache' } })
  typeOf(enclave.precompile(cached)).is<Promise<{ file: string, entries: number, removed: string[], codeCacheFor: string }>>()
  // @ts-expect-error the directory is a string
  enclave({ compileCache: { dir: 1 } })
  // withTypeProvider() replaces Enclave's inference with the given provider; one whose output is `unknown` types
  // routes as Fastify's default provider does.
  interface Untyped extends FastifyTypeProvider { output: unknown }
  enclave().withTypeProvider<Untyped>().get('/untyped', { schema: { querystring: { q: { type: 'string' } }, response: { 200: { type: 'string' } } } }, async (request) => {
    typeOf(request.query).is<unknown>()
    return 42
  })
  interface StringsOnly extends FastifyTypeProvider { output: this['input'] extends { type: 'string' } ? string : never }
  enclave().withTypeProvider<StringsOnly>().post('/strings', { schema: { body: { type: 'string' } } }, async (request) => {
    typeOf(request.body).is<string>()
  })
  // Fastify 5's form of provider (`schema` to `validator` and `serializer`, as @fastify/type-provider-typebox 6
  // writes it) types request parts by its validator and replies by its serializer
  interface ValidatedAndSerialized extends FastifyTypeProvider {
    validator: this['schema'] extends { type: 'string' } ? `in:${string}` : unknown
    serializer: this['schema'] extends { type: 'string' } ? `out:${string}` : unknown
  }
  const v5Form = { schema: { body: { type: 'string' }, querystring: { type: 'object' }, response: { 200: { type: 'string' } } } } as const
  enclave().withTypeProvider<ValidatedAndSerialized>().post('/v5-form', v5Form, async (request) => {
    typeOf(request.body).is<`in:${string}`>()
    typeOf(request.query).is<unknown>()
    return 'out:ok' as const
  })
  // @ts-expect-error the reply is typed by the serializer, not the validator
  enclave().withTypeProvider<ValidatedAndSerialized>().post('/v5-form', v5Form, async () => 'in:x' as const)
  // a Fastify 4 provider written as a plain object type (no `schema`, `validator`, `serializer`) is still a provider,
  // and a plugin typed with it registers on an instance of that provider
  type PlainV4 = { input: 'in', output: 'out' }
  const plainV4 = enclave().withTypeProvider<PlainV4>()
  type PlainV4Instance = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger, PlainV4>
  const plainV4Registered: PlainV4Instance = plainV4.register(async (instance: PlainV4Instance) => { void instance })
  void plainV4Registered
  plainV4.post('/plain-v4', { schema: { body: { type: 'string' } } }, async (request) => {
    typeOf(request.body).is<'out'>()
  })
  const store = () => {
    const handlers = new Map<unknown, Handler<HTTPVersion.V1>>()
    return {
      get: (value: unknown) => handlers.get(value) ?? null,
      set: (value: unknown, handler: Handler<HTTPVersion.V1>) => { handlers.set(value, handler) }
    }
  }
  enclave({
    constraints: { tenant: { name: 'tenant', storage: store, deriveConstraint: (req) => req.headers['x-tenant'], mustMatchWhenDerived: true } },
    versioning: { storage: () => ({ get: () => null, set: () => {} }), deriveVersion: (req) => req.headers['x-api-version'] as string | undefined }
  })
  // @ts-expect-error deriveVersion is required
  enclave({ versioning: { storage: store } })
  const options: FastifyServerOptions = { caseSensitive: false }
  const sameOptions: EnclaveOptions = options
  void sameOptions
}

declare const app: EnclaveInstance

export async function lifecycleAndInject (): Promise<void> {
  const address: string = await app.listen({ port: 0, host: '127.0.0.1' })
  app.listen({ port: 3000 }, (err, addr) => { void err; void addr })
  void address
  await app.ready()
  app.ready((err) => { void err })
  await app.close()
  const response = await app.inject({ method: 'POST', url: '/users', payload: { name: 'ada' }, headers: { 'x-api-key': 'k' } })
  typeOf(response).is<InjectResponse>()
  const body: { id: number } = response.json<{ id: number }>()
  void body
  const chained = await app.inject().get('/health').headers({ accept: 'application/json' }).end()
  void chained.statusCode
  app.inject('/health', (err, res) => { void err; void res?.payload })
  // @ts-expect-error not an HTTP method light-my-request knows
  await app.inject({ method: 'FETCH', url: '/' })
  const ports: number[] = app.addresses().map((a) => a.port)
  void ports
}

export function hooks (): void {
  app.addHook('onRequest', (request, reply, done) => {
    request.log.info({ url: request.url }, 'incoming')
    void reply.statusCode
    done()
  })
  app.addHook('preParsing', async (_request, _reply, payload) => payload)
  app.addHook('preHandler', async function (request) {
    typeOf(this).is<EnclaveInstance>()
    void request.routeOptions.config
  })
  app.addHook('preSerialization', async (_request, _reply, payload) => ({ wrapped: payload }))
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-length', String(payload).length)
    done(null, payload)
  })
  app.addHook('onError', async (_request, _reply, error) => {
    typeOf(error).is<EnclaveError>()
  })
  app.addHook('onResponse', async (_request, reply) => { void reply.elapsedTime })
  app.addHook('onTimeout', async () => {})
  app.addHook('onRequestAbort', async (request) => { void request.id })
  app.addHook('onReady', async function () { void this.prefix })
  app.addHook('onListen', (done) => done())
  app.addHook('preClose', (done) => done())
  app.addHook('onClose', async (instance) => { void instance.server })
  app.addHook('onRoute', (routeOptions) => {
    void routeOptions.url
    void routeOptions.prefix
  })
  app.addHook('onRegister', (instance, opts) => { void instance; void opts.prefix })
  // @ts-expect-error not a hook name
  app.addHook('onStart', async () => {})
  // @ts-expect-error onError receives the error as its third parameter
  app.addHook('onError', async (_request, _reply, error: string) => { void error })
}

export function errorsAndNotFound (): void {
  app.setErrorHandler(function (error, request, reply) {
    typeOf(error).is<EnclaveError>()
    typeOf(request.body).is<unknown>()
    this.log.error(error)
    if (error.validation !== undefined) {
      const first: ValidationResult | undefined = error.validation[0]
      return reply.code(400).send({ message: first?.message, part: error.validationContext })
    }
    reply.status(error.statusCode ?? 500).send({ ok: false, request: request.id })
  })
  class TeapotError extends Error { brewing = true }
  app.setErrorHandler<TeapotError>(async (error) => ({ brewing: error.brewing }))
  app.setNotFoundHandler(async (request, reply) => reply.code(404).send({ missing: request.url }))
  app.setNotFoundHandler({ preHandler: (_request, _reply, done) => done() }, async () => 'nothing here')
  app.errorHandler(new Error('x') as EnclaveError, {} as FastifyRequest, {} as FastifyReply)
}

export function compilersAndSchemas (): void {
  const validatorCompiler: ValidatorCompiler = ({ schema, httpPart }) => {
    void schema
    return (data) => httpPart === 'body' ? typeof data === 'object' : true
  }
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(({ httpStatus }) => (data) => JSON.stringify({ status: httpStatus, data }))
  app.setSchemaErrorFormatter((errors) => new Error(errors[0]?.message))
  app.setReplySerializer((payload, statusCode) => `${statusCode}:${JSON.stringify(payload)}`)
  app.get('/validated', {
    schema: { body: { type: 'object' } },
    validatorCompiler: () => () => true,
    attachValidation: true
  }, async (request) => {
    if (request.validationError) return { error: request.validationError.message }
    const validate = request.getValidationFunction('body')
    return validate?.(request.body) ?? request.compileValidationSchema({ type: 'string' })('x')
  })
  app.get('/serialized', async (_request, reply) => {
    const serialize = reply.compileSerializationSchema({ type: 'object', properties: { a: { type: 'string' } } })
    return serialize({ a: 'x' }) + reply.serializeInput({ b: 1 }, '200')
  })
  const schemas: Record<string, unknown> = app.getSchemas()
  void schemas
}

export function contentTypeParsers (): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    typeOf(body).is<string>()
    done(null, Object.fromEntries(new URLSearchParams(body)))
  })
  app.addContentTypeParser(['application/octet-stream', /^image\//], { parseAs: 'buffer', bodyLimit: 10 }, async (_request, body) => {
    typeOf(body).is<Buffer>()
    return body.length
  })
  app.addContentTypeParser('text/csv', async (request, payload) => {
    void request.headers['content-length']
    let text = ''
    for await (const chunk of payload) text += String(chunk)
    return text.split(',')
  })
  app.addContentTypeParser('text/json', { parseAs: 'string' }, app.getDefaultJsonParser('ignore', 'ignore'))
  app.addContentTypeParser('text/anything', { parseAs: 'string' }, app.defaultTextParser)
  // @ts-expect-error parseAs is 'string' or 'buffer'
  app.addContentTypeParser('text/x', { parseAs: 'stream' }, () => {})
  const has: boolean = app.hasContentTypeParser('application/json')
  void has
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.removeAllContentTypeParsers()
}

export function loggingAndRequestProperties (): void {
  // A logger instance given as the option types app.log (and request.log).
  const withPino = enclave({ logger: pino({ level: 'info', redact: ['req.headers.authorization'] }) })
  typeOf(withPino.log).is<pino.Logger<never, boolean>>()
  withPino.get('/pino', async (request) => { typeOf(request.log).is<pino.Logger<never, boolean>>() })
  const log: Logger = app.log
  log.child({ component: 'test' }).warn({ detail: 1 }, 'message %s', 'arg')
  app.get('/props', async (request, reply) => {
    const fields: [string, string, string, string, 'http' | 'https', string | undefined] = [
      request.id, request.ip, request.hostname, request.method, request.protocol, request.ips?.[0]
    ]
    const sent: boolean = reply.sent
    reply.header('a', 1).headers({ b: 2 }).type('application/json').code(201)
    reply.redirect('/elsewhere', 301)
    return { fields, sent, elapsed: reply.elapsedTime, server: reply.server.prefix === request.server.prefix }
  })
  app.setChildLoggerFactory(function (logger, bindings, opts, raw) {
    return logger.child({ ...bindings, path: raw.url }, opts)
  })
  app.setGenReqId((raw) => String(raw.headers['x-id']))
  typeOf<string>(app.genReqId({} as any))
  // deprecated default route: raw request and response
  const defaultRoute = app.getDefaultRoute()
  app.setDefaultRoute((req, res) => { res.end(req.url) })
  app.setDefaultRoute(defaultRoute)
  // @ts-expect-error the default route is a function
  app.setDefaultRoute('nope')
  // await reply, and return reply.send() from an async handler
  app.get('/await', async (_request, reply) => {
    setTimeout(() => reply.send('later'), 1)
    await reply
    return reply
  })
  app.get('/send', async (_request, reply) => reply.code(201).send({ created: true }))
  // Fastify's instance name is the same type.
  const sameInstance: FastifyInstance = app
  void sameInstance
}
