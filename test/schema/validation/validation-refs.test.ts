import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../../helpers'

const address = { $id: '#address', type: 'object', required: ['city'], properties: { city: { type: 'string', maxLength: 10 } } }

/** The same shared schema under an absolute-URI `$id` and a plain one. */
const idStyles = [
  ['absolute URI', 'http://example.com/common.json'],
  ['plain name', 'common']
] as const

function sharedSchema (id: string) {
  return {
    $id: id,
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', maxLength: 5 }, home: address },
    definitions: { age: { type: 'integer', minimum: 18 } }
  }
}

test('$ref to an $id (#name) and to #/definitions inside the same schema', async () => {
  const app = enclave()
  const body = {
    type: 'object',
    definitions: { foo: address },
    properties: { home: { $ref: '#address' }, work: { $ref: '#/definitions/foo' } }
  }
  app.post('/', { schema: { body } }, async (req: any) => req.body)
  let res = await app.inject({ method: 'POST', url: '/', payload: { home: {} } })
  assert.equal(res.json().message, "body/home must have required property 'city'")
  res = await app.inject({ method: 'POST', url: '/', payload: { home: { city: 'Rome' }, work: { city: 'far too long a city' } } })
  assert.equal(res.json().message, 'body/work/city must NOT have more than 10 characters')
  res = await app.inject({ method: 'POST', url: '/', payload: { home: { city: 'Rome' }, work: { city: 'Oslo' } } })
  assert.deepEqual([res.statusCode, res.json()], [200, { home: { city: 'Rome' }, work: { city: 'Oslo' } }])
})

for (const [style, id] of idStyles) {
  test(`every $ref form to a shared schema with a ${style} $id`, async () => {
    const app = enclave()
    app.addSchema(sharedSchema(id))
    app.post('/whole', { schema: { body: { $ref: `${id}#` } } }, async (req: any) => req.body)
    app.post('/parts', {
      schema: {
        body: {
          type: 'object',
          properties: {
            age: { $ref: `${id}#/definitions/age` },
            home: { $ref: `${id}#address` },
            nick: { $ref: `${id}#/properties/name` }
          }
        },
        // the same shared schema as the whole of another part
        querystring: { $ref: `${id}#` }
      }
    }, async (req: any) => ({ body: req.body, query: req.query }))

    const cases: Array<[string, string, unknown, number, unknown]> = [
      ['/whole', '', {}, 400, "body must have required property 'name'"],
      ['/whole', '', { name: 'toolong' }, 400, 'body/name must NOT have more than 5 characters'],
      ['/whole', '', { name: 'Ada', home: {} }, 400, "body/home must have required property 'city'"],
      ['/whole', '', { name: 'Ada', home: { city: 'Rome' } }, 200, { name: 'Ada', home: { city: 'Rome' } }],
      ['/parts', '?name=Bob', { age: 17 }, 400, 'body/age must be >= 18'],
      ['/parts', '?name=Bob', { home: {} }, 400, "body/home must have required property 'city'"],
      ['/parts', '?name=Bob', { nick: 'toolong' }, 400, 'body/nick must NOT have more than 5 characters'],
      ['/parts', '', { age: 20 }, 400, "querystring must have required property 'name'"],
      ['/parts', '?name=Bob', { age: '20', home: { city: 'Oslo' }, nick: 'b' }, 200,
        { body: { age: 20, home: { city: 'Oslo' }, nick: 'b' }, query: { name: 'Bob' } }]
    ]
    for (const [path, query, payload, status, expected] of cases) {
      const res = await app.inject({ method: 'POST', url: path + query, payload: payload as object })
      assert.equal(res.statusCode, status, `${path}${query} ${JSON.stringify(payload)}`)
      assert.deepEqual(status === 400 ? res.json().message : res.json(), expected)
    }
  })
}

