import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

const fooSchema = { type: 'object', properties: { foo: { type: 'string' } }, required: ['foo'] }

describe('request.getValidationFunction / compileValidationSchema / validateInput', () => {
  test('getValidationFunction(part) returns the route validators; errors are on the function', async () => {
    const app = enclave()
    app.post('/:id', {
      schema: {
        body: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 2 } } },
        params: { type: 'object', properties: { id: { type: 'integer' } } },
        headers: { type: 'object', properties: { 'x-a': { type: 'string' } }, required: ['x-a'] }
      }
    }, (req: any) => {
      const body = req.getValidationFunction('body')
      const ok = body({ n: 1 })
      const okErrors = body.errors
      const bad = body({ n: 'x' })
      return {
        ok,
        okErrors,
        bad,
        badKeyword: body.errors[0].keyword,
        query: [req.getValidationFunction('querystring')({ q: 'abc' }), req.getValidationFunction('query') === req.getValidationFunction('querystring')],
        params: req.getValidationFunction('params')({ id: '7' }),
        headers: req.getValidationFunction('headers')({}),
        unknown: req.getValidationFunction('cookies') === undefined
      }
    })
    const res = await app.inject({ method: 'POST', url: '/1', headers: { 'x-a': 'a' }, payload: { n: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), {
      ok: true, okErrors: null, bad: false, badKeyword: 'type', query: [false, true], params: true, headers: false, unknown: true
    })
  })

  test('a route without schemas has no part validators', async () => {
    const app = enclave()
    app.get('/', (req: any) => ({ parts: ['body', 'querystring', 'params', 'headers'].map((p) => req.getValidationFunction(p) === undefined) }))
    assert.deepEqual((await app.inject('/')).json(), { parts: [true, true, true, true] })
  })

  test('compileValidationSchema compiles with Ajv by default; getValidationFunction(schema) finds what it compiled', async () => {
    const app = enclave()
    app.get('/a', (req: any) => {
      const before = req.getValidationFunction(fooSchema)
      const fn = req.compileValidationSchema(fooSchema)
      return {
        before: before === undefined,
        same: req.compileValidationSchema(fooSchema) === fn,
        found: req.getValidationFunction(fooSchema) === fn,
        // Fastify's Ajv baseline: coercion of the number to a string
        results: [fn({ foo: 'bar' }), fn({ foo: 1 }), fn({})]
      }
    })
    app.get('/b', (req: any) => ({ seenHere: req.getValidationFunction(fooSchema) !== undefined }))
    assert.deepEqual((await app.inject('/a')).json(), { before: true, same: true, found: true, results: [true, true, false] })
    assert.deepEqual((await app.inject('/b')).json(), { seenHere: false }, 'the cache belongs to the route that compiled')
  })

  test('the compiler runs once per schema object and route, across requests', async () => {
    const app = enclave()
    let compiled = 0
    app.setValidatorCompiler(() => {
      compiled++
      return () => true
    })
    const fns: unknown[] = []
    app.get('/', (req: any) => {
      fns.push(req.compileValidationSchema(fooSchema))
      return { copyIsNew: req.compileValidationSchema({ ...fooSchema }) !== fns[fns.length - 1] }
    })
    assert.deepEqual((await app.inject('/')).json(), { copyIsNew: true })
    assert.deepEqual((await app.inject('/')).json(), { copyIsNew: true })
    assert.equal(fns[0], fns[1])
    // fooSchema once, then a new copy per request
    assert.equal(compiled, 3)
  })

  test('the route validatorCompiler, else the context one, compiles with the httpPart given', async () => {
    const app = enclave()
    const calls: any[] = []
    app.get('/route', {
      validatorCompiler: (args: any) => {
        calls.push({ compiler: 'route', method: args.method, url: args.url, httpPart: args.httpPart, schema: args.schema })
        return () => true
      }
    }, (req: any) => ({ valid: req.compileValidationSchema({ type: 'null' }, 'body')('anything') }))
    app.register(async (child: any) => {
      child.setValidatorCompiler((args: any) => {
        calls.push({ compiler: 'context', method: args.method, url: args.url, httpPart: args.httpPart, schema: args.schema })
        return (data: unknown) => data === 'yes'
      })
      const schema = { const: 1 }
      child.get('/ctx', (req: any) => ({ valid: [req.validateInput('yes', schema), req.validateInput('no', schema)] }))
    })
    assert.deepEqual((await app.inject('/route')).json(), { valid: true })
    assert.deepEqual((await app.inject('/ctx')).json(), { valid: [true, false] })
    assert.deepEqual(calls, [
      { compiler: 'route', method: 'GET', url: '/route', httpPart: 'body', schema: { type: 'null' } },
      { compiler: 'context', method: 'GET', url: '/ctx', httpPart: undefined, schema: { const: 1 } }
    ])
  })

  test('validateInput: a part the route validates wins over the schema; otherwise the schema is compiled', async () => {
    const app = enclave()
    const numberSchema = { type: 'number' }
    app.post('/', { schema: { body: fooSchema } }, (req: any) => ({
      bySchema: [req.validateInput({ foo: 'x' }, fooSchema), req.validateInput(1, numberSchema), req.validateInput('x', numberSchema)],
      byPart: [req.validateInput({ foo: 'x' }, 'body'), req.validateInput({}, 'body')],
      partWins: req.validateInput({ foo: 'x' }, numberSchema, 'body'),
      partMissing: req.validateInput({ q: 1 }, numberSchema, 'querystring'),
      compiledForPart: req.getValidationFunction(numberSchema) !== undefined
    }))
    const res = await app.inject({ method: 'POST', url: '/', payload: { foo: 'a' } })
    assert.deepEqual(res.json(), {
      bySchema: [true, true, false], byPart: [true, false], partWins: true, partMissing: false, compiledForPart: true
    })
  })

  test('validateInput with a part the route lacks and no schema throws FST_ERR_REQ_INVALID_VALIDATION_INVOCATION', async () => {
    const app = enclave()
    app.get('/', (req: any) => {
      try {
        req.validateInput({}, 'body')
        return { thrown: false }
      } catch (err: any) {
        return { code: err.code, message: err.message }
      }
    })
    assert.deepEqual((await app.inject('/')).json(), {
      code: 'FST_ERR_REQ_INVALID_VALIDATION_INVOCATION',
      message: 'Invalid validation invocation. Missing validation function for HTTP part "body" nor schema provided.'
    })
  })

  test('schemas compiled on demand can reference shared schemas', async () => {
    const app = enclave()
    app.addSchema({ $id: 'point', type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] })
    app.get('/', (req: any) => ({ valid: [req.validateInput({ x: 1 }, { $ref: 'point#' }), req.validateInput({}, { $ref: 'point#' })] }))
    assert.deepEqual((await app.inject('/')).json(), { valid: [true, false] })
  })
})

