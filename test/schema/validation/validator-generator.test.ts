/**
 * Enclave's validator generator and its interpreter against Ajv 8 itself (with Enclave's baseline options): for every
 * schema the generator covers, all must answer every input alike — the result, the error objects (compared as JSON, so key
 * order counts), and what the data became (coercions, defaults, removed properties). Seeded random schemas and
 * inputs, plus hand-picked cases at each keyword's edges.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { buildAjv } from '../../../src/schema/validation/ajv-compiler'
import { instantiateValidator, validatorFromCachedFactory, validatorParams } from '../../../src/schema/validation/generated-validator'
import { generateValidator } from '../../../src/schema/validation/validator-generator'
import { generatorCovers } from '../../../src/schema/validation/validator-subset'
import { defaultFormats } from '../../../src/schema/validation/validator-runtime'
import { tieredValidator } from '../../../src/schema/validation/tiered-validator'
import { interpretValidator } from '../../../src/schema/validation/validator-interpreter'
import { enclave, mulberry32 } from '../../helpers'

const warnings: unknown[] = []
const logger = { log () {}, warn (...args: unknown[]) { warnings.push(args) }, error (...args: unknown[]) { warnings.push(args) } }
const ajv = buildAjv({ customOptions: { logger }, plugins: [] }, {})

/** Runs both validators on copies of each input and asserts they agree; returns how many inputs were valid. */
function agree (schema: Record<string, any>, inputs: unknown[]): number {
  assert.ok(generatorCovers(schema, defaultFormats()), `not covered: ${JSON.stringify(schema)}`)
  const code = generateValidator(schema, defaultFormats)
  const generated = instantiateValidator(code, structuredClone(schema)) as any
  // as a warm start makes it: the factory from the compile cache, given the schema's JSON
  const fromCache = validatorFromCachedFactory(new Function(validatorParams, code.source) as any, JSON.stringify(schema)) as any
  // as a start without that makes it: on the interpreter until the route is used, given the schema's JSON copy
  const tiered = tieredValidator(JSON.parse(JSON.stringify(schema))) as any
  // the interpreter, on the same JSON copy a route's validator gets
  const interpreted = interpretValidator(JSON.parse(JSON.stringify(schema))) as any
  const reference = ajv.compile(structuredClone(schema)) as any
  assert.deepEqual(warnings, [], `Ajv warned about ${JSON.stringify(schema)}`)
  assert.deepEqual(fromCache.schema, schema)
  assert.deepEqual(tiered.schema, schema)
  let valid = 0
  for (const [ours, input] of [generated, fromCache, interpreted, tiered].flatMap((ours) => inputs.map((input) => [ours, input]))) {
    const mine = { value: structuredClone(input) }
    const theirs = { value: structuredClone(input) }
    // through `parentData`, as Ajv stores a coerced root value
    const ourResult = ours(mine.value, { instancePath: '/root', parentData: mine, parentDataProperty: 'value' })
    const theirResult = reference(theirs.value, { instancePath: '/root', parentData: theirs, parentDataProperty: 'value' })
    const context = `schema ${JSON.stringify(schema)}\ninput ${JSON.stringify(input)}`
    assert.equal(ourResult, theirResult, context)
    assert.equal(JSON.stringify(ours.errors), JSON.stringify(reference.errors), context)
    assert.deepEqual(ours.errors, reference.errors, context)
    assert.equal(JSON.stringify(mine.value), JSON.stringify(theirs.value), context)
    assert.deepEqual(mine.value, theirs.value, context)
    if (theirResult && ours === generated) valid++
  }
  return valid
}

