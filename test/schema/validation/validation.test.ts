import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import enclave from '../../../src/index'

function badRequest (message: string) {
  return { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message }
}

const userBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }
}

test('body: missing required property and a failed constraint answer 400 with Fastify 4 messages', async () => {
  const app = enclave()
  app.post('/users', { schema: { body: userBody } }, async (req: any) => req.body)

  let res = await app.inject({ method: 'POST', url: '/users', payload: { age: 3 } })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), badRequest("body must have required property 'name'"))

  res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: -1 } })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), badRequest('body/age must be >= 0'))

  res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: '36' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { name: 'Ada', age: 36 })
})

test('querystring, params and headers: messages name the part; values arrive coerced', async () => {
  const app = enclave()
  app.get('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } } },
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 3 }, n: { type: 'number' } } },
      headers: { type: 'object', required: ['x-token'], properties: { 'x-token': { type: 'string' }, 'x-count': { type: 'integer' } } }
    }
  }, async (req: any) => ({ id: req.params.id, query: req.query, count: req.headers['x-count'] }))

  let res = await app.inject({ method: 'GET', url: '/items/abc', headers: { 'x-token': 't' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('params/id must be integer')])

  res = await app.inject({ method: 'GET', url: '/items/1?q=abcd', headers: { 'x-token': 't' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('querystring/q must NOT have more than 3 characters')])

  res = await app.inject({ method: 'GET', url: '/items/1?q=abc' })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest("headers must have required property 'x-token'")])

  res = await app.inject({ method: 'GET', url: '/items/7?q=abc&n=2.5', headers: { 'x-token': 't', 'x-count': '12' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { id: 7, query: { q: 'abc', n: 2.5 }, count: 12 })
})

test('strings that coerce to Infinity fail the numeric type instead of slipping past minimum and maximum', async () => {
  const app = enclave()
  const limits = { type: 'integer', minimum: 1, maximum: 100 }
  app.post('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: limits } },
      querystring: { type: 'object', properties: { limit: limits, price: { type: 'number', maximum: 5 }, sizes: { type: 'array', items: { type: 'number' } } } },
      headers: { type: 'object', properties: { 'x-count': limits } },
      body: { type: 'object', properties: { n: limits } }
    }
  }, async (req: any) => ({ id: req.params.id, query: req.query, count: req.headers['x-count'] ?? null, n: req.body.n }))
  const post = (url: string, payload: unknown = {}, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: payload as any, headers })

  const rejected: Array<[Promise<any>, string]> = [
    [post('/items/1e309'), 'params/id must be integer'],
    [post('/items/-Infinity'), 'params/id must be integer'],
    [post('/items/1?limit=Infinity'), 'querystring/limit must be integer'],
    [post('/items/1?price=1e400'), 'querystring/price must be number'],
    [post('/items/1?price=-Infinity'), 'querystring/price must be number'],
    [post('/items/1?sizes=1&sizes=Infinity'), 'querystring/sizes/1 must be number'],
    [post('/items/1', {}, { 'x-count': '1e309' }), 'headers/x-count must be integer'],
    [post('/items/1', { n: '1e309' }), 'body/n must be integer'],
    [post('/items/1', '{"n":1e309}', { 'content-type': 'application/json' }), 'body/n must be integer']
  ]
  for (const [response, message] of rejected) {
    const res = await response
    assert.deepEqual([res.statusCode, res.json()], [400, badRequest(message)], message)
  }

  // finite values still coerce, and large ones meet their limits
  let res = await post('/items/1?limit=1e308')
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('querystring/limit must be <= 100')])
  res = await post('/items/2?limit=1e1&price=-1.5e3&sizes=0x10', { n: '3' }, { 'x-count': '4' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { id: 2, query: { limit: 10, price: -1500, sizes: [16] }, count: 4, n: 3 })
})

