import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import Ajv from 'ajv'
import { enclave } from '../../helpers'

const ajvErrors = require('ajv-errors')
const ajvFormats = require('ajv-formats')

/**
 * ajv-formats loaded a second time: another function object with the same name, as an application's own copy of
 * the package (another version, or not deduplicated by npm) is.
 */
function anotherCopyOfAjvFormats (): any {
  const directory = path.dirname(require.resolve('ajv-formats/package.json'))
  const saved = Object.entries(require.cache).filter(([file]) => file.startsWith(directory + path.sep))
  for (const [file] of saved) delete require.cache[file]
  try {
    return require('ajv-formats')
  } finally {
    for (const [file, module] of saved) require.cache[file] = module
  }
}

function badRequest (message: string) {
  return { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message }
}

/** The spec's per-part example: no coercion for the body, coercion elsewhere, removeAdditional false, allErrors true. */
function perPartCompilers (parts = ['body', 'params', 'querystring', 'headers']) {
  const schemaCompilers: Record<string, Ajv> = {}
  for (const part of parts) schemaCompilers[part] = new Ajv({ removeAdditional: false, coerceTypes: part !== 'body', allErrors: true })
  return (req: { schema: any, httpPart?: string }) => {
    if (!req.httpPart) throw new Error('Missing httpPart')
    const compiler = schemaCompilers[req.httpPart]
    if (!compiler) throw new Error(`Missing compiler for ${req.httpPart}`)
    return compiler.compile(req.schema)
  }
}

test('setValidatorCompiler with one Ajv per part: the body is not coerced, the other parts are', async () => {
  const app = enclave()
  app.setValidatorCompiler(perPartCompilers())
  const schema = { type: 'object', properties: { n: { type: 'integer' }, m: { type: 'integer' } }, additionalProperties: false }
  app.post('/:n', { schema: { body: schema, params: { n: { type: 'integer' } }, querystring: schema } },
    async (req: any) => ({ body: req.body, params: req.params, query: req.query }))

  let res = await app.inject({ method: 'POST', url: '/1?n=2', payload: { n: '3', m: 'x' } })
  // allErrors: both body errors are reported
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body/n must be integer, body/m must be integer')])
  res = await app.inject({ method: 'POST', url: '/1?n=2', payload: { n: 3, extra: true } })
  assert.deepEqual(res.json(), badRequest('body must NOT have additional properties'))
  res = await app.inject({ method: 'POST', url: '/1?n=2', payload: { n: 3 } })
  assert.deepEqual([res.statusCode, res.json()], [200, { body: { n: 3 }, params: { n: 1 }, query: { n: 2 } }])
})

test('a per-part compiler that throws for a part it has no compiler for fails ready()', async () => {
  const app = enclave()
  app.setValidatorCompiler(perPartCompilers(['body', 'params', 'querystring']))
  app.post('/fine', { schema: { body: { type: 'object' }, querystring: { type: 'object' } } }, async () => 'ok')
  app.get('/headers', { schema: { headers: { type: 'object' } } }, async () => 'ok')
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
    // Fastify's exact message; the part is a property of its own
    assert.equal(err.message, 'Failed building the validation schema for GET: /headers, due to error Missing compiler for headers')
    assert.equal(err.httpPart, 'headers')
    return true
  })
})

