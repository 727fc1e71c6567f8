import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../../src/index'
import enclave5 from '../../../src/fastify5'

// How a validator's answer reaches the request, at both levels (Fastify 5 fixes that Fastify 4.29.1's own tests do
// not contradict).
const levels: Array<[string, (options?: object) => any]> = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]]

const asyncBody = { $async: true, type: 'object', additionalProperties: true, properties: { name: { type: 'string' } } }

for (const [level, factory] of levels) {
  test(`${level}: an asynchronous validator's data is never read as a result: value and error keys stay the client's`, async () => {
    const app = factory()
    app.post('/', { schema: { body: asyncBody } }, async (request: any) => request.body)
    for (const payload of [{ name: 'a', value: { name: 'swapped' } }, { name: 'a', error: 'not an error' }]) {
      const res = await app.inject({ method: 'POST', url: '/', payload })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), payload)
    }
    const invalid = await app.inject({ method: 'POST', url: '/', payload: { name: { not: 'a string' }, value: 1 } })
    assert.equal(invalid.statusCode, 400)
    assert.equal(invalid.json().message, 'validation failed')
  })

  test(`${level}: an asynchronous custom validator passes or fails only (false: its errors)`, async () => {
    const app = factory()
    app.setValidatorCompiler(({ schema }: any) => {
      const validate: any = async (data: any) => data.ok === true ? { error: new Error('ignored'), value: 'ignored' } : false
      validate.errors = [{ instancePath: '/ok', schemaPath: '#/ok', keyword: 'custom', params: {}, message: `must be ${String(schema.title)}` }]
      return validate
    })
    app.post('/', { schema: { body: { title: 'true' } } }, async (request: any) => request.body)
    const passed = await app.inject({ method: 'POST', url: '/', payload: { ok: true } })
    assert.equal(passed.statusCode, 200)
    assert.deepEqual(passed.json(), { ok: true })
    const failed = await app.inject({ method: 'POST', url: '/', payload: { ok: false } })
    assert.equal(failed.statusCode, 400)
    assert.deepEqual(failed.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/ok must be true' })
  })

  test(`${level}: a synchronous custom validator's { value } still replaces the part`, async () => {
    const app = factory()
    app.setValidatorCompiler(() => (data: any) => ({ value: { ...data, seen: true } }))
    app.post('/', { schema: { body: { type: 'object' } } }, async (request: any) => request.body)
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.deepEqual(res.json(), { a: 1, seen: true })
  })

  test(`${level}: a custom validator without Ajv's signature is called with the data alone`, async () => {
    const calls: number[] = []
    const app = factory()
    app.setValidatorCompiler(() => (...args: unknown[]) => { calls.push(args.length); return true })
    app.post('/', { schema: { body: { type: 'integer' } } }, async (request: any) => ({ body: request.body }))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '"3"' })
    assert.deepEqual(res.json(), { body: '3' })
    assert.deepEqual(calls, [1])
  })
}

test('a validator that throws: the request\'s error at the Fastify 4 level, the part\'s validation error at the Fastify 5 level', async () => {
  const answers: Record<string, unknown> = {}
  for (const [level, factory] of levels) {
    for (const attachValidation of [false, true]) {
      const app = factory()
      app.setValidatorCompiler(() => () => { throw new Error('validator broke') })
      app.post('/', { attachValidation, schema: { body: { type: 'object' } } }, async (request: any) => {
        const err = request.validationError
        return { handler: true, error: [err.message, err.statusCode, err.code, err.validationContext] }
      })
      const res = await app.inject({ method: 'POST', url: '/', payload: {} })
      answers[`${level}, attachValidation ${String(attachValidation)}`] = [res.statusCode, res.json()]
    }
  }
  const requestError = [500, { statusCode: 500, error: 'Internal Server Error', message: 'validator broke' }]
  assert.deepEqual(answers, {
    'Fastify 4 level, attachValidation false': requestError,
    'Fastify 4 level, attachValidation true': requestError,
    'Fastify 5 level, attachValidation false': [500, { statusCode: 500, code: 'FST_ERR_VALIDATION', error: 'Internal Server Error', message: 'validator broke' }],
    'Fastify 5 level, attachValidation true': [200, { handler: true, error: ['validator broke', 500, 'FST_ERR_VALIDATION', 'body'] }]
  })
})

test('both levels: a compiler that gave no function refuses every request, attachValidation or not', async () => {
  for (const [, factory] of levels) {
    let ran = false
    const app = factory()
    app.setValidatorCompiler(() => undefined)
    app.post('/', { attachValidation: true, schema: { body: { type: 'object' } } }, async () => { ran = true; return 'open' })
    const res = await app.inject({ method: 'POST', url: '/', payload: {} })
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'FST_ERR_SCH_VALIDATOR_NOT_FN')
    assert.equal(ran, false)
  }
})