test('shared schemas may reference each other, across ancestor contexts', async () => {
  const app = enclave()
  app.addSchema({ $id: 'http://example.com/address', type: 'object', required: ['city'], properties: { city: { type: 'string' } } })
  app.register(async (child: any) => {
    child.addSchema({ $id: 'person', type: 'object', properties: { address: { $ref: 'http://example.com/address#' } } })
    child.post('/', { schema: { body: { $ref: 'person#' } } }, async (req: any) => req.body)
  })
  let res = await app.inject({ method: 'POST', url: '/', payload: { address: {} } })
  assert.equal(res.json().message, "body/address must have required property 'city'")
  res = await app.inject({ method: 'POST', url: '/', payload: { address: { city: 'Rome' } } })
  assert.deepEqual(res.json(), { address: { city: 'Rome' } })
})

test('the $ref forms of the docs: http://example.com# and a root $ref for two parts', async () => {
  const app = enclave()
  app.addSchema({ $id: 'http://example.com/', type: 'object', properties: { hello: { type: 'string', maxLength: 3 } } })
  app.addSchema({ $id: 'commonSchema', type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'] })
  app.post('/a', { schema: { body: { type: 'array', items: { $ref: 'http://example.com#/properties/hello' } } } }, async (req: any) => req.body)
  app.post('/b', { schema: { body: { $ref: 'commonSchema#' }, headers: { $ref: 'commonSchema#' } } }, async (req: any) => req.body)
  let res = await app.inject({ method: 'POST', url: '/a', payload: ['abc', 'abcd'] })
  assert.equal(res.json().message, 'body/1 must NOT have more than 3 characters')
  res = await app.inject({ method: 'POST', url: '/b', payload: { hello: 'x' } })
  assert.equal(res.json().message, "headers must have required property 'hello'")
  res = await app.inject({ method: 'POST', url: '/b', payload: { hello: 'x' }, headers: { hello: 'y' } })
  assert.deepEqual([res.statusCode, res.json()], [200, { hello: 'x' }])
})

test('an unresolvable $ref fails ready() with Fastify\'s message naming the route and the reference; httpPart names the part', async () => {
  const app = enclave()
  app.addSchema({ $id: 'user', type: 'object', definitions: {} })
  app.post('/broken', { schema: { querystring: { type: 'object', properties: { a: { $ref: 'user#/definitions/missing' } } } } }, async () => 'ok')
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
    assert.equal(err.message, "Failed building the validation schema for POST: /broken, due to error can't resolve reference user#/definitions/missing from id #")
    assert.equal(err.httpPart, 'querystring')
    return true
  })
})

test('a $ref to a shared schema of a sibling context does not resolve', async () => {
  const app = enclave()
  app.register(async (one: any) => { one.addSchema({ $id: 'only-in-one', type: 'string' }) })
  app.register(async (two: any) => {
    two.post('/', { schema: { body: { type: 'object', properties: { a: { $ref: 'only-in-one#' } } } } }, async () => 'ok')
  })
  await assert.rejects(app.ready(), /only-in-one/)
})

test('sibling contexts may each add a different schema under the same $id', async () => {
  const app = enclave()
  app.register(async (one: any) => {
    one.addSchema({ $id: 'thing', type: 'object', properties: { v: { type: 'integer' } } })
    one.post('/one', { schema: { body: { $ref: 'thing#' } } }, async (req: any) => req.body)
  })
  app.register(async (two: any) => {
    two.addSchema({ $id: 'thing', type: 'object', properties: { v: { type: 'string', maxLength: 1 } } })
    two.post('/two', { schema: { body: { $ref: 'thing#' } } }, async (req: any) => req.body)
  })
  let res = await app.inject({ method: 'POST', url: '/one', payload: { v: 'x' } })
  assert.equal(res.json().message, 'body/v must be integer')
  res = await app.inject({ method: 'POST', url: '/two', payload: { v: 'xy' } })
  assert.equal(res.json().message, 'body/v must NOT have more than 1 characters')
  res = await app.inject({ method: 'POST', url: '/two', payload: { v: 5 } })
  assert.deepEqual(res.json(), { v: '5' })
})
