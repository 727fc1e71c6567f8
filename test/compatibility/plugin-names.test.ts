/**
 * Which plugins `hasPlugin()` reports and which plugin-meta `dependencies` are satisfied, in each context: Enclave
 * and the real fastify@4 load the same plugin trees and must agree (plugins check each other this way).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any
const names = ['rootFp', 'enc', 'innerFp', 'kid', 'late', 'innerEnc', 'afterKid', 'metaEnc', 'displayed']

async function visibility (factory: Factory): Promise<string[]> {
  const seen: string[] = []
  const check = (label: string, instance: any): void => { seen.push(`${label}: ${names.filter((name) => instance.hasPlugin(name)).join(',')}`) }
  const app = factory()
  const metaEnc = async (instance: any): Promise<void> => { check('metaEnc', instance) }
  ;(metaEnc as any)[Symbol.for('plugin-meta')] = { name: 'metaEnc' }
  const displayed = async (instance: any): Promise<void> => { check('displayed', instance) }
  ;(displayed as any)[Symbol.for('fastify.display-name')] = 'displayed'
  app.register(fp(async () => {}, { name: 'rootFp' }))
  app.register(async function enc (instance: any) {
    check('enc', instance)
    instance.register(fp(async (inner: any) => { check('innerFp', inner) }, { name: 'innerFp' }))
    instance.register(async function kid (child: any) {
      check('kid', child)
      child.register(async function innerEnc (grandchild: any) { check('innerEnc', grandchild) })
    })
    instance.register(fp(async () => {}, { name: 'afterKid' }))
    instance.after(() => { check('enc after', instance) })
  })
  app.register(metaEnc)
  app.register(displayed)
  app.register(async function late (instance: any) { check('late', instance) })
  await app.ready()
  check('root', app)
  await app.close()
  return seen
}

test('hasPlugin answers as on fastify@4 in every context', async () => {
  const expected = await visibility(Fastify as unknown as Factory)
  assert.equal(expected.length, 9)
  assert.deepEqual(await visibility(enclave), expected)
})

const dependencyCases: Record<string, (app: any) => void> = {
  'an encapsulated plugin known by its function name': (app) => {
    app.register(async function enc () {})
    app.register(fp(async () => {}, { name: 'user', dependencies: ['enc'] }))
  },
  'an encapsulated plugin with a plugin-meta name': (app) => {
    const plugin = async (): Promise<void> => {}
    ;(plugin as any)[Symbol.for('plugin-meta')] = { name: 'metaEnc' }
    app.register(plugin)
    app.register(fp(async () => {}, { name: 'user', dependencies: ['metaEnc'] }))
  },
  'an fp plugin': (app) => {
    app.register(fp(async () => {}, { name: 'base' }))
    app.register(fp(async () => {}, { name: 'user', dependencies: ['base'] }))
  },
  'an unnamed fp plugin by its function name': (app) => {
    app.register(fp(async function baseFn () {}))
    app.register(fp(async () => {}, { name: 'user', dependencies: ['baseFn'] }))
  },
  'an fp plugin of the parent, from a child': (app) => {
    app.register(fp(async () => {}, { name: 'base' }))
    app.register(async (child: any) => { child.register(fp(async () => {}, { name: 'user', dependencies: ['base'] })) })
  },
  'an fp plugin of a sibling context': (app) => {
    app.register(async (child: any) => { child.register(fp(async () => {}, { name: 'base' })) })
    app.register(fp(async () => {}, { name: 'user', dependencies: ['base'] }))
  },
  'the encapsulated plugin it is registered in': (app) => {
    app.register(async function parentEnc (child: any) { child.register(fp(async () => {}, { name: 'user', dependencies: ['parentEnc'] })) })
  }
}

test('plugin-meta dependencies are satisfied as on fastify@4', async () => {
  for (const [label, setup] of Object.entries(dependencyCases)) {
    const outcomes: string[] = []
    for (const factory of [Fastify as unknown as Factory, enclave]) {
      const app = factory()
      setup(app)
      // Fastify reports a missing dependency with an assertion, Enclave with a coded error: the message is the same
      outcomes.push(await app.ready().then(() => 'loaded', (err: Error) => err.message))
      await app.close()
    }
    assert.equal(outcomes[1], outcomes[0], label)
  }
})