test('the Infinity guard changes generated code only, never a string constant of the schema', async () => {
  const app = enclave()
  const tricky = 'dataType0 == "string" && data0 && data0 == +data0'
  app.post('/', { schema: { body: { type: 'object', properties: { s: { type: 'string', enum: [tricky] }, n: { type: 'number' } } } } }, async (req: any) => req.body)
  const ok = await app.inject({ method: 'POST', url: '/', payload: { s: tricky, n: '2' } })
  assert.deepEqual([ok.statusCode, ok.json()], [200, { s: tricky, n: 2 }])
  const other = await app.inject({ method: 'POST', url: '/', payload: { s: tricky + ' && isFinite(data0)' } })
  assert.deepEqual([other.statusCode, other.json()], [400, badRequest('body/s must be equal to one of the allowed values')])
})

test('a code.process of the user\'s own runs after the Infinity guard, which stays in force', async () => {
  const processed: string[] = []
  const app = enclave({ ajv: { customOptions: { code: { process: (source: string) => { processed.push(source); return source } } } } })
  app.get('/', { schema: { querystring: { type: 'object', properties: { n: { type: 'number', maximum: 5 } } } } }, async (req: any) => req.query)
  const res = await app.inject('/?n=Infinity')
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('querystring/n must be number')])
  // the user's hook sees every source Ajv compiles; the route's validator is the one with the limit
  const route = processed.filter((source) => source.includes('must be <= 5'))
  assert.equal(route.length, 1)
  assert.match(route[0], /data0 == \+data0 && isFinite\(data0\)/)
})

test('the schema key `query` is an alias of `querystring`', async () => {
  const app = enclave()
  app.get('/', { schema: { query: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req: any) => req.query)
  let res = await app.inject({ method: 'GET', url: '/?n=x' })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('querystring/n must be integer')])
  res = await app.inject({ method: 'GET', url: '/?n=4' })
  assert.deepEqual(res.json(), { n: 4 })
})

test('header names in schemas are case-insensitive', async () => {
  const app = enclave()
  app.get('/', {
    schema: { headers: { type: 'object', required: ['X-Api-Key'], properties: { 'X-Api-Key': { type: 'string', minLength: 3 } } } }
  }, async (req: any) => ({ key: req.headers['x-api-key'] }))
  let res = await app.inject({ method: 'GET', url: '/' })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest("headers must have required property 'x-api-key'")])
  res = await app.inject({ method: 'GET', url: '/', headers: { 'X-API-KEY': 'ab' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest("headers/x-api-key must NOT have fewer than 3 characters")])
  res = await app.inject({ method: 'GET', url: '/', headers: { 'x-api-key': 'abc' } })
  assert.deepEqual([res.statusCode, res.json()], [200, { key: 'abc' }])
})