test('setValidatorCompiler is encapsulated; a route validatorCompiler wins over it', async () => {
  const app = enclave()
  const seen: string[] = []
  app.register(async (child: any) => {
    child.setValidatorCompiler(({ httpPart, url }: any) => {
      seen.push(`${url} ${httpPart}`)
      return (data: any) => data.token === 'child' ? { value: { ...data, by: 'child' } } : { error: new Error('child says no') }
    })
    child.post('/child', { schema: { body: { type: 'object' } } }, async (req: any) => req.body)
    child.post('/route', {
      schema: { body: { type: 'object' } },
      validatorCompiler: () => () => ({ value: { by: 'route' } })
    }, async (req: any) => req.body)
  })
  app.post('/root', { schema: { body: { type: 'object', required: ['token'] } } }, async (req: any) => req.body)

  let res = await app.inject({ method: 'POST', url: '/child', payload: { token: 'child' } })
  assert.deepEqual(res.json(), { token: 'child', by: 'child' })
  res = await app.inject({ method: 'POST', url: '/child', payload: { token: 'x' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('child says no')])
  res = await app.inject({ method: 'POST', url: '/route', payload: {} })
  assert.deepEqual(res.json(), { by: 'route' })
  res = await app.inject({ method: 'POST', url: '/root', payload: {} })
  assert.deepEqual(res.json(), badRequest("body must have required property 'token'"))
  assert.deepEqual(seen, ['/child body'])
})

test('a custom validation function may return { error: [errors in Ajv shape] } or an Error', async () => {
  const app = enclave()
  app.setErrorHandler(function (error: any, _req: any, reply: any) {
    reply.status(error.statusCode).send({ message: error.message, context: error.validationContext, validation: error.validation })
  })
  app.post('/array', {
    schema: { body: { kind: 'custom' } },
    validatorCompiler: () => () => ({ error: [{ instancePath: '/name', message: 'is not a name' }] })
  }, async () => 'ok')
  app.get('/error', {
    schema: { querystring: { kind: 'custom' } },
    validatorCompiler: () => () => ({ error: new Error('query rejected') })
  }, async () => 'ok')
  let res = await app.inject({ method: 'POST', url: '/array', payload: {} })
  assert.deepEqual([res.statusCode, res.json()], [400, {
    message: 'body/name is not a name', context: 'body', validation: [{ instancePath: '/name', message: 'is not a name' }]
  }])
  res = await app.inject({ method: 'GET', url: '/error' })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().message, 'query rejected')
  assert.equal(res.json().context, 'querystring')
})

test('schemaController.compilersFactory.buildValidator replaces the default compiler and receives the shared schemas', async () => {
  const calls: Array<[string[], unknown]> = []
  const app = enclave({
    ajv: { customOptions: { removeAdditional: 'all' } },
    schemaController: {
      compilersFactory: {
        buildValidator (externalSchemas: Record<string, any>, ajvServerOption: any) {
          calls.push([Object.keys(externalSchemas), ajvServerOption.customOptions])
          const ajv = new Ajv({ coerceTypes: false })
          for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema)
          return ({ schema }: any) => ajv.compile(schema)
        }
      }
    }
  })
  app.addSchema({ $id: 'num', type: 'integer' })
  app.post('/', { schema: { body: { type: 'object', properties: { n: { $ref: 'num#' } } } } }, async (req: any) => req.body)
  const res = await app.inject({ method: 'POST', url: '/', payload: { n: '1' } })
  assert.deepEqual(res.json(), badRequest('body/n must be integer'))
  assert.deepEqual(calls, [[['num'], { removeAdditional: 'all' }]])
})

test('ajv.customOptions change the baseline: removeAdditional all, coerceTypes false', async () => {
  const app = enclave({ ajv: { customOptions: { removeAdditional: 'all', coerceTypes: false } } })
  app.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req: any) => req.body)
  let res = await app.inject({ method: 'POST', url: '/', payload: { n: 1, extra: 2 } })
  assert.deepEqual(res.json(), { n: 1 })
  res = await app.inject({ method: 'POST', url: '/', payload: { n: '1' } })
  assert.deepEqual(res.json(), badRequest('body/n must be integer'))
})

test('the validator option is an alias of ajv; plugins take a function or [plugin, options]', async () => {
  const keywordPlugin = (ajv: Ajv, opts: { name: string }) => {
    ajv.addKeyword({ keyword: opts.name, type: 'string', validate: (_schema: unknown, data: string) => data === data.toUpperCase(), errors: false })
  }
  const app = enclave({ validator: { plugins: [[keywordPlugin, { name: 'uppercase' }], [ajvFormats, { mode: 'fast' }]] } })
  app.post('/', { schema: { body: { type: 'object', properties: { code: { type: 'string', uppercase: true }, mail: { format: 'email' } } } } }, async (req: any) => req.body)
  let res = await app.inject({ method: 'POST', url: '/', payload: { code: 'abc' } })
  assert.deepEqual(res.json(), badRequest('body/code must pass "uppercase" keyword validation'))
  res = await app.inject({ method: 'POST', url: '/', payload: { code: 'ABC', mail: 'no' } })
  assert.deepEqual(res.json(), badRequest('body/mail must match format "email"'))
  res = await app.inject({ method: 'POST', url: '/', payload: { code: 'ABC', mail: 'a@b.co' } })
  assert.deepEqual(res.json(), { code: 'ABC', mail: 'a@b.co' })
})

