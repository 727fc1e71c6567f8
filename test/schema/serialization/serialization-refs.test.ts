import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../../helpers'

const userSchema = {
  $id: 'http://example.com/user.json',
  type: 'object',
  properties: { name: { type: 'string' }, address: { $id: '#address', type: 'object', properties: { city: { type: 'string' } } } },
  definitions: { age: { type: 'integer' } }
}
const plainSchema = {
  $id: 'plain',
  type: 'object',
  properties: { a: { type: 'string' }, inner: { $id: '#inner', type: 'object', properties: { z: { type: 'boolean' } } } },
  definitions: { d: { type: 'string' } }
}

test('every $ref form resolves against shared schemas of the route context and its ancestors', async () => {
  const app = enclave()
  app.addSchema(userSchema)
  app.register(async (child: any) => {
    child.addSchema(plainSchema)
    child.register(async (grandchild: any) => {
      grandchild.addSchema({ $id: 'local', type: 'object', properties: { l: { type: 'string' } } })
      grandchild.get('/refs', {
        schema: {
          response: {
            200: {
              type: 'object',
              definitions: { own: { type: 'string' }, anchored: { $id: '#anchored', type: 'integer' } },
              properties: {
                ownDefinition: { $ref: '#/definitions/own' },
                ownAnchor: { $ref: '#anchored' },
                uriWhole: { $ref: 'http://example.com/user.json#' },
                uriDefinition: { $ref: 'http://example.com/user.json#/definitions/age' },
                uriAnchor: { $ref: 'http://example.com/user.json#address' },
                plainWhole: { $ref: 'plain#' },
                plainDefinition: { $ref: 'plain#/definitions/d' },
                plainAnchor: { $ref: 'plain#inner' },
                plainProperty: { $ref: 'plain#/properties/a' },
                same: { $ref: 'local#' }
              }
            }
          }
        }
      }, async () => ({
        ownDefinition: 'o',
        ownAnchor: 4.8,
        uriWhole: { name: 'n', secret: 's', address: { city: 'c', zip: 'z' } },
        uriDefinition: 3.5,
        uriAnchor: { city: 'c2', zip: 'z' },
        plainWhole: { a: 'a', inner: { z: 1 }, hidden: true },
        plainDefinition: 'd',
        plainAnchor: { z: 0, y: 1 },
        plainProperty: 'p',
        same: { l: 'l', m: 'm' },
        notInSchema: 1
      }))
    })
  })
  const res = await app.inject({ method: 'GET', url: '/refs' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(res.json(), {
    ownDefinition: 'o',
    ownAnchor: 4,
    uriWhole: { name: 'n', address: { city: 'c' } },
    uriDefinition: 3,
    uriAnchor: { city: 'c2' },
    plainWhole: { a: 'a', inner: { z: true } },
    plainDefinition: 'd',
    plainAnchor: { z: false },
    plainProperty: 'p',
    same: { l: 'l' }
  })
})

test('a whole response schema can be a $ref, and shared schemas may reference each other', async () => {
  const app = enclave()
  app.addSchema({ $id: 'item', type: 'object', properties: { id: { type: 'integer' }, owner: { $ref: 'owner#' } } })
  app.addSchema({ $id: 'owner', type: 'object', properties: { login: { type: 'string' } } })
  app.get('/items', { schema: { response: { 200: { type: 'array', items: { $ref: 'item#' } } } } }, async () => [
    { id: 1, owner: { login: 'a', token: 't' }, x: 1 },
    { id: 2 }
  ])
  app.get('/item', { schema: { response: { 200: { $ref: 'item#' } } } }, async () => ({ id: 3, x: 1 }))
  const items = await app.inject({ method: 'GET', url: '/items' })
  assert.equal(items.statusCode, 200)
  assert.equal(items.body, '[{"id":1,"owner":{"login":"a"}},{"id":2}]')
  const item = await app.inject({ method: 'GET', url: '/item' })
  assert.equal(item.body, '{"id":3}')
})

test('shared schemas of a sibling or a descendant are not visible: ready fails naming the route', async () => {
  const app = enclave()
  app.register(async (sibling: any) => {
    sibling.addSchema({ $id: 'hidden', type: 'object', properties: { a: { type: 'string' } } })
  })
  app.register(async (child: any) => {
    child.get('/uses-hidden', { schema: { response: { '2xx': { $ref: 'hidden#' } } } }, async () => ({}))
  })
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_SERIALIZATION_BUILD')
    assert.equal(err.message, 'Failed building the serialization schema for GET: /uses-hidden, due to error Cannot resolve ref "hidden#". Schema with id "hidden" is not found.')
    assert.equal(err.httpStatus, '2xx')
    return true
  })
})

test('keywords: nullable, type arrays, enum, nested arrays and objects, additional and pattern properties', async () => {
  const app = enclave()
  app.get('/', {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            nullableString: { type: 'string', nullable: true },
            nonNullable: { type: 'string' },
            numberOrNull: { type: ['number', 'null'] },
            color: { type: 'string', enum: ['red', 'green'] },
            matrix: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
            nested: {
              type: 'object',
              properties: { deep: { type: 'object', properties: { v: { type: 'boolean' } } } }
            },
            extra: {
              type: 'object',
              properties: { known: { type: 'string' } },
              patternProperties: { '^x-': { type: 'string' } },
              additionalProperties: { type: 'integer' }
            },
            closed: { type: 'object', properties: { k: { type: 'string' } }, additionalProperties: false }
          }
        }
      }
    }
  }, async () => ({
    nullableString: null,
    nonNullable: null,
    numberOrNull: null,
    color: 'red',
    matrix: [[1.9, 2], [3]],
    nested: { deep: { v: 1, w: 2 }, drop: 1 },
    extra: { known: 'k', 'x-a': 1, other: '7' },
    closed: { k: 'k', z: 1 }
  }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body,
    '{"nullableString":null,"nonNullable":"","numberOrNull":null,"color":"red","matrix":[[1,2],[3]],' +
    '"nested":{"deep":{"v":true}},"extra":{"known":"k","x-a":"1","other":7},"closed":{"k":"k"}}')
})

test('keywords: oneOf, anyOf and allOf pick or merge the matching subschemas', async () => {
  const app = enclave()
  const cat = { type: 'object', properties: { kind: { const: 'cat' }, meows: { type: 'boolean' } }, required: ['kind'] }
  const dog = { type: 'object', properties: { kind: { const: 'dog' }, barks: { type: 'integer' } }, required: ['kind'] }
  app.get('/', {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            one: { type: 'array', items: { oneOf: [cat, dog] } },
            any: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            all: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'number' } } }] }
          }
        }
      }
    }
  }, async () => ({
    one: [{ kind: 'dog', barks: 3, meows: true }, { kind: 'cat', meows: true, barks: 1 }],
    any: null,
    all: { a: 'a', b: 2, c: 3 }
  }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '{"one":[{"kind":"dog","barks":3},{"kind":"cat","meows":true}],"any":null,"all":{"a":"a","b":2}}')
})
