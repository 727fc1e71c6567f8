/**
 * Validators of plain schemas compile on first use; `ready()` still fails on every schema Ajv would reject, because
 * anything not proven to compile is compiled at ready.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type Ajv from 'ajv'
import { enclave } from '../../helpers'
import { DeferredCompilations } from '../../../src/schema/validation/lazy-validator'

/** An app whose Ajv counts compilations (an Ajv plugin wraps `compile`). */
function countingApp (): { app: any, compiled: () => number } {
  let count = 0
  const counter = (ajv: Ajv): void => {
    const compile = ajv.compile.bind(ajv)
    ;(ajv as any).compile = (schema: any) => { count++; return compile(schema) }
  }
  return { app: enclave({ ajv: { plugins: [counter] } }), compiled: () => count }
}

const userSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
    age: { type: 'integer', minimum: 0, default: 1 },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', maxItems: 2, items: { type: 'string' } }
  },
  additionalProperties: false
}

test('a plain schema compiles on its first request, validates exactly as when compiled at ready, and only once', async () => {
  const { app, compiled } = countingApp()
  app.post('/users', { schema: { body: userSchema } }, async (request: any) => request.body)
  await app.ready()
  assert.equal(compiled(), 0)

  let res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'toolong' } })
  assert.deepEqual([res.statusCode, res.json()], [400, {
    statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/name must NOT have more than 5 characters'
  }])
  assert.equal(compiled(), 1)
  res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'ann', email: 'nope' } })
  assert.deepEqual([res.statusCode, res.json().message], [400, 'body/email must match format "email"'])
  res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'ann', extra: 1, tags: ['a'] } })
  assert.deepEqual([res.statusCode, res.json()], [200, { name: 'ann', age: 1, tags: ['a'] }])
  assert.equal(compiled(), 1)
})

test('a schema object changed after ready does not change the validator', async () => {
  const { app } = countingApp()
  const schema = structuredClone(userSchema)
  app.post('/users', { schema: { body: schema } }, async () => 'ok')
  await app.ready()
  schema.properties.name.maxLength = 100
  const res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'toolong' } })
  assert.equal(res.statusCode, 400)
})

test('schemas using $ref, combinators, plugin keywords or unknown options compile at ready', async () => {
  const { app, compiled } = countingApp()
  app.addSchema({ $id: 'name', type: 'string', maxLength: 5 })
  app.post('/ref', { schema: { body: { type: 'object', properties: { name: { $ref: 'name#' } } } } }, async () => 'ok')
  app.post('/any', { schema: { body: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }, async () => 'ok')
  app.post('/nullable', { schema: { body: { type: 'object', properties: { a: { type: 'string', nullable: true } } } } }, async () => 'ok')
  app.post('/untyped', { schema: { body: { properties: { a: { type: 'string' } } } } }, async () => 'ok')
  await app.ready()
  assert.equal(compiled(), 4)
})

test('ready() fails on schemas Ajv rejects, whatever looks plain about them', async () => {
  const broken: Array<[string, unknown, RegExp]> = [
    ['an invalid pattern', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, /Invalid regular expression/],
    ['an unknown format', { type: 'object', properties: { a: { type: 'string', format: 'no-such-format' } } }, /unknown format "no-such-format"/],
    ['an unknown keyword', { type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } }, /unknown keyword: "maxLenght"/],
    ['a keyword with a wrong value', { type: 'object', properties: { a: { type: 'string', maxLength: 'three' } } }, /must be integer/],
    ['an unknown type', { type: 'object', properties: { a: { type: 'text' } } }, /must be equal to one of the allowed values/],
    ['an unresolvable $ref', { type: 'object', properties: { a: { $ref: 'missing#' } } }, /can't resolve reference missing#/]
  ]
  for (const [what, body, message] of broken) {
    const app = enclave()
    app.post('/broken', { schema: { body } }, async () => 'ok')
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD', what)
      assert.match(err.message, /POST: \/broken/, what)
      assert.match(err.message, message, what)
      return true
    })
  }
})

test('once ready, deferred validators compile in the background, before their first request', async () => {
  const { app, compiled } = countingApp()
  app.post('/users', { schema: { body: userSchema } }, async (request: any) => request.body)
  app.post('/other', { schema: { body: { ...userSchema, required: ['age'] } } }, async (request: any) => request.body)
  await app.ready()
  assert.equal(compiled(), 0)
  // the background work runs between I/O turns: a few turns of the event loop, no timers
  for (let turn = 0; turn < 20 && compiled() < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
  assert.equal(compiled(), 2)
  const res = await app.inject({ method: 'POST', url: '/users', payload: { name: 'toolong' } })
  assert.deepEqual([res.statusCode, res.json().message], [400, 'body/name must NOT have more than 5 characters'])
  assert.equal(compiled(), 2)
})

test('the background queue runs in slices between event-loop turns, and stops for good when told', async () => {
  const ran: number[] = []
  const queue = new DeferredCompilations()
  for (let i = 0; i < 3; i++) queue.add(() => { ran.push(i) })
  queue.start()
  assert.equal(ran.length, 0)
  for (let turn = 0; turn < 5 && ran.length < 3; turn++) await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(ran, [0, 1, 2])
  const stopped = new DeferredCompilations()
  stopped.add(() => { ran.push(9) })
  stopped.stop()
  stopped.start()
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(ran, [0, 1, 2])
})