test('ajv-errors: errorMessage per keyword and per required property (allErrors true)', async () => {
  const app = enclave({ ajv: { customOptions: { jsonPointers: true, allErrors: true }, plugins: [ajvErrors] } })
  app.post('/', {
    schema: {
      body: {
        type: 'object',
        properties: {
          name: { type: 'string', errorMessage: { type: 'Bad name' } },
          age: { type: 'number', minimum: 18, errorMessage: { type: 'Bad age', minimum: 'Too young' } }
        },
        required: ['name', 'age'],
        errorMessage: { required: { name: 'Why no name!', age: 'Why no age!' } }
      }
    }
  }, async () => ({ hello: 'world' }))
  let res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.deepEqual(res.json(), badRequest('body Why no name!, body Why no age!'))
  // (a number would be coerced to a string: an object cannot be)
  res = await app.inject({ method: 'POST', url: '/', payload: { name: {}, age: 'x' } })
  assert.deepEqual(res.json(), badRequest('body/name Bad name, body/age Bad age'))
  res = await app.inject({ method: 'POST', url: '/', payload: { name: 'a', age: 10 } })
  assert.deepEqual(res.json(), badRequest('body/age Too young'))
  res = await app.inject({ method: 'POST', url: '/', payload: { name: 'a', age: 20 } })
  assert.deepEqual([res.statusCode, res.json()], [200, { hello: 'world' }])
})

test('ajv-errors without allErrors fails ready(), naming the plugin requirement', async () => {
  const app = enclave({ ajv: { plugins: [ajvErrors] } })
  app.post('/', { schema: { body: { type: 'object' } } }, async () => 'ok')
  await assert.rejects(app.ready(), /allErrors/)
})

test('$async schemas: an async keyword decides, a rejection is a 400 with Ajv\'s message or the thrown one', async () => {
  const seen: unknown[] = []
  const app = enclave({
    ajv: {
      customOptions: {
        keywords: [{
          keyword: 'knownId',
          async: true,
          type: 'number',
          validate: async (_schema: unknown, id: number) => {
            seen.push(id)
            await new Promise((resolve) => setImmediate(resolve))
            if (id === 13) throw new Error('lookup failed')
            return id === 7
          }
        }]
      }
    }
  })
  const byId = { $async: true, type: 'object', properties: { id: { type: 'integer', knownId: true } } }
  app.post('/items/:id', { schema: { params: byId, body: byId } }, async (request: any) => ({ params: request.params, body: request.body }))

  let res = await app.inject({ method: 'POST', url: '/items/7', payload: { id: 7 } })
  assert.deepEqual([res.statusCode, res.json()], [200, { params: { id: 7 }, body: { id: 7 } }])
  res = await app.inject({ method: 'POST', url: '/items/8', payload: { id: 7 } })
  assert.deepEqual([res.statusCode, res.json()], [400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'validation failed' }])
  res = await app.inject({ method: 'POST', url: '/items/7', payload: { id: 13 } })
  assert.deepEqual([res.statusCode, res.json()], [400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'lookup failed' }])
  // params are checked first, and a failing part stops the others
  assert.deepEqual(seen, [7, 7, 8, 7, 13])
})

