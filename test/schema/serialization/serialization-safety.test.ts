import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../../helpers'

// fast-json-stringify generates code from schemas: schema-derived strings must stay data.
const hostileNames = [
  'a"]); globalThis.__enclavePwned = 1; //',
  "b']); globalThis.__enclavePwned = 2; //",
  'c`); globalThis.__enclavePwned = 3; //${globalThis.__enclavePwned = 4}',
  'line\u2028sep\u2029par',
  '</script><script>globalThis.__enclavePwned = 5</script>',
  'back\\slash\\',
  'new\nline\r\ttab',
  '\\"); globalThis.__enclavePwned = 6; //',
  '__proto__x',
  'emoji 🎉 and lone \ud800'
]

test('hostile property names, defaults, enum and const values serialize as data and execute nothing', async () => {
  const app = enclave()
  const properties: Record<string, unknown> = {}
  const payload: Record<string, unknown> = {}
  for (const [i, name] of hostileNames.entries()) {
    properties[name] = { type: 'string' }
    payload[name] = `${name} value ${i}`
  }
  properties['"); globalThis.__enclavePwned = 7; //default'] = { type: 'string', default: '"); globalThis.__enclavePwned = 8; //' }
  properties.enumerated = { type: 'string', enum: ["'); globalThis.__enclavePwned = 9; //"] }
  properties.constant = { const: "'); globalThis.__enclavePwned = 10; //</script>" }
  payload.enumerated = "'); globalThis.__enclavePwned = 9; //"
  payload.constant = 'anything'
  app.get('/', {
    schema: { response: { 200: { type: 'object', properties, required: [hostileNames[0]] } } }
  }, async () => payload)

  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  const expected: Record<string, unknown> = { ...payload }
  expected['"); globalThis.__enclavePwned = 7; //default'] = '"); globalThis.__enclavePwned = 8; //'
  expected.constant = "'); globalThis.__enclavePwned = 10; //</script>"
  const body = res.json()
  assert.deepEqual(Object.keys(body).sort(), Object.keys(expected).sort())
  for (const key of Object.keys(expected)) {
    // a lone surrogate is written as an escape and reads back as U+FFFD-free JSON text; compare code units
    assert.equal(body[key], expected[key], JSON.stringify(key))
  }
  assert.equal((globalThis as any).__enclavePwned, undefined)
})

test('hostile string values are escaped: the body always parses back to the payload', async () => {
  const app = enclave()
  const values = ['"', '\\', '</script>', '\u2028\u2029', '\u0000\u001f', '"}]); x(); //', 'é €', '\ud83d']
  app.get('/', {
    schema: { response: { 200: { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } }, one: { type: 'string' } } } } }
  }, async () => ({ list: values, one: values.join('') }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { list: values, one: values.join('') })
})

test('schema values that cannot be safely compiled are rejected at ready', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ type: 'object', patternProperties: { '"); globalThis.__enclavePwned = 11; //(': { type: 'string' } } }, /patternProperties/],
    [{ type: 'object', properties: { x: { $ref: '"); globalThis.__enclavePwned = 12; //#' } } }, /\$ref/],
    [{ $id: "'); globalThis.__enclavePwned = 13; //", type: 'object', properties: { x: { type: 'string' } } }, /\$id/],
    [{ type: 'object', properties: { x: { type: '"); globalThis.__enclavePwned = 14; //' } } }, /type/],
    // fast-json-stringify 5 writes const strings unescaped and cannot compile raw line terminators in patterns
    [{ type: 'object', properties: { x: { const: 'say "hi"' } } }, /const "say \\"hi\\"".*enum/],
    [{ type: 'object', properties: { x: { type: 'array', items: { const: { 'k\\': 1 } } } } }, /const/],
    [{ type: 'object', patternProperties: { 'a\u2028b': { type: 'string' } } }, /line terminator/]
  ]
  for (const [schema, message] of cases) {
    const app = enclave()
    app.get('/', { schema: { response: { 200: schema } } }, async () => ({ x: 'x' }))
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_SERIALIZATION_BUILD')
      assert.match(err.message, /^Failed building the serialization schema for GET: \/, due to error /)
      assert.match(err.message, message)
      assert.equal(err.httpStatus, '200')
      return true
    })
  }
  assert.equal((globalThis as any).__enclavePwned, undefined)
})

test('an untyped property holding a function or symbol gives a 500, never invalid JSON', async () => {
  const app = enclave()
  const response = {
    200: {
      type: 'object',
      properties: { anything: {}, list: { type: 'array' }, choice: { enum: ['a', 'b'] } }
    }
  }
  app.get('/:case', { schema: { response } }, async (req: any) => {
    switch (req.params.case) {
      case 'function': return { anything: () => 1 }
      case 'symbol': return { list: [Symbol('s')] }
      case 'enum': return { choice: () => 'a' }
      case 'text': return { anything: 'undefined', list: [1, 'undefined', { u: undefined }], choice: 'a' }
      default: return { anything: { deep: () => 1, kept: [undefined] } }
    }
  })
  for (const name of ['function', 'symbol', 'enum']) {
    const res = await app.inject({ method: 'GET', url: `/${name}` })
    assert.equal(res.statusCode, 500, name)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', name)
    assert.equal(res.json().code, 'FST_ERR_RESPONSE_NOT_JSON', name)
  }
  const text = await app.inject({ method: 'GET', url: '/text' })
  assert.equal(text.statusCode, 200)
  assert.equal(text.body, '{"anything":"undefined","list":[1,"undefined",{}],"choice":"a"}')
  const nested = await app.inject({ method: 'GET', url: '/nested' })
  assert.equal(nested.statusCode, 200)
  assert.equal(nested.body, '{"anything":{"kept":[null]}}')
})
