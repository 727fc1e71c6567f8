/**
 * Enclave's serializer generator and interpreter against fast-json-stringify 5, their oracle: for every schema of the
 * subset they take, the same payload must give the same JSON text, or all must throw the same message. Schemas
 * outside the subset must be declined (the caller then uses fast-json-stringify itself).
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fastJsonStringify from 'fast-json-stringify'
import { compileSerializer, roundingOf } from '../../../src/schema/serialization/serializer-compiler'
import { interpretSerializer } from '../../../src/schema/serialization/serializer-interpreter'
import { mulberry32 } from '../../helpers'

type Outcome = { json: string } | { error: string, name: string }

function run (fn: (value: unknown) => string, value: unknown): Outcome {
  try {
    return { json: fn(value) }
  } catch (err) {
    return { error: (err as Error).message, name: (err as Error).constructor.name }
  }
}

/** Asserts our serializers (generated and interpreted) and fast-json-stringify agree on every value. */
function agree (schema: Record<string, any>, values: unknown[], options?: Record<string, unknown>): void {
  const generated = compileSerializer(structuredClone(schema), options)
  assert.ok(generated, `the generator declined ${JSON.stringify(schema)}`)
  // the interpreter reads the schema's JSON copy, as a route's serializer does; so does fast-json-stringify here
  const interpreted = interpretSerializer(JSON.parse(JSON.stringify(schema)), roundingOf(options)!)
  const theirs = fastJsonStringify(structuredClone(schema), options as any) as unknown as (value: unknown) => string
  const theirsOnCopy = fastJsonStringify(JSON.parse(JSON.stringify(schema)), options as any) as unknown as (value: unknown) => string
  for (const value of values) {
    agreeOn(schema, value, run(theirs, value), run(generated, value), 'generated')
    agreeOn(schema, value, run(theirsOnCopy, value), run(interpreted, value), 'interpreted')
  }
}

function agreeOn (schema: Record<string, any>, value: unknown, expected: Outcome, actual: Outcome, which: string): void {
  const where = `${which}: schema ${JSON.stringify(schema)}, value ${describeValue(value)}`
  // the one deliberate difference: fast-json-stringify writes date-format strings unescaped (not always JSON);
  // ours are escaped, so they must parse back to the same value wherever its output is JSON at all
  if (hasDateFormat(schema) && 'json' in expected && 'json' in actual && expected.json !== actual.json) {
    assert.ok(isJson(actual.json), where)
    if (isJson(expected.json)) assert.deepEqual(JSON.parse(actual.json), JSON.parse(expected.json), where)
    return
  }
  assert.deepEqual(actual, expected, where)
}

function hasDateFormat (schema: Record<string, any>): boolean {
  return /"format":"(date-time|date|time)"/.test(JSON.stringify(schema))
}

function isJson (text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function describeValue (value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => typeof v === 'bigint' ? `${v}n` : v) ?? String(value)
  } catch {
    return String(value)
  }
}

const withToJSON = { toJSON: () => ({ id: 7, name: 'from toJSON' }) }
const withToString = { toString: () => 'custom' }
const scalars: unknown[] = [
  0, -0, 1, -17, 3.75, -2.5, 1e21, 2 ** 53 + 2, NaN, Infinity, -Infinity, 12n, '42', '4.2', 'abc', '', 'quote " and \\ slash',
  'line\nbreak', '\u2028', '\ud800', 'é ü 日本', 'long '.repeat(20), 'long with a quote " '.repeat(5), 'long\n'.repeat(20), true, false, null, new Date(Date.UTC(2024, 4, 1, 12, 30, 5)), /re+gex/, withToString, [], [1, 2]
]

