/**
 * The order of application hooks across a plugin tree: `onReady` and `onClose` run as on the real fastify@4.
 * `onListen` and `preClose` run in the same context-by-context order as `onReady`, once each: Fastify 4 interleaves
 * asynchronous `onListen` hooks of sibling contexts and runs a `preClose` hook once more for every descendant
 * context (docs/compatibility.md).
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

test('onReady and onClose hooks run in fastify@4\'s order across the plugin tree', async () => {
  const expected = await hookOrder(Fastify as unknown as Factory)
  const actual = await hookOrder(enclave)
  assert.equal(expected.onReady.length, 8)
  assert.deepEqual(actual.onReady, expected.onReady)
  assert.deepEqual(actual.onClose, expected.onClose)
  const treeOrder = ['root true', 'root-after true', 'A true', 'A-fp true', 'A1 true', 'A2 true', 'B true', 'B1 true']
  assert.deepEqual(actual.onListen, treeOrder)
  assert.deepEqual(actual.preClose, treeOrder)
})