describe('reply.getSerializationFunction / compileSerializationSchema / serializeInput', () => {
  /** Sends the results as JSON text: the route's own response schema would otherwise filter them. */
  const sendResults = (reply: any, results: unknown): any => reply.type('application/json').send(JSON.stringify(results))
  const response = {
    200: { type: 'object', properties: { a: { type: 'string' } } },
    '4xx': { type: 'object', properties: { e: { type: 'string' } } },
    201: { content: { 'application/vnd.v1+json': { schema: { type: 'object', properties: { v: { type: 'integer' } } } } } }
  }

  test('getSerializationFunction(status) returns the serializer declared under that exact key', async () => {
    const app = enclave()
    app.get('/', { schema: { response } }, (_req: any, reply: any) => {
      const input = { a: 'x', e: 'y', v: 1, extra: true }
      return sendResults(reply, {
        200: reply.getSerializationFunction(200)(input),
        '"200"': reply.getSerializationFunction('200')(input),
        '4XX': reply.getSerializationFunction('4XX')(input),
        404: reply.getSerializationFunction(404) === undefined,
        '201 v1': reply.getSerializationFunction(201, 'application/vnd.v1+json')(input),
        '201 alone': reply.getSerializationFunction(201) === undefined,
        '200 with a type': reply.getSerializationFunction(200, 'application/json') === undefined
      })
    })
    assert.deepEqual((await app.inject('/')).json(), {
      200: '{"a":"x"}', '"200"': '{"a":"x"}', '4XX': '{"e":"y"}', 404: true, '201 v1': '{"v":1}', '201 alone': true, '200 with a type': true
    })
  })

  test('compileSerializationSchema uses fast-json-stringify by default and caches by schema object per route', async () => {
    const app = enclave()
    const schema = { type: 'object', properties: { name: { type: 'string' } } }
    app.get('/a', (_req: any, reply: any) => {
      const before = reply.getSerializationFunction(schema)
      const fn = reply.compileSerializationSchema(schema)
      return reply.send({
        before: before === undefined,
        out: fn({ name: 'n', secret: 's' }),
        same: reply.compileSerializationSchema(schema) === fn,
        found: reply.getSerializationFunction(schema) === fn
      })
    })
    app.get('/b', (_req: any, reply: any) => reply.send({ seenHere: reply.getSerializationFunction(schema) !== undefined }))
    assert.deepEqual((await app.inject('/a')).json(), { before: true, out: '{"name":"n"}', same: true, found: true })
    assert.deepEqual((await app.inject('/b')).json(), { seenHere: false })
  })

  test('the route serializerCompiler, else the context one, receives the status and content type', async () => {
    const app = enclave()
    const calls: any[] = []
    app.get('/route', {
      serializerCompiler: (input: any) => {
        calls.push({ compiler: 'route', ...input })
        return () => 'route'
      }
    }, (_req: any, reply: any) => reply.send({ out: reply.compileSerializationSchema({ type: 'string' }, 201, 'text/x')('x') }))
    app.register(async (child: any) => {
      child.setSerializerCompiler((input: any) => {
        calls.push({ compiler: 'context', ...input })
        return (data: any) => `<${data}>`
      })
      child.get('/ctx', (_req: any, reply: any) => reply.send({ out: reply.serializeInput('x', { type: 'string' }) }))
    })
    assert.deepEqual((await app.inject('/route')).json(), { out: 'route' })
    assert.deepEqual((await app.inject('/ctx')).json(), { out: '<x>' })
    assert.deepEqual(calls, [
      { compiler: 'route', schema: { type: 'string' }, method: 'GET', url: '/route', httpStatus: '201', contentType: 'text/x' },
      { compiler: 'context', schema: { type: 'string' }, method: 'GET', url: '/ctx', httpStatus: undefined, contentType: undefined }
    ])
  })

  test('serializeInput: by schema, by status, status and media type; the route status wins over a schema', async () => {
    const app = enclave()
    const nameOnly = { type: 'object', properties: { name: { type: 'string' } } }
    app.get('/', { schema: { response } }, (_req: any, reply: any) => {
      const input = { a: 'x', v: 2, name: 'n' }
      return sendResults(reply, {
        schema: reply.serializeInput(input, nameOnly),
        status: reply.serializeInput(input, 200),
        media: reply.serializeInput(input, '201', 'application/vnd.v1+json'),
        statusWins: reply.serializeInput(input, nameOnly, 200),
        noRouteStatus: reply.serializeInput(input, nameOnly, 202)
      })
    })
    assert.deepEqual((await app.inject('/')).json(), {
      schema: '{"name":"n"}', status: '{"a":"x"}', media: '{"v":2}', statusWins: '{"a":"x"}', noRouteStatus: '{"name":"n"}'
    })
  })

  test('serializeInput for a status without a serializer throws FST_ERR_MISSING_(CONTENTTYPE_)SERIALIZATION_FN', async () => {
    const app = enclave()
    app.get('/', { schema: { response } }, (_req: any, reply: any) => {
      const errors: string[][] = []
      for (const args of [[404], [200, 'text/html']]) {
        try {
          reply.serializeInput({}, ...args)
        } catch (err: any) {
          errors.push([err.code, err.message])
        }
      }
      return sendResults(reply, errors)
    })
    assert.deepEqual((await app.inject('/')).json(), [
      ['FST_ERR_MISSING_SERIALIZATION_FN', 'Missing serialization function. Key "404"'],
      ['FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', 'Missing serialization function. Key "200:text/html"']
    ])
  })
})