test('the parent of the data is passed only to validators whose root value may be coerced, at the Fastify 5 level only', async () => {
  const calls: Record<string, number> = {}
  const app = enclave5()
  app.addSchema({ $id: 'user', type: 'object' })
  app.addSchema({ $id: 'count', type: 'integer' })
  // an Ajv-like validator (Ajv's own carry `schemaEnv`): it may take `{ parentData, parentDataProperty }`
  app.setValidatorCompiler(({ url }: any) => Object.assign((...args: unknown[]) => { calls[url] = args.length; return true }, { schemaEnv: {} }))
  for (const [url, body] of [['/object', { type: 'object' }], ['/shared-object', { $ref: 'user#' }], ['/shared-integer', { $ref: 'count#' }],
    ['/integer', { type: 'integer' }], ['/any-of', { anyOf: [{ type: 'integer' }, { type: 'object' }] }]] as const) {
    app.post(url, { schema: { body } }, async () => 'ok')
  }
  for (const url of ['/object', '/shared-object', '/shared-integer', '/integer', '/any-of']) {
    await app.inject({ method: 'POST', url, payload: {} })
  }
  assert.deepEqual(calls, { '/object': 1, '/shared-object': 1, '/shared-integer': 2, '/integer': 2, '/any-of': 2 })
  // the Fastify 4 level never hands a coerced root to the request, so no validator gets the parent
  let argsAtFour = 0
  const app4 = enclave()
  app4.setValidatorCompiler(() => Object.assign((...args: unknown[]) => { argsAtFour = args.length; return true }, { schemaEnv: {} }))
  app4.post('/integer', { schema: { body: { type: 'integer' } } }, async () => 'ok')
  await app4.inject({ method: 'POST', url: '/integer', payload: {} })
  assert.equal(argsAtFour, 1)
})

// A coerced root value: validated at both levels; handed to the request as coerced at the Fastify 5 level only
// (Fastify 4 validates a coerced copy and keeps the value as sent: policy field coercedRootReachesRequest).
for (const [level, factory, coerced] of [['Fastify 4 level', enclave, false], ['Fastify 5 level', enclave5, true]] as const) {
  const json = { 'content-type': 'application/json' }
  test(`${level}: a root value the body schema coerces is validated coerced, and reaches the request ${coerced ? 'coerced' : 'as sent'}`, async () => {
    const app = factory()
    app.post('/count', { schema: { body: { type: 'integer', minimum: 1, maximum: 10 } } },
      async (request: any) => ({ body: request.body, type: typeof request.body }))
    app.post('/tags', { schema: { body: { type: 'array', items: { type: 'string' } } } },
      async (request: any) => ({ body: request.body }))
    app.post('/flag', { schema: { body: { anyOf: [{ type: 'boolean' }, { type: 'object' }] } } },
      async (request: any) => ({ body: request.body }))
    const count = await app.inject({ method: 'POST', url: '/count', headers: json, payload: '"10"' })
    assert.equal(count.statusCode, 200)
    assert.deepEqual(count.json(), coerced ? { body: 10, type: 'number' } : { body: '10', type: 'string' })
    assert.equal((await app.inject({ method: 'POST', url: '/count', headers: json, payload: '"11"' })).statusCode, 400)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/tags', headers: json, payload: '"one"' })).json(), { body: coerced ? ['one'] : 'one' })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/flag', headers: json, payload: '"true"' })).json(), { body: coerced ? true : 'true' })
  })

  test(`${level}: a root value is coerced with a non-baseline Ajv and through a shared schema too`, async () => {
    const app = factory({ ajv: { customOptions: { allErrors: true } } })
    app.addSchema({ $id: 'count', type: 'integer' })
    app.post('/', { schema: { body: { $ref: 'count#' } } }, async (request: any) => ({ body: request.body }))
    const res = await app.inject({ method: 'POST', url: '/', headers: json, payload: '"3"' })
    assert.deepEqual(res.json(), { body: coerced ? 3 : '3' })
  })
}

test('each validation error is a new object: changing one (params included) never changes the next', async () => {
  const app = enclave()
  app.post('/', {
    attachValidation: true,
    schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } } }
  }, async (request: any) => {
    const [error] = request.validationError.validation
    const seen = structuredClone(error)
    // a handler or formatter that rewrites what it was given
    error.params.limit = 99
    error.message = 'changed'
    return seen
  })
  const expected = {
    instancePath: '/name',
    schemaPath: '#/properties/name/maxLength',
    keyword: 'maxLength',
    params: { limit: 3 },
    message: 'must NOT have more than 3 characters'
  }
  for (let i = 0; i < 2; i++) {
    const res = await app.inject({ method: 'POST', url: '/', payload: { name: 'longer' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), expected)
  }
})