test('shorthand schemas (fields at the top level) mean { type: object, properties }', async () => {
  const app = enclave()
  app.post('/:id', {
    schema: {
      params: { id: { type: 'integer' } },
      querystring: { page: { type: 'integer', default: 1 } },
      body: { name: { type: 'string', maxLength: 2 } }
    }
  }, async (req: any) => ({ params: req.params, query: req.query, body: req.body }))
  let res = await app.inject({ method: 'POST', url: '/5', payload: { name: 'abc' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body/name must NOT have more than 2 characters')])
  res = await app.inject({ method: 'POST', url: '/5', payload: { name: 'ab' } })
  assert.deepEqual(res.json(), { params: { id: 5 }, query: { page: 1 }, body: { name: 'ab' } })
})

test('validation order is params, body, querystring, headers: the first failing part answers', async () => {
  const app = enclave()
  app.post('/:id', {
    schema: {
      params: { id: { type: 'integer' } },
      body: { type: 'object', required: ['a'] },
      querystring: { type: 'object', required: ['q'] },
      headers: { type: 'object', required: ['x-h'] }
    }
  }, async () => 'ok')
  const messages = []
  for (const [url, payload, headers] of [
    ['/x', {}, {}], ['/1', {}, {}], ['/1', { a: 1 }, {}], ['/1?q=1', { a: 1 }, {}], ['/1?q=1', { a: 1 }, { 'x-h': '1' }]
  ] as const) {
    const res = await app.inject({ method: 'POST', url, payload, headers })
    messages.push(res.statusCode === 400 ? res.json().message : res.body)
  }
  assert.deepEqual(messages, [
    'params/id must be integer',
    "body must have required property 'a'",
    "querystring must have required property 'q'",
    "headers must have required property 'x-h'",
    'ok'
  ])
})

test('a single query value for an array field arrives as a one-element array of strings', async () => {
  const app = enclave()
  app.get('/', { schema: { querystring: { type: 'object', properties: { ids: { type: 'array', default: [] }, n: { type: 'array', items: { type: 'integer' } } } } } },
    async (req: any) => ({ params: req.query }))
  let res = await app.inject({ method: 'GET', url: '/?ids=1' })
  assert.deepEqual(res.json(), { params: { ids: ['1'] } })
  res = await app.inject({ method: 'GET', url: '/?ids=1&ids=2&n=3' })
  assert.deepEqual(res.json(), { params: { ids: ['1', '2'], n: [3] } })
  res = await app.inject({ method: 'GET', url: '/' })
  assert.deepEqual(res.json(), { params: { ids: [] } })
})

test('defaults are filled, additional properties removed when additionalProperties is false', async () => {
  const app = enclave()
  app.post('/', {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          role: { type: 'string', default: 'user' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
          nested: { type: 'object', additionalProperties: false, properties: { x: { type: 'integer' } }, default: {} }
        }
      }
    }
  }, async (req: any) => req.body)
  const res = await app.inject({ method: 'POST', url: '/', payload: { isAdmin: true, nested: { x: '1', y: 2 } } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { role: 'user', tags: [], nested: { x: 1 } })
})

test('formats from ajv-formats: email, date-time, uri', async () => {
  const app = enclave()
  app.post('/', {
    schema: {
      body: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, site: { type: 'string', format: 'uri' } }
      }
    }
  }, async (req: any) => req.body)
  const valid = { email: 'ada@example.com', at: '2024-01-02T03:04:05Z', site: 'https://example.com/a?b=c' }
  let res = await app.inject({ method: 'POST', url: '/', payload: valid })
  assert.deepEqual([res.statusCode, res.json()], [200, valid])
  res = await app.inject({ method: 'POST', url: '/', payload: { ...valid, email: 'nope' } })
  assert.deepEqual(res.json(), badRequest('body/email must match format "email"'))
  res = await app.inject({ method: 'POST', url: '/', payload: { ...valid, at: '2024-13-02' } })
  assert.deepEqual(res.json(), badRequest('body/at must match format "date-time"'))
  res = await app.inject({ method: 'POST', url: '/', payload: { ...valid, site: 'not a uri' } })
  assert.deepEqual(res.json(), badRequest('body/site must match format "uri"'))
})

