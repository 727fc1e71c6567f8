/**
 * A route's validator starts on the interpreter and changes to generated code once hot: across the change, every
 * answer (result, error objects, what the data became) stays Ajv's.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { buildAjv } from '../../../src/schema/validation/ajv-compiler'
import { tieredValidator } from '../../../src/schema/validation/tiered-validator'
import { TIER_UP_CALLS } from '../../../src/schema/tier-up'
import { enclave } from '../../helpers'

const body = {
  type: 'object',
  required: ['name', 'age'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 4 },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, default: [] },
    role: { enum: ['admin', 'user'] }
  }
}
const inputs = [
  { name: 'ann', age: 3 },
  { name: 'toolong', age: 3 },
  { name: 'bo', age: '7', extra: 1 },
  { name: 'cy', age: -1 },
  { age: 1 },
  { name: 'di', age: 2, tags: 'x', role: 'admin' },
  { name: 'ed', age: 2, role: 'root' },
  [1]
]

describe('tiered validators', () => {
  test('the same answers as Ajv before, at and after the change to generated code', () => {
    const ours = tieredValidator(JSON.parse(JSON.stringify(body))) as any
    const ajv = buildAjv({ customOptions: {}, plugins: [] }, {}).compile(structuredClone(body)) as any
    for (let call = 0; call < TIER_UP_CALLS + 2 * inputs.length; call++) {
      const input = inputs[call % inputs.length]
      const mine = { value: structuredClone(input) }
      const theirs = { value: structuredClone(input) }
      const options = (holder: { value: unknown }) => ({ instancePath: '/body', parentData: holder, parentDataProperty: 'value' })
      const context = `call ${call + 1}, input ${JSON.stringify(input)}`
      assert.equal(ours(mine.value, options(mine)), ajv(theirs.value, options(theirs)), context)
      assert.equal(JSON.stringify(ours.errors), JSON.stringify(ajv.errors), context)
      assert.equal(JSON.stringify(mine.value), JSON.stringify(theirs.value), context)
    }
  })

  test('a default object or array is a new copy for every value, in either tier', () => {
    const validate = tieredValidator({ type: 'object', properties: { list: { type: 'array', default: [] } } }) as any
    for (let call = 0; call < TIER_UP_CALLS + 2; call++) {
      const value: any = {}
      assert.equal(validate(value), true)
      assert.deepEqual(value.list, [], `call ${call + 1}`)
      value.list.push('changed by the handler')
    }
  })

  test('validate.schema is the schema it was given; assigning it changes nothing validated', () => {
    const copy = JSON.parse(JSON.stringify(body))
    const validate = tieredValidator(copy) as any
    assert.equal(validate.schema, copy)
    validate.schema = { type: 'string' }
    assert.deepEqual(validate.schema, { type: 'string' })
    assert.equal(validate({ name: 'ann', age: 1 }), true)
  })

  test('a route answers alike on either side of the change', async () => {
    const app = enclave()
    app.post('/users', { schema: { body } }, async (request: any) => request.body)
    const validate = buildAjv({ customOptions: {}, plugins: [] }, {}).compile(structuredClone(body))
    // Fastify's message: the part, the error's path and Ajv's message
    const expected = (input: unknown): [number, string] => {
      const value = structuredClone(input)
      return validate(value) ? [200, JSON.stringify(value)] : [400, `body${validate.errors![0].instancePath} ${validate.errors![0].message!}`]
    }
    for (let call = 0; call < TIER_UP_CALLS + 2 * inputs.length; call++) {
      const input = inputs[call % inputs.length]
      const res = await app.inject({ method: 'POST', url: '/users', payload: input })
      const [status, text] = expected(input)
      assert.equal(res.statusCode, status, `call ${call + 1}`)
      assert.equal(status === 200 ? res.payload : res.json().message, text, `call ${call + 1}`)
    }
  })
})
