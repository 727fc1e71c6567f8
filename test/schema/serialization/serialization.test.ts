import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../../helpers'

const JSON_TYPE = 'application/json; charset=utf-8'

test('response schema: undeclared fields are not output and `default` fills a missing boolean', async () => {
  const app = enclave()
  app.get('/user', {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: { value: { type: 'string' }, otherValue: { type: 'boolean' }, error: { type: 'boolean', default: true } }
        }
      }
    }
  }, async () => ({ value: 'v', otherValue: false, password: 'secret', nested: { token: 't' } }))
  const res = await app.inject({ method: 'GET', url: '/user' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], JSON_TYPE)
  assert.equal(res.body, '{"value":"v","otherValue":false,"error":true}')
})

test('shorthand response schema (properties at the top level) is an object schema', async () => {
  const app = enclave()
  app.post('/the/url', { schema: { response: { 201: { value: { type: 'string' } } } } }, async (req: any, reply: any) => {
    reply.code(201)
    return { value: 'x', hidden: 1 }
  })
  const res = await app.inject({ method: 'POST', url: '/the/url' })
  assert.equal(res.statusCode, 201)
  assert.equal(res.body, '{"value":"x"}')
})

test('precedence: exact code > class > default', async () => {
  const app = enclave()
  const schema = {
    response: {
      201: { type: 'object', properties: { exact: { type: 'string' } } },
      '2xx': { type: 'object', properties: { cls: { type: 'string' } } },
      '4XX': { type: 'object', properties: { upper: { type: 'string' } } },
      default: { type: 'object', properties: { def: { type: 'string' } } }
    }
  }
  app.get('/:code', { schema }, async (req: any, reply: any) => {
    reply.code(Number(req.params.code))
    return { exact: 'e', cls: 'c', upper: 'u', def: 'd', other: 'o' }
  })
  const expected: Record<number, string> = {
    201: '{"exact":"e"}',
    200: '{"cls":"c"}',
    202: '{"cls":"c"}',
    404: '{"upper":"u"}',
    418: '{"upper":"u"}',
    302: '{"def":"d"}',
    500: '{"def":"d"}'
  }
  for (const [code, body] of Object.entries(expected)) {
    const res = await app.inject({ method: 'GET', url: `/${code}` })
    assert.equal(res.statusCode, Number(code))
    assert.equal(res.headers['content-type'], JSON_TYPE)
    assert.equal(res.body, body, `status ${code}`)
  }
})

test('a status that no key matches is serialized with JSON.stringify', async () => {
  const app = enclave()
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } }, async (req: any, reply: any) => {
    reply.code(202)
    return { a: 'a', b: 2 }
  })
  app.get('/none', async () => ({ a: 'a', b: [1, { c: null }] }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 202)
  assert.equal(res.body, '{"a":"a","b":2}')
  const none = await app.inject({ method: 'GET', url: '/none' })
  assert.equal(none.statusCode, 200)
  assert.equal(none.headers['content-type'], JSON_TYPE)
  assert.equal(none.body, '{"a":"a","b":[1,{"c":null}]}')
})

test('content form: the schema is picked by the reply content type, application/json by default; an unlisted type has no schema', async () => {
  const app = enclave()
  const schema = {
    response: {
      200: {
        content: {
          'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
          'application/vnd.v1+json': { schema: { type: 'object', properties: { fullName: { type: 'string' } } } }
        }
      }
    }
  }
  app.get('/', { schema }, async (req: any, reply: any) => {
    if (req.query.v1 !== undefined) reply.type('application/vnd.v1+json')
    if (req.query.other !== undefined) reply.type('application/vnd.other+json')
    return { name: 'n', fullName: 'f', extra: 'e' }
  })
  const json = await app.inject({ method: 'GET', url: '/' })
  assert.equal(json.statusCode, 200)
  assert.equal(json.body, '{"name":"n"}')
  const v1 = await app.inject({ method: 'GET', url: '/?v1' })
  assert.equal(v1.statusCode, 200)
  assert.equal(v1.body, '{"fullName":"f"}')
  // as in Fastify: a media type the map does not list is serialized by no schema of the status
  const other = await app.inject({ method: 'GET', url: '/?other' })
  assert.equal(other.statusCode, 200)
  assert.equal(other.headers['content-type'], 'application/vnd.other+json; charset=utf-8')
  assert.equal(other.body, '{"name":"n","fullName":"f","extra":"e"}')
})