test('the keywords of the spec: nullable, type arrays, enum, oneOf, not, items, maxItems', async () => {
  const app = enclave()
  app.post('/', {
    schema: {
      body: {
        type: 'object',
        required: ['requiredKey'],
        properties: {
          requiredKey: { type: 'array', maxItems: 3, items: { type: 'integer' } },
          nullableKey: { type: ['number', 'null'] },
          nullable2: { type: 'number', nullable: true },
          multipleRestrictedTypesKey: { oneOf: [{ type: 'string', maxLength: 5 }, { type: 'number', minimum: 10 }] },
          enumKey: { type: 'string', enum: ['John', 'Foo'] },
          notTypeKey: { not: { type: 'array' } }
        }
      }
    }
  }, async (req: any) => req.body)
  // with coerceTypes 'array' a scalar would be coerced to [scalar] inside `not`, so the allowed value is an object
  const valid = { requiredKey: [1, 2], nullableKey: null, nullable2: null, multipleRestrictedTypesKey: 'abc', enumKey: 'Foo', notTypeKey: { a: 1 } }
  let res = await app.inject({ method: 'POST', url: '/', payload: valid })
  assert.deepEqual([res.statusCode, res.json()], [200, valid])
  res = await app.inject({ method: 'POST', url: '/', payload: { requiredKey: [1, 2, 3, 4] } })
  assert.deepEqual(res.json(), badRequest('body/requiredKey must NOT have more than 3 items'))
  res = await app.inject({ method: 'POST', url: '/', payload: { requiredKey: [], enumKey: 'Bar' } })
  assert.deepEqual(res.json(), badRequest('body/enumKey must be equal to one of the allowed values'))
  res = await app.inject({ method: 'POST', url: '/', payload: { requiredKey: [], notTypeKey: [] } })
  assert.deepEqual(res.json(), badRequest('body/notTypeKey must NOT be valid'))
  res = await app.inject({ method: 'POST', url: '/', payload: { requiredKey: [], multipleRestrictedTypesKey: {} } })
  // Ajv reports why each branch failed, then the oneOf itself
  assert.equal(res.json().message, 'body/multipleRestrictedTypesKey must be string, body/multipleRestrictedTypesKey must be number, ' +
    'body/multipleRestrictedTypesKey must match exactly one schema in oneOf')
})

test('attachValidation: the handler runs and reads request.validationError', async () => {
  const app = enclave()
  app.post('/', { schema: { body: userBody }, attachValidation: true }, async (req: any, reply: any) => {
    if (req.validationError) {
      return reply.code(422).send({
        message: req.validationError.message,
        context: req.validationError.validationContext,
        missing: req.validationError.validation[0].params.missingProperty
      })
    }
    return { ok: true }
  })
  let res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.deepEqual([res.statusCode, res.json()], [422, { message: "body must have required property 'name'", context: 'body', missing: 'name' }])
  res = await app.inject({ method: 'POST', url: '/', payload: { name: 'a' } })
  assert.deepEqual([res.statusCode, res.json()], [200, { ok: true }])
})

test('a custom error handler answers 422 from error.validation and error.validationContext', async () => {
  const app = enclave()
  app.setErrorHandler(function (error: any, _req: any, reply: any) {
    if (error.validation) {
      reply.status(422).send({
        statusCode: error.statusCode,
        message: `A validation error occurred when validating the ${error.validationContext}...`,
        errors: error.validation.map((e: any) => ({ instancePath: e.instancePath, keyword: e.keyword }))
      })
      return
    }
    reply.send(error)
  })
  app.post('/', { schema: { body: userBody } }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/', payload: { name: 1, age: 'x' } })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), {
    statusCode: 400,
    message: 'A validation error occurred when validating the body...',
    errors: [{ instancePath: '/age', keyword: 'type' }]
  })
})

test('localized messages: the error handler rewrites error.validation and answers 400', async () => {
  const french: Record<string, (e: any) => string> = {
    required: (e) => `doit avoir la propriété requise ${e.params.missingProperty}`,
    minimum: (e) => `doit être >= ${e.params.limit}`
  }
  const app = enclave()
  app.setErrorHandler(function (error: any, _req: any, reply: any) {
    if (error.validation) {
      for (const e of error.validation) e.message = french[e.keyword]?.(e) ?? e.message
      reply.status(400).send(error.validation.map((e: any) => `${error.validationContext}${e.instancePath} ${e.message}`))
      return
    }
    reply.send(error)
  })
  app.post('/', { schema: { body: userBody } }, async () => 'ok')
  let res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.deepEqual([res.statusCode, res.json()], [400, ['body doit avoir la propriété requise name']])
  res = await app.inject({ method: 'POST', url: '/', payload: { name: 'a', age: -2 } })
  assert.deepEqual([res.statusCode, res.json()], [400, ['body/age doit être >= 0']])
})

test('a missing body on a route with a body schema fails as "body must be object"', async () => {
  const app = enclave()
  app.post('/', { schema: { body: userBody } }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/' })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body must be object')])
})

