/**
 * A route's serializer starts on the interpreter and changes to generated code once hot: across the change, every
 * response stays fast-json-stringify's text, and every error its message.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fastJsonStringify from 'fast-json-stringify'
import { tieredSerializer } from '../../../src/schema/serialization/tiered-serializer'
import { serializerCode } from '../../../src/schema/serialization/serializer-compiler'
import { TIER_UP_CALLS } from '../../../src/schema/tier-up'
import { enclave } from '../../helpers'

const response = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    score: { type: 'number', default: 0 },
    at: { type: 'string', format: 'date-time' }
  }
}
const payloads = [
  { id: 1, name: 'ann', secret: 'x' },
  { id: 2.7, tags: ['a', 'b"c'], score: 1.5 },
  { id: '3', name: 4, at: new Date(0) },
  { name: 'no id' },
  { id: 5, tags: 'not an array' },
  null
]

function outcome (serialize: (value: unknown) => string, value: unknown): string {
  try {
    return serialize(value)
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`
  }
}

describe('tiered serializers', () => {
  test('fast-json-stringify\'s text before, at and after the change to generated code', () => {
    const copy = JSON.parse(JSON.stringify(response))
    const ours = tieredSerializer(copy, 'trunc', serializerCode(copy)!.source)
    const theirs = fastJsonStringify(structuredClone(response) as any) as (value: unknown) => string
    for (let call = 0; call < TIER_UP_CALLS + 2 * payloads.length; call++) {
      const payload = payloads[call % payloads.length]
      assert.equal(outcome(ours, payload), outcome(theirs, payload), `call ${call + 1}, payload ${JSON.stringify(payload)}`)
    }
  })

  test('a route answers alike on either side of the change', async () => {
    const app = enclave()
    let next = 0
    app.get('/', { schema: { response: { 200: response } } }, async () => payloads[next++ % 3])
    const theirs = fastJsonStringify(structuredClone(response) as any) as (value: unknown) => string
    for (let call = 0; call < TIER_UP_CALLS + 6; call++) {
      const res = await app.inject('/')
      assert.equal(res.statusCode, 200)
      assert.equal(res.payload, theirs(payloads[call % 3]), `call ${call + 1}`)
    }
  })

  test('a schema that reuses a sub-schema object names the path fast-json-stringify names in its errors', async () => {
    const list = { type: 'array', items: { type: 'string' } }
    const schema = { type: 'object', properties: { a: list, b: list } }
    const app = enclave()
    app.get('/', { schema: { response: { 200: schema } } }, async () => ({ a: ['x'], b: 5 }))
    const theirs = fastJsonStringify(schema as any) as (value: unknown) => string
    assert.throws(() => theirs({ a: ['x'], b: 5 }), new TypeError('The value of \'#/properties/a\' does not match schema definition.'))
    for (let call = 0; call < TIER_UP_CALLS + 2; call++) {
      const res = await app.inject('/')
      assert.deepEqual([res.statusCode, res.json().message], [500, 'The value of \'#/properties/a\' does not match schema definition.'])
    }
  })
})