describe('validator generator: the same answers as Ajv', () => {
  test('types and Ajv\'s coercions, one-element arrays included', () => {
    const tricky = [null, true, false, 0, 1, -1, 1.5, '', ' ', '0', '1', '-2', '1.5', '1e3', '0x10', '1e400', 'Infinity',
      'true', 'false', 'abc', [], ['x'], ['1'], [1], [true], [null], [[1]], [1, 2], {}, { a: 1 }]
    for (const type of ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']) {
      agree({ type }, tricky)
      agree({ type: 'object', properties: { v: { type } } }, tricky.map((v) => ({ v })))
      agree({ type: 'array', items: { type } }, tricky.map((v) => [v, v]))
    }
  })

  test('keywords at their limits, with messages and params', () => {
    agree({ type: 'string', minLength: 2, maxLength: 3 }, ['a', 'ab', 'abc', 'abcd', '😀😀', '😀😀😀😀', 'é', 5, null])
    agree({ type: 'string', pattern: '^[a-z]+$' }, ['abc', 'aBc', '', 12, ['x']])
    agree({ type: 'string', pattern: '\\p{Lu}' }, ['A', 'a', 'É'])
    agree({ type: 'integer', minimum: 1, maximum: 10 }, [0, 1, 10, 11, '5', '11', 2.5, true])
    agree({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, [0, 0.5, 1, -0, '0.25', 1e-9])
    agree({ type: 'number', multipleOf: 0.1 }, [0.3, 0.35, 3, '0.7'])
    agree({ type: 'integer', multipleOf: 3 }, [9, 10, -3, '12'])
    agree({ type: 'array', minItems: 1, maxItems: 2, items: { type: 'integer' } }, [[], [1], [1, 2], [1, 2, 3], 'x', ['1']])
    agree({ type: 'object', minProperties: 1, maxProperties: 2 }, [{}, { a: 1 }, { a: 1, b: 2, c: 3 }])
    agree({ enum: ['a', 1, null, true] }, ['a', 1, null, true, 'b', '1', false])
    agree({ type: 'string', enum: ['1', 'x'] }, ['1', 1, ['x'], 'y'])
    agree({ type: 'integer', const: 3 }, [3, '3', 4])
    agree({ const: null }, [null, 0, ''])
  })

  test('formats of ajv-formats (string ones) as Ajv checks them', () => {
    const values = ['a@b.co', 'not an email', '2024-02-29', '2023-02-29', '2024-05-01T12:00:00Z', '12:00:00Z', '1.2.3.4',
      '999.1.1.1', 'http://x.y/z', 'x y', 'c4a8e1e6-9d3e-4b1a-8f5e-2b1c0e9a7d11', 'host.example', '-bad-', 'P1D', '', 7]
    for (const format of ['email', 'date', 'date-time', 'time', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid',
      'hostname', 'duration', 'regex', 'json-pointer', 'byte', 'password', 'iso-date-time', 'url']) {
      agree({ type: 'string', format }, values)
    }
  })

  test('objects: required, defaults, removed additional properties, odd names', () => {
    const schema = {
      type: 'object',
      required: ['a/b', 'c~d', 'n'],
      additionalProperties: false,
      properties: {
        'a/b': { type: 'string', default: 'x' },
        'c~d': { type: 'integer', minimum: 2 },
        n: { type: 'object', required: ['z'], properties: { z: { type: 'boolean' }, list: { type: 'array', default: [1], items: { type: 'integer' } } } },
        'e f': { type: 'number', default: 1.5 },
        0: { type: 'string' }
      }
    }
    agree(schema, [
      { 'c~d': 2, n: { z: true } },
      { 'c~d': '1', n: { z: 'false' } },
      { 'c~d': 3, n: {}, extra: 1, 0: 5 },
      { 'c~d': 3, n: { z: 1, list: ['x'] }, 'e f': '2' },
      { n: { z: true } },
      { 'c~d': 2 },
      [],
      null
    ])
    agree({ type: 'object', additionalProperties: false }, [{ a: 1 }, {}])
    agree({ type: 'object', required: ['only'] }, [{}, { only: null }])
  })

  test('uniqueItems: Ajv\'s two loops, skipped items and the indices it reports', () => {
    agree({ type: 'array', uniqueItems: true, items: { type: 'string' } }, [['a', 'b', 'a'], ['a', 1, '1'], [1, 1], ['__proto__', '__proto__'], []])
    agree({ type: 'array', uniqueItems: true, items: { type: 'integer' } }, [[1, '1'], [2, 2.0], [3, 4, 3]])
    agree({ type: 'array', uniqueItems: true }, [[{ a: 1 }, { a: 1 }], [[1], [1]], [1, '1'], [null, null]])
    agree({ type: 'array', uniqueItems: true, items: { type: 'object' } }, [[{}, {}], [{ a: 1 }, { a: 2 }]])
    agree({ type: 'array', uniqueItems: false }, [[1, 1]])
  })

  test('seeded random schemas and inputs', () => {
    const random = mulberry32(20261124)
    let covered = 0
    let valid = 0
    let inputs = 0
    for (let i = 0; i < 400; i++) {
      const schema = randomSchema(random, 0)
      const values = Array.from({ length: 12 }, () => randomValue(random, schema, 0))
      valid += agree(schema, values)
      inputs += values.length
      covered++
    }
    // the inputs must exercise both outcomes, or the comparison says little
    assert.equal(covered, 400)
    assert.ok(valid > inputs * 0.15 && valid < inputs * 0.85, `${valid} of ${inputs} inputs valid`)
  })
})

describe('validator generator: what it leaves to Ajv', () => {
  test('declines schemas outside its subset', () => {
    const declined = [
      { $ref: 'other#' }, { $id: 'x', type: 'string' }, { type: ['string', 'null'] }, { type: 'string', nullable: true },
      { anyOf: [{ type: 'string' }] }, { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', patternProperties: { x: {} } }, { type: 'array', items: [{ type: 'string' }] },
      { type: 'string', format: 'int32' }, { type: 'string', format: 'no-such-format' }, { type: 'string', minimum: 1 },
      { maxLength: 2 }, { type: 'object', enum: [{}] }, { type: 'string', pattern: '(' }, { type: 'string', pattern: 'a\\Z' },
      { type: 'string', default: 'at the root' }, { type: 'string', maxLength: -1 }, { type: 'string', maxLength: 1.5 },
      { type: 'object', required: ['a', 'a'] }, { type: 'object', properties: { __proto__: { type: 'string' } } },
      { type: 'string', errorMessage: 'x' }, { type: 'string', maxLength: undefined }, { type: 'number', maximum: Infinity },
      { type: 'object', properties: { a: false } }, { type: 'string', enum: [] }, { type: 'string', formatMaximum: '2020-01-01' }
    ]
    for (const schema of declined) assert.equal(generatorCovers(schema as any, defaultFormats()), false, JSON.stringify(schema))
  })
})

describe('generated validators through a route', () => {
  const body = {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', maxLength: 3 }, age: { type: 'integer', minimum: 0, default: 1 } }
  }

  test('Fastify\'s messages and the error objects Ajv would give', async () => {
    const app = enclave()
    app.setErrorHandler((err: any, _request: any, reply: any) => {
      reply.code(400).send({ message: err.message, context: err.validationContext, validation: err.validation })
    })
    app.post('/users', { schema: { body } }, async (request: any) => request.body)
    let res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'toolong' } })
    assert.equal(res.statusCode, 400)
    assert.equal(res.payload, JSON.stringify({
      message: 'body/name must NOT have more than 3 characters',
      context: 'body',
      validation: [{ instancePath: '/name', schemaPath: '#/properties/name/maxLength', keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' }]
    }))
    res = await app.inject({ method: 'POST', url: '/users', payload: { age: -1 } })
    assert.equal(res.json().message, "body must have required property 'name'")
    res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'ann', age: '7', extra: true } })
    assert.deepEqual([res.statusCode, res.payload], [200, '{"name":"ann","age":7}'])
    res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'ann' } })
    assert.deepEqual([res.statusCode, res.payload], [200, '{"name":"ann","age":1}'])
  })

  test('query strings are coerced as Ajv coerces them', async () => {
    const app = enclave()
    const querystring = { type: 'object', properties: { n: { type: 'integer', maximum: 10 }, tags: { type: 'array', items: { type: 'string' } }, on: { type: 'boolean' } } }
    app.get('/', { schema: { querystring } }, async (request: any) => request.query)
    let res = await app.inject('/?n=7&tags=a&on=true')
    assert.deepEqual([res.statusCode, res.json()], [200, { n: 7, tags: ['a'], on: true }])
    res = await app.inject('/?n=1e400')
    assert.deepEqual([res.statusCode, res.json().message], [400, 'querystring/n must be integer'])
    res = await app.inject('/?n=11')
    assert.deepEqual([res.statusCode, res.json().message], [400, 'querystring/n must be <= 10'])
  })

  test('with options other than the baseline, Ajv validates (here: every error)', async () => {
    const app = enclave({ ajv: { customOptions: { allErrors: true } } })
    app.post('/users', { schema: { body } }, async () => 'ok')
    const res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'toolong', age: -1 } })
    assert.equal(res.json().message, 'body/name must NOT have more than 3 characters, body/age must be >= 0')
  })
})