test('async and sync validators mix: the parts after an async one wait for it, attachValidation still applies', async () => {
  const app = enclave()
  const later = (accept: boolean) => () => async (data: unknown) => {
    await new Promise((resolve) => setImmediate(resolve))
    if (!accept) throw new Error('refused later')
    return data
  }
  app.post('/:id', {
    schema: { params: { type: 'object' }, querystring: { type: 'object', properties: { n: { type: 'integer' } } } },
    validatorCompiler: ({ httpPart }: { httpPart: string }) => httpPart === 'params'
      ? later(true)()
      : (data: unknown) => typeof (data as { n?: unknown }).n === 'string' && /^\d+$/.test((data as { n: string }).n) ? { value: { n: Number((data as { n: string }).n) } } : { error: new Error('n must be a number') }
  }, async (request: any) => ({ query: request.query }))
  app.post('/attach', {
    attachValidation: true,
    schema: { body: { type: 'object' } },
    validatorCompiler: later(false)
  }, async (request: any) => ({ attached: request.validationError.message, context: request.validationError.validationContext }))

  let res = await app.inject({ method: 'POST', url: '/1?n=5' })
  assert.deepEqual([res.statusCode, res.json()], [200, { query: { n: 5 } }])
  res = await app.inject({ method: 'POST', url: '/1?n=x' })
  assert.deepEqual([res.statusCode, res.json()], [400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'n must be a number' }])
  res = await app.inject({ method: 'POST', url: '/attach', payload: {} })
  assert.deepEqual([res.statusCode, res.json()], [200, { attached: 'refused later', context: 'body' }])
})

test('an async validator whose schema error formatter throws answers 500', async () => {
  const app = enclave({ schemaErrorFormatter: () => { throw new Error('formatter broke') } })
  app.post('/', { schema: { body: { type: 'object' } }, validatorCompiler: () => async () => false }, async () => 'handler ran')
  const res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.deepEqual([res.statusCode, res.json().message], [500, 'formatter broke'])
})

test('schemaErrorFormatter: factory option, encapsulated setSchemaErrorFormatter, route option; `this` is the instance', async () => {
  const app = enclave({
    schemaErrorFormatter (errors: any[], dataVar: string) {
      return new Error(`root: ${dataVar} has ${errors.length} error(s)`)
    }
  })
  app.decorate('brand', 'ACME')
  app.post('/root', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok')
  app.register(async (child: any) => {
    child.setSchemaErrorFormatter(function (this: any, errors: any[], dataVar: string) {
      return new Error(`${this.brand} ${dataVar}: ${errors[0].message}`)
    })
    child.post('/child', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok')
    child.post('/route', {
      schema: { querystring: { type: 'object', required: ['q'] } },
      schemaErrorFormatter: (_errors: any[], dataVar: string) => Object.assign(new Error(`route ${dataVar}`), { statusCode: 418 })
    }, async () => 'ok')
  })
  let res = await app.inject({ method: 'POST', url: '/root', payload: {} })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('root: body has 1 error(s)')])
  res = await app.inject({ method: 'POST', url: '/child', payload: {} })
  assert.deepEqual(res.json(), badRequest("ACME body: must have required property 'a'"))
  res = await app.inject({ method: 'POST', url: '/route', payload: {} })
  assert.equal(res.statusCode, 418)
  assert.equal(res.json().message, 'route querystring')
})

