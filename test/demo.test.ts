import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { buildDemoApp } from '../examples/demo-app'
import { startDemo } from './helpers'

const key = 'test-key'
const auth = { authorization: `Bearer ${key}` }

test('the spec visibility table: each route sees only its ancestors\' decorators', async () => {
  const app = buildDemoApp({ keys: [key] })
  const one = await app.inject({ url: '/one', headers: auth })
  assert.equal(one.statusCode, 200)
  assert.deepEqual(one.json(), { answer: 42 })
  const two = await app.inject({ url: '/two' })
  assert.equal(two.statusCode, 200)
  assert.deepEqual(two.json(), { answer: 42, foo: 'foo' })
  const three = await app.inject({ url: '/three' })
  assert.equal(three.statusCode, 200)
  assert.deepEqual(three.json(), { answer: 42, foo: 'foo', bar: 'bar' })
  await app.close()
})

test('bearer-auth protects only its own context', async () => {
  const app = buildDemoApp({ keys: [key] })
  const missing = await app.inject({ url: '/one' })
  assert.equal(missing.statusCode, 401)
  assert.deepEqual(missing.json(), { error: 'missing authorization header' })
  const wrong = await app.inject({ url: '/one', headers: { authorization: 'Bearer nope' } })
  assert.equal(wrong.statusCode, 401)
  assert.deepEqual(wrong.json(), { error: 'invalid authorization header' })
  // the sibling and its grandchild need no key
  assert.equal((await app.inject({ url: '/two' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/three', headers: { authorization: 'Bearer nope' } })).statusCode, 200)
  await app.close()
})

test('with the grandchild wrapped by fastify-plugin, /two also returns bar', async () => {
  const app = buildDemoApp({ keys: [key], wrapGrandchild: true })
  const two = await app.inject({ url: '/two' })
  assert.deepEqual(two.json(), { answer: 42, foo: 'foo', bar: 'bar' })
  const three = await app.inject({ url: '/three' })
  assert.deepEqual(three.json(), { answer: 42, foo: 'foo', bar: 'bar' })
  const one = await app.inject({ url: '/one', headers: auth })
  assert.deepEqual(one.json(), { answer: 42 })
  await app.close()
})

test('npm start: the demo listens, prints its URL and curl lines, answers over a real socket, closes on SIGTERM', async (t) => {
  const { child, address, output } = await startDemo(t, key)
  assert.match(output(), /curl -H 'authorization: Bearer test-key' http:\/\/127\.0\.0\.1:\d+\/one/)
  const one = await fetch(`${address}/one`, { headers: auth })
  assert.equal(one.status, 200)
  assert.deepEqual(await one.json(), { answer: 42 })
  const denied = await fetch(`${address}/one`)
  assert.equal(denied.status, 401)
  const three = await fetch(`${address}/three`)
  assert.deepEqual(await three.json(), { answer: 42, foo: 'foo', bar: 'bar' })
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  assert.equal(code, 0)
  assert.match(output(), /SIGTERM received: closing/)
})