// ---- seeded generation ---------------------------------------------------------------------------------------------

function pick<T> (random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]
}

const types = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'] as const
const names = ['id', 'name', 'a/b', 'c~d', '1', 'x y', '\u00e9', 'list']
const formats = ['email', 'date', 'date-time', 'ipv4', 'uuid', 'password', 'time']
const patterns = ['^[a-z]+$', '\\d', '^a', '\u00e9', '.{2}']

function randomSchema (random: () => number, depth: number): Record<string, any> {
  const type = depth >= 3 ? pick(random, types.slice(0, 5)) : pick(random, types)
  const schema: Record<string, any> = { type }
  if (random() < 0.1) schema.title = 'T'
  if (random() < 0.05 && type !== 'null') schema.nullable = false
  const maybe = (keyword: string, value: () => unknown, p = 0.3): void => { if (random() < p) schema[keyword] = value() }
  if (type === 'string') {
    maybe('maxLength', () => Math.floor(random() * 5))
    maybe('minLength', () => Math.floor(random() * 3))
    maybe('pattern', () => pick(random, patterns), 0.2)
    maybe('format', () => pick(random, formats), 0.2)
    maybe('enum', () => ['a', 'bb', '1', 'true'], 0.1)
  } else if (type === 'integer' || type === 'number') {
    maybe('minimum', () => Math.floor(random() * 5) - 2)
    maybe('maximum', () => Math.floor(random() * 10))
    maybe('exclusiveMinimum', () => -1, 0.1)
    maybe('exclusiveMaximum', () => 8, 0.1)
    maybe('multipleOf', () => pick(random, type === 'integer' ? [2, 3] : [0.5, 2]), 0.15)
    maybe('const', () => 2, 0.05)
  } else if (type === 'boolean') {
    maybe('enum', () => [true], 0.1)
  } else if (type === 'array') {
    maybe('maxItems', () => Math.floor(random() * 4))
    maybe('minItems', () => Math.floor(random() * 2))
    maybe('uniqueItems', () => random() < 0.8, 0.2)
    maybe('items', () => (random() < 0.1 ? {} : randomSchema(random, depth + 1)), 0.85)
  } else if (type === 'object') {
    const properties: Record<string, any> = {}
    for (const name of names) if (random() < 0.35) properties[name] = randomSchema(random, depth + 1)
    if (random() < 0.9) schema.properties = properties
    const declared = Object.keys(properties)
    const required = declared.filter(() => random() < 0.35)
    if (random() < 0.1) required.push('undeclared')
    if (required.length > 0) schema.required = required
    maybe('additionalProperties', () => random() < 0.7 ? false : true)
    maybe('maxProperties', () => 1 + Math.floor(random() * 4), 0.1)
    for (const name of declared) {
      const property = properties[name]
      if (random() < 0.15) property.default = pick(random, ['d', 3, true, null, [], { k: 1 }, '7'])
    }
  }
  return schema
}