test('schemaErrorFormatter must be a sync function (fail-fast)', () => {
  assert.throws(() => enclave({ schemaErrorFormatter: 'nope' as any }), { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN' })
  assert.throws(() => enclave({ schemaErrorFormatter: (async () => new Error('x')) as any }), { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN' })
  const app = enclave()
  assert.throws(() => app.setSchemaErrorFormatter(async () => new Error('x')), { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN' })
  assert.throws(() => app.setSchemaErrorFormatter(42 as any), { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN' })
})

test('a formatter that throws answers 500 with its error, attached to no request (Fastify\'s answer)', async () => {
  const app = enclave({ schemaErrorFormatter: () => { throw new Error('formatter broke') } })
  let handlerRan = false
  app.post('/', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok')
  app.post('/attach', { attachValidation: true, schema: { body: { type: 'object', required: ['a'] } } }, async () => { handlerRan = true; return 'ok' })
  for (const url of ['/', '/attach']) {
    const res = await app.inject({ method: 'POST', url, payload: {} })
    assert.deepEqual([res.statusCode, res.json()], [500, { statusCode: 500, error: 'Internal Server Error', message: 'formatter broke' }])
  }
  assert.equal(handlerRan, false)
  const valid = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
  assert.deepEqual([valid.statusCode, valid.body], [200, 'ok'])
})

test('a validator compiler that returns no function is accepted at ready; the route\'s requests answer 500', async () => {
  const app = enclave()
  let handlerRan = false
  for (const [url, returned] of [['/undefined', undefined], ['/string', 'nope'], ['/null', null]] as const) {
    app.post(url, {
      schema: { body: { type: 'object' }, querystring: { type: 'object' } },
      validatorCompiler: ({ httpPart }: any) => httpPart === 'querystring' ? returned : () => true
    }, async () => { handlerRan = true; return 'ok' })
  }
  await app.ready()
  const cases = [['/undefined', 'undefined'], ['/string', 'string'], ['/null', 'null']]
  for (const [url, type] of cases) {
    const res = await app.inject({ method: 'POST', url, payload: {} })
    assert.equal(res.statusCode, 500, url)
    assert.deepEqual(res.json(), {
      statusCode: 500,
      code: 'FST_ERR_SCH_VALIDATOR_NOT_FN',
      error: 'Internal Server Error',
      message: `The validator compiler returned ${type} instead of a function for the querystring schema of POST ${url}`
    })
  }
  assert.equal(handlerRan, false)
})

test('ajv.plugins: the application\'s own copy of ajv-formats is recognised, alone or as [plugin, options]', async () => {
  const theirs = anotherCopyOfAjvFormats()
  assert.notEqual(theirs, ajvFormats)
  const schema = { body: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, mail: { type: 'string', format: 'email' } } } }
  const app = enclave({ ajv: { plugins: [theirs] } })
  app.post('/', { schema }, async (req: any) => req.body)
  const bad = await app.inject({ method: 'POST', url: '/', payload: { id: 'nope' } })
  assert.deepEqual(bad.json(), badRequest('body/id must match format "uuid"'))
  const good = await app.inject({ method: 'POST', url: '/', payload: { id: '254381a5-888c-4b41-8116-e3b1a54980bd', mail: 'a@b.co' } })
  assert.equal(good.statusCode, 200)

  // with options: only the formats asked for exist, so Enclave did not add its own copy on top
  const onlyEmail = enclave({ ajv: { plugins: [[theirs, { formats: ['email'] }]] } })
  onlyEmail.post('/mail', { schema: { body: { type: 'object', properties: { mail: { type: 'string', format: 'email' } } } } }, async (req: any) => req.body)
  const mail = await onlyEmail.inject({ method: 'POST', url: '/mail', payload: { mail: 'no' } })
  assert.deepEqual(mail.json(), badRequest('body/mail must match format "email"'))
  const uuid = enclave({ ajv: { plugins: [[theirs, { formats: ['email'] }]] } })
  uuid.post('/', { schema }, async () => 'never')
  await assert.rejects(uuid.ready(), /unknown format "uuid"/)
})

test('a formatter that does not return an Error answers 500 FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', async () => {
  const app = enclave({ schemaErrorFormatter: (() => 'just a string') as any })
  app.post('/', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN')
})

test('malformed ajv / schemaController options throw at the factory', () => {
  assert.throws(() => enclave({ ajv: { customOptions: 'x' as any } }), { code: 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ' })
  assert.throws(() => enclave({ ajv: { plugins: {} as any } }), { code: 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR' })
  assert.throws(() => enclave({ ajv: { plugins: ['nope' as any] } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  assert.throws(() => enclave({ schemaController: { bucket: 'x' as any } }), { code: 'FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN' })
  assert.throws(() => enclave({ ajv: { customOptions: {} }, validator: { customOptions: {} } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
})

test('identical schemas are compiled once across routes', async () => {
  let compiled = 0
  const app = enclave({ ajv: { plugins: [(ajv: Ajv) => { const compile = ajv.compile.bind(ajv); (ajv as any).compile = (s: any) => { compiled++; return compile(s) } }] } })
  for (let i = 0; i < 20; i++) {
    app.post(`/r${i}`, { schema: { body: { type: 'object', properties: { a: { type: 'string' } } }, querystring: { a: { type: 'string' } } } }, async () => 'ok')
  }
  await app.ready()
  assert.equal(compiled, 0, 'plain schemas compile on first use')
  for (let i = 0; i < 20; i++) {
    const res = await app.inject({ method: 'POST', url: `/r${i}?a=x`, payload: { a: 'y' } })
    assert.equal(res.statusCode, 200)
  }
  // the body schema and the expanded querystring shorthand are the same JSON: one compilation in all
  assert.equal(compiled, 1)
})