test('content maps under a class key and under default: the status picks the key, the media type the schema', async () => {
  const app = enclave()
  app.get('/', {
    schema: {
      response: {
        '3xx': { content: { 'application/vnd.v2+json': { schema: { type: 'object', properties: { fullName: { type: 'string' } } } } } },
        default: { content: { 'application/json': { schema: { type: 'object', properties: { details: { type: 'string' } } } } } }
      }
    }
  }, async (req: any, reply: any) => {
    reply.code(Number(req.query.code))
    if (req.query.type !== undefined) reply.type(req.query.type)
    return { fullName: 'F', details: 'D', other: 'O' }
  })
  const cases: Array<[string, number, string]> = [
    ['/?code=300&type=application/vnd.v2%2Bjson', 300, '{"fullName":"F"}'],
    // a media type the map of the status does not list: no schema, as in Fastify
    ['/?code=300&type=application/vnd.v3%2Bjson', 300, '{"fullName":"F","details":"D","other":"O"}'],
    ['/?code=400', 400, '{"details":"D"}'],
    ['/?code=400&type=application/vnd.v6%2Bjson', 400, '{"fullName":"F","details":"D","other":"O"}']
  ]
  for (const [url, status, body] of cases) {
    const res = await app.inject(url)
    assert.deepEqual([res.statusCode, res.body], [status, body], url)
  }
})

test('reply.serializer(fn) overrides the response schema for that reply only', async () => {
  const app = enclave()
  const schema = { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } }
  app.get('/custom', { schema }, async (req: any, reply: any) => {
    reply.type('text/x-custom').serializer((payload: any) => `custom:${payload.a}:${payload.b}`)
    return { a: 'A', b: 'B' }
  })
  app.get('/schema', { schema }, async () => ({ a: 'A', b: 'B' }))
  const res = await app.inject({ method: 'GET', url: '/custom' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'text/x-custom')
  assert.equal(res.body, 'custom:A:B')
  const other = await app.inject({ method: 'GET', url: '/schema' })
  assert.equal(other.body, '{"a":"A"}')
})

test('setReplySerializer is encapsulated and wins over response schemas, as in Fastify', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.setReplySerializer((payload: unknown, statusCode: number) => `child ${statusCode} ${JSON.stringify(payload)}`)
    child.get('/child', async () => ({ a: 1 }))
    child.get('/child-schema', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } }, async () => ({ a: 1, b: 2 }))
    child.register(async (grandchild: any) => {
      grandchild.get('/grandchild', async (req: any, reply: any) => {
        reply.code(404)
        return { g: true }
      })
    })
  })
  app.register(async (sibling: any) => {
    sibling.get('/sibling', async () => ({ s: 1 }))
  })
  app.get('/root', async () => ({ r: 1 }))
  app.register(async (errors: any) => {
    errors.setReplySerializer(() => 'never used for error payloads')
    errors.get('/error', async () => { throw Object.assign(new Error('nope'), { statusCode: 409, code: 'E_CONFLICT' }) })
  })
  const cases: Array<[string, number, string]> = [
    ['/child', 200, 'child 200 {"a":1}'],
    ['/child-schema', 200, 'child 200 {"a":1,"b":2}'],
    ['/grandchild', 404, 'child 404 {"g":true}'],
    ['/sibling', 200, '{"s":1}'],
    ['/root', 200, '{"r":1}'],
    ['/error', 409, '{"statusCode":409,"code":"E_CONFLICT","error":"Conflict","message":"nope"}']
  ]
  for (const [url, status, body] of cases) {
    const res = await app.inject({ method: 'GET', url })
    assert.equal(res.statusCode, status, url)
    assert.equal(res.body, body, url)
  }
})