describe('serializer generator: the same JSON as fast-json-stringify', () => {
  test('primitive types, alone and nullable, on every kind of value', () => {
    for (const type of ['string', 'integer', 'number', 'boolean', 'null']) {
      agree({ type }, scalars)
      agree({ type, nullable: true }, scalars)
    }
  })

  test('string formats: date-time, date and time from Date objects, strings and null', () => {
    const dates = [new Date(Date.UTC(2024, 0, 31, 23, 59, 58)), new Date(0), '2024-05-01', 'plain', null, 5, true]
    for (const format of ['date-time', 'date', 'time', 'email', 'uri']) agree({ type: 'string', format }, dates)
  })

  test('integer rounding options', () => {
    for (const rounding of ['trunc', 'floor', 'ceil', 'round']) agree({ type: 'integer' }, [1.5, -1.5, 2.49, '7.9', null, 'x'], { rounding })
  })

  test('objects: property order, required, defaults, toJSON, nulls and undeclared fields', () => {
    const schema = {
      type: 'object',
      required: ['id', 'missing'],
      properties: {
        name: { type: 'string' },
        id: { type: 'integer' },
        active: { type: 'boolean', default: false },
        tags: { type: 'array', items: { type: 'string' } },
        owner: { type: 'object', nullable: true, properties: { id: { type: 'integer' } } }
      }
    }
    agree(schema, [
      { id: 1, missing: 0, name: 'n', extra: 'dropped' },
      { id: 1, name: 'n' },
      { missing: true },
      { id: '2', missing: 1, active: 1, tags: ['a', 3, null], owner: null },
      { id: 3, missing: 1, owner: { id: 4.9, secret: 'x' } },
      { id: 3, missing: 1, tags: 'not an array' },
      withToJSON, null, 'text', 5, []
    ])
    agree({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } }, [{}, { b: 1 }, { a: 'x', b: 2 }, null, withToJSON])
    agree({ type: 'object', required: ['a'], properties: { a: { type: 'string', default: 'dflt' } } }, [{}, { a: 'set' }])
    // a nullable object's null is the wrapper's: a toJSON returning null (or no value at all) fails on the first read
    agree({ type: 'object', nullable: true, properties: { a: { type: 'number' } } }, [null, { a: 1 }, { a: 'x' }, { toJSON: () => null }, undefined])
    agree({ type: 'object' }, [{ any: 1 }, null, {}])
    // names an object inherits are not properties: required ones are still checked
    agree({ type: 'object', required: ['toString', 'constructor'], properties: {} }, [{}, Object.create(null), { toString: 'x', constructor: 1 }])
  })

  test('hostile property names are written as data', () => {
    const names = ['a"b', 'back\\slash', 'line\nbreak', '\u2028', '__proto__', 'constructor', '1', '', '${x}', '\'quote']
    const properties = Object.fromEntries(names.map(name => [name, { type: 'string' }]))
    const value = Object.fromEntries(names.map(name => [name, `v-${name}`]))
    agree({ type: 'object', properties, required: ['a"b'] }, [value, { 'a"b': 1 }, {}])
  })

  test('arrays: of objects, of arrays, nullable, empty, holes and non-arrays', () => {
    const item = { type: 'object', properties: { id: { type: 'integer' }, price: { type: 'number' } } }
    agree({ type: 'array', items: item }, [[], [{ id: 1, price: 2.5 }, { id: '3', price: '4' }], null, 'x', { length: 1 }, [null]])
    agree({ type: 'array', nullable: true, items: { type: 'array', items: { type: 'integer' } } }, [null, [[1, 2], [], [3.7]], [[1], 'x']])
    // eslint-disable-next-line no-sparse-arrays
    agree({ type: 'array', items: { type: 'boolean' } }, [[true, 0, 'x', , null]])
    agree({ type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } } }, [{ list: 5 }])
  })

  // the interpreter, given the JSON copy (one object per path), names the path the value was at
  test('a schema object met twice is written by one function, which names the pointer of its first visit', () => {
    const list = { type: 'array', items: { type: 'string' } }
    const schema = { type: 'object', required: ['b'], properties: { a: list, b: list, c: { type: 'array', items: list } } }
    agree(schema, [{ a: ['x'], b: [] }, { a: 1, b: [] }, { b: 2 }, { b: [], c: [['y'], 5] }])
  })

  test('seeded random schemas and payloads', () => {
    const random = mulberry32(20261122)
    for (let i = 0; i < 300; i++) {
      const schema = randomSchema(random, 0)
      agree(schema, Array.from({ length: 8 }, () => randomValue(random, schema, 0)))
    }
  })
})