test('a request without a body is validated as null: nullable and [object, null] body schemas admit it', async (t) => {
  const app = enclave()
  const seen: unknown[] = []
  const handler = async (req: any) => { seen.push(req.body); return { isUndefinedBody: req.body === undefined } }
  app.post('/nullable', { schema: { body: { type: 'object', nullable: true, properties: { a: { type: 'string' } } } } }, handler)
  app.post('/or-null', { schema: { body: { type: ['object', 'null'], properties: { a: { type: 'string' } } } } }, handler)
  app.post('/object', { schema: { body: { type: 'object' } } }, handler)
  await app.listen({ port: 0 })
  t.after(() => app.close())
  for (const url of ['/nullable', '/or-null']) {
    // a real socket: a POST with neither a body nor a content type
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}${url}`, { method: 'POST' })
    assert.equal(res.status, 200, url)
    assert.deepEqual(await res.json(), { isUndefinedBody: true })
  }
  const res = await app.inject({ method: 'POST', url: '/object' })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body must be object')])
  assert.deepEqual(seen, [undefined, undefined])
})

test('schema.body.content selects the body schema by media type; other media types are not validated', async () => {
  const app = enclave()
  app.post('/', {
    schema: {
      body: {
        content: {
          'application/json': { schema: { type: 'object', required: ['a'] } },
          'text/plain': { schema: { type: 'string', maxLength: 3 } }
        }
      }
    }
  }, async (req: any) => ({ body: req.body }))
  let res = await app.inject({ method: 'POST', url: '/', payload: { b: 1 } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest("body must have required property 'a'")])
  res = await app.inject({ method: 'POST', url: '/', payload: 'abcd', headers: { 'content-type': 'text/plain; charset=utf-8' } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body must NOT have more than 3 characters')])
  res = await app.inject({ method: 'POST', url: '/', payload: 'abc', headers: { 'content-type': 'text/plain' } })
  assert.deepEqual([res.statusCode, res.json()], [200, { body: 'abc' }])
})

test('bounded payloads: maxItems rejects a 100k-element array quickly, deep nesting is refused by maxItems/maxLength', async () => {
  const app = enclave({ bodyLimit: 10 * 1024 * 1024 })
  app.post('/', {
    schema: {
      body: {
        type: 'object',
        properties: { list: { type: 'array', maxItems: 100, items: { type: 'integer' } }, name: { type: 'string', maxLength: 50 } }
      }
    }
  }, async () => 'ok')
  const started = process.hrtime.bigint()
  let res = await app.inject({ method: 'POST', url: '/', payload: { list: Array.from({ length: 100_000 }, (_, i) => i) } })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body/list must NOT have more than 100 items')])
  assert.ok(ms < 2000, `took ${ms} ms`)

  res = await app.inject({ method: 'POST', url: '/', payload: { name: 'x'.repeat(1_000_000) } })
  assert.deepEqual([res.statusCode, res.json()], [400, badRequest('body/name must NOT have more than 50 characters')])

  const deep = `{"list":${'['.repeat(5000)}1${']'.repeat(5000)}}`
  res = await app.inject({ method: 'POST', url: '/', payload: deep, headers: { 'content-type': 'application/json' } })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().code, 'FST_ERR_VALIDATION')
})

test('validation errors carry no stack trace in the response', async () => {
  const app = enclave()
  app.post('/', { schema: { body: userBody } }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.equal(res.body.includes('at '), false)
  assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
})

test('jsonShorthand: false hands part schemas to the compiler exactly as written', async () => {
  const seen: unknown[] = []
  const app = enclave({ jsonShorthand: false })
  app.setValidatorCompiler(({ schema }: any) => { seen.push(schema); return () => true })
  app.post('/', { schema: { body: { foo: { type: 'uint8' } } } }, async () => 'ok')
  await app.ready()
  assert.deepEqual(seen, [{ foo: { type: 'uint8' } }])
})
