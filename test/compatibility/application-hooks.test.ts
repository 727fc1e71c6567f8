/**
 * The order of application hooks across a plugin tree: `onReady`, `onListen` (sibling contexts side by side) and
 * `onClose` run as on the real fastify@4. `preClose` hooks run in `onReady`'s order, once each: Fastify 4 runs a
 * `preClose` hook once more for every descendant context created before it was added (docs/compatibility.md).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any
const names = ['onReady', 'onListen', 'preClose', 'onClose'] as const

async function hookOrder (factory: Factory): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = { onReady: [], onListen: [], preClose: [], onClose: [] }
  const app = factory()
  const add = (instance: any, label: string): void => {
    for (const name of names) {
      instance.addHook(name, name === 'onClose'
        ? async (closing: any) => { seen.onClose.push(`${label} ${String(closing === instance)}`) }
        : async function (this: any) { seen[name].push(`${label} ${String(this === instance)}`) })
    }
  }
  add(app, 'root')
  app.register(async (a: any) => {
    add(a, 'A')
    a.register(async (a1: any) => { add(a1, 'A1') })
    a.register(fp(async (shared: any) => { add(shared, 'A-fp') }))
    a.register(async (a2: any) => { add(a2, 'A2') })
  })
  app.register(async (b: any) => {
    b.register(async (b1: any) => { add(b1, 'B1') })
    add(b, 'B')
  })
  app.after(() => { add(app, 'root-after') })
  await app.ready()
  await app.listen({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => setTimeout(resolve, 20))
  await app.close()
  return seen
}

test('onReady, onListen and onClose hooks run in fastify@4\'s order across the plugin tree', async () => {
  const expected = await hookOrder(Fastify as unknown as Factory)
  const actual = await hookOrder(enclave)
  assert.equal(expected.onReady.length, 8)
  assert.deepEqual(actual.onReady, expected.onReady)
  assert.deepEqual(actual.onClose, expected.onClose)
  assert.deepEqual(actual.onListen, expected.onListen)
  // each preClose hook once, in onReady's order (Fastify runs a hook again for each descendant context)
  assert.deepEqual(actual.preClose, actual.onReady)
})