describe('serializer generator: what it leaves to fast-json-stringify', () => {
  test('declines schemas and options outside its subset', () => {
    const declined = [
      { $ref: 'other#' },
      { type: 'object', properties: { a: { $ref: '#/definitions/a' } }, definitions: { a: { type: 'string' } } },
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      { type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } } },
      { allOf: [{ type: 'object' }] },
      { type: 'object', additionalProperties: true },
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { properties: { a: { type: 'string' } } },
      { type: ['string', 'null'] },
      { type: 'array' },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'string', const: 'x' },
      { type: 'string', format: 'unsafe' },
      { type: 'object', properties: { a: true } },
      { type: 'object', if: { type: 'object' }, then: { type: 'object' } }
    ]
    for (const schema of declined) assert.equal(compileSerializer(schema), undefined, JSON.stringify(schema))
    assert.equal(compileSerializer({ type: 'string' }, { largeArrayMechanism: 'json-stringify' }), undefined)
    assert.equal(compileSerializer({ type: 'integer' }, { rounding: 'nearest' }), undefined)
  })

  test('declines schemas fast-json-stringify rejects, so that it reports them', () => {
    assert.equal(compileSerializer({ type: 'string', maxLength: 'ten' }), undefined)
    assert.equal(compileSerializer({ type: 'object', required: 'a' }), undefined)
  })
})

// ---- seeded generation ---------------------------------------------------------------------------------------------

function pick<T> (random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]
}

const types = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'] as const
// no backslash: fast-json-stringify drops it from the schema path it puts in messages (hostile names test them)
const keys = ['id', 'name', 'a"b', '1', 'nested', 'list', 'x y', '\u00e9']

function randomSchema (random: () => number, depth: number): Record<string, any> {
  const type = depth >= 3 ? pick(random, types.slice(0, 5)) : pick(random, types)
  const schema: Record<string, any> = { type }
  if (random() < 0.2) schema.nullable = true
  if (type === 'string' && random() < 0.2) schema.format = pick(random, ['date-time', 'date', 'time', 'email'])
  if (type === 'array') schema.items = randomSchema(random, depth + 1)
  if (type === 'object') {
    schema.properties = {}
    for (const key of keys) if (random() < 0.4) schema.properties[key] = randomSchema(random, depth + 1)
    const names = Object.keys(schema.properties)
    const required = names.filter(() => random() < 0.3)
    if (random() < 0.1) required.push('outside')
    if (required.length > 0) schema.required = required
    for (const name of names) {
      const property = schema.properties[name]
      if (random() < 0.1 && ['string', 'integer', 'boolean'].includes(property.type)) property.default = property.type === 'string' ? 'd"flt' : property.type === 'integer' ? 3 : true
    }
  }
  return schema
}

function randomValue (random: () => number, schema: Record<string, any>, depth: number): unknown {
  if (random() < 0.15) return pick(random, scalars)
  switch (schema.type) {
    case 'string': return random() < 0.5 ? pick(random, ['plain', 'q"uote', 'tab\t', '\u00e9', '']) : new Date(Math.floor(random() * 2e12))
    case 'integer': return pick(random, [0, 7, -3, 2.5, '12', 9007199254740993n])
    case 'number': return pick(random, [0, 1.25, -3e-7, '8', Infinity])
    case 'boolean': return pick(random, [true, false, 0, 'yes'])
    case 'null': return null
    case 'array': return depth > 4 ? [] : Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, schema.items, depth + 1))
    case 'object': {
      const value: Record<string, unknown> = { undeclared: 'must not appear' }
      for (const [key, property] of Object.entries<any>(schema.properties)) {
        if (random() < 0.8) value[key] = randomValue(random, property, depth + 1)
      }
      if (random() < 0.5) value.outside = 1
      return value
    }
  }
  return undefined
}