test('error replies: sent objects use the 4xx schema; thrown errors use the 5xx schema or the default error format', async () => {
  const app = enclave()
  const withSchemas = {
    response: {
      200: { type: 'object', properties: { ok: { type: 'boolean' } } },
      '4xx': { type: 'object', properties: { message: { type: 'string' }, kind: { type: 'string', default: 'client' } } },
      '5xx': { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' } } }
    }
  }
  app.get('/sent-404', { schema: withSchemas }, async (req: any, reply: any) => reply.code(404).send({ message: 'gone', internal: 'x' }))
  app.get('/thrown', { schema: withSchemas }, async () => { throw new Error('boom') })
  app.get('/thrown-400', { schema: withSchemas }, async () => { throw Object.assign(new Error('bad'), { statusCode: 400 }) })
  app.get('/plain-thrown', { schema: { response: { 200: withSchemas.response[200] } } }, async () => { throw new Error('boom') })

  const sent = await app.inject({ method: 'GET', url: '/sent-404' })
  assert.equal(sent.statusCode, 404)
  assert.equal(sent.headers['content-type'], JSON_TYPE)
  assert.equal(sent.body, '{"message":"gone","kind":"client"}')

  const thrown = await app.inject({ method: 'GET', url: '/thrown' })
  assert.equal(thrown.statusCode, 500)
  assert.equal(thrown.headers['content-type'], JSON_TYPE)
  assert.equal(thrown.body, '{"statusCode":500,"message":"boom"}')

  const thrown400 = await app.inject({ method: 'GET', url: '/thrown-400' })
  assert.equal(thrown400.statusCode, 400)
  assert.equal(thrown400.body, '{"message":"bad","kind":"client"}')

  const plain = await app.inject({ method: 'GET', url: '/plain-thrown' })
  assert.equal(plain.statusCode, 500)
  assert.equal(plain.headers['content-type'], JSON_TYPE)
  assert.deepEqual(plain.json(), { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
})

test('a payload the serializer cannot handle gives one well-formed 500, never a partial body', async () => {
  const app = enclave()
  const response = {
    200: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, n: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } }
    }
  }
  app.get('/:case', { schema: { response } }, async (req: any) => {
    switch (req.params.case) {
      case 'not-a-number': return { id: 1, n: 'abc' }
      case 'missing-required': return { n: 1 }
      case 'not-an-array': return { id: 1, tags: 'x' }
      case 'coerced': return { id: 1.9, n: '2.5', tags: [1, true] }
      default: return {}
    }
  })
  app.get('/custom-throws', async (req: any, reply: any) => {
    reply.serializer(() => { throw new Error('custom failed') })
    return { a: 1 }
  })
  const failures: Record<string, string> = {
    'not-a-number': 'The value "abc" cannot be converted to a number.',
    'missing-required': '"id" is required!',
    'not-an-array': "The value of '#/properties/tags' does not match schema definition."
  }
  for (const [name, message] of Object.entries(failures)) {
    const res = await app.inject({ method: 'GET', url: `/${name}` })
    assert.equal(res.statusCode, 500, name)
    assert.equal(res.headers['content-type'], JSON_TYPE, name)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message }, name)
  }
  const coerced = await app.inject({ method: 'GET', url: '/coerced' })
  assert.equal(coerced.statusCode, 200)
  assert.equal(coerced.body, '{"id":1,"n":2.5,"tags":["1","true"]}')
  const custom = await app.inject({ method: 'GET', url: '/custom-throws' })
  assert.equal(custom.statusCode, 500)
  assert.deepEqual(custom.json(), { statusCode: 500, error: 'Internal Server Error', message: 'custom failed' })
})