const tricky = [null, true, false, 0, 1, -1, 2.5, '', '0', '1', '2', '2.5', '1e400', 'true', 'abc', '😀😀😀', [], ['1'], [2], {}]

function randomValue (random: () => number, schema: Record<string, any>, depth: number): unknown {
  if (random() < 0.12 || depth > 5) return pick(random, tricky)
  switch (schema.type) {
    case 'string': return pick(random, ['a', 'bb', 'abc', 'a@b.co', '2024-05-01', '12:00:00Z', '1.2.3.4', 'c4a8e1e6-9d3e-4b1a-8f5e-2b1c0e9a7d11', '😀', 'é1'])
    case 'integer': return pick(random, [0, 1, 2, 3, 4, 6, 9, 12, -2])
    case 'number': return pick(random, [0, 0.5, 1, 2, 2.5, 4, 7.5, -1])
    case 'boolean': return random() < 0.5
    case 'null': return null
    case 'array': {
      const length = Math.floor(random() * 4)
      const items = schema.items ?? {}
      const value = Array.from({ length }, () => randomValue(random, items, depth + 1))
      if (length > 1 && random() < 0.3) value[1] = value[0]
      return value
    }
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        if (random() < 0.75) value[name] = randomValue(random, property, depth + 1)
      }
      if (random() < 0.3) value.extra = 'x'
      return value
    }
    default: return pick(random, tricky)
  }
}