test('a 5xx schema that fails on the error payload does not loop: one 500 in the default format', async () => {
  const app = enclave()
  const response = {
    200: { type: 'object', properties: { n: { type: 'number' } } },
    '5xx': { type: 'object', required: ['missing'], properties: { missing: { type: 'string' } } }
  }
  app.get('/', { schema: { response } }, async () => ({ n: 'abc' }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 500)
  assert.equal(res.headers['content-type'], JSON_TYPE)
  assert.equal(res.json().statusCode, 500)
  // Fastify's body for this case, without `error`
  assert.deepEqual(Object.keys(res.json()), ['statusCode', 'code', 'message'])
  assert.equal(res.json().code, 'FST_ERR_FAILED_ERROR_SERIALIZATION')
})

test('preSerialization changes the payload before the schema; onSend sees the serialized string', async () => {
  const app = enclave()
  const seen: unknown[] = []
  app.addHook('preSerialization', async (req: any, reply: any, payload: any) => ({ ...payload, added: 'by hook' }))
  app.addHook('onSend', async (req: any, reply: any, payload: unknown) => {
    seen.push(payload)
    return payload
  })
  app.get('/', {
    schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' }, added: { type: 'string' } } } } }
  }, async () => ({ a: 'a', b: 'b' }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"a":"a","added":"by hook"}')
  assert.deepEqual(seen, ['{"a":"a","added":"by hook"}'])
})

test('invalid response schemas fail at ready with Fastify\'s messages; httpStatus names the key', async () => {
  const notNested = 'Failed building the serialization schema for GET: /bad, due to error response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }'
  const cases: Array<[Record<string, unknown>, string, string, string | undefined]> = [
    [{ 200: { type: 'object', properties: { x: { $ref: 'missing#' } } } }, 'FST_ERR_SCH_SERIALIZATION_BUILD',
      'Failed building the serialization schema for GET: /bad, due to error Cannot resolve ref "missing#". Schema with id "missing" is not found.', '200'],
    [{ 600: { type: 'object' } }, 'FST_ERR_SCH_SERIALIZATION_BUILD', notNested, '600'],
    // a schema where the map of statuses belongs: its first key is not a status
    [{ type: 'object', properties: {} }, 'FST_ERR_SCH_SERIALIZATION_BUILD', notNested, 'type'],
    [{ 200: { content: { 'application/json': { schema: { type: 'object' } }, 'text/csv': {} } } }, 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA',
      "Schema is missing for the content type 'text/csv'", undefined]
  ]
  for (const [response, code, message, httpStatus] of cases) {
    const app = enclave()
    app.get('/bad', { schema: { response } }, async () => ({}))
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, code)
      assert.equal(err.message, message)
      assert.equal(err.httpStatus, httpStatus)
      if (code === 'FST_ERR_SCH_SERIALIZATION_BUILD' && message === notNested) assert.equal(err.cause.code, 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX')
      return true
    })
  }
})

test('a content map with a single media type and no schema is a property named content (shorthand), as in Fastify', async () => {
  const app = enclave()
  app.get('/', { schema: { response: { 200: { content: { 'application/json': {} } }, 201: { content: { type: 'string' } } } } }, async (req: any, reply: any) => {
    if (req.query.created !== undefined) reply.code(201)
    return { content: req.query.created !== undefined ? 'made' : { x: 1 }, other: 2 }
  })
  const ok = await app.inject({ method: 'GET', url: '/' })
  assert.deepEqual([ok.statusCode, ok.body], [200, '{"content":{"x":1}}'])
  const created = await app.inject({ method: 'GET', url: '/?created' })
  assert.deepEqual([created.statusCode, created.body], [201, '{"content":"made"}'])
})
