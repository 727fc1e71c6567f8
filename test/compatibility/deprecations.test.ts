/**
 * Fastify 4's deprecation warnings, which users filter on by code and text: the same deprecated calls on Enclave
 * and on the real fastify@4 emit the same warnings, each once per process. This file runs in a process of its own
 * (node --test), so no other test has used up a once-only warning.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { enclave } from '../helpers'

type Factory = (opts?: any) => any

async function deprecatedUse (factory: Factory): Promise<string[]> {
  const warnings: string[] = []
  const onWarning = (warning: any): void => {
    if (String(warning.code).startsWith('FSTDEP')) warnings.push(`${String(warning.code)} ${String(warning.name)}: ${String(warning.message)}`)
  }
  process.on('warning', onWarning)
  try {
    const app = factory({ versioning: { storage: () => { const map = new Map(); return { get: (k: string) => map.get(k) ?? null, set: (k: string, v: unknown) => map.set(k, v) } }, deriveVersion: () => undefined } })
    app.decorateRequest('shared', { reference: true })
    app.get('/versioned', { version: '1.0.0' }, async () => 'v')
    app.get('/shorthand', { schema: { querystring: { a: { type: 'string' } } } }, async (req: any) => req.query)
    app.get('/uses', async (req: any, reply: any) => {
      const seen = [req.connection === req.socket, req.routerPath, req.routerMethod, Object.keys(req.routeConfig).length, req.routeSchema, req.context !== undefined, reply.context !== undefined]
      reply.getResponseTime()
      reply.trailer('x-t', () => 'direct')
      return seen
    })
    app.get('/redirect', async (_req: any, reply: any) => reply.redirect(302, '/elsewhere'))
    app.get('/sent', async (_req: any, reply: any) => { reply.raw.end('raw'); reply.sent = true })
    app.getDefaultRoute()
    await app.ready()
    for (let i = 0; i < 2; i++) {
      for (const url of ['/shorthand?a=1', '/uses', '/redirect', '/sent']) await app.inject(url)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
    await app.close()
  } finally {
    process.off('warning', onWarning)
  }
  return warnings.sort()
}

test('deprecated calls warn as on fastify@4: same codes and texts, once each', async () => {
  const expected = await deprecatedUse(Fastify as unknown as Factory)
  assert.equal(expected.length, 16)
  assert.deepEqual(await deprecatedUse(enclave), expected)
})

async function mixedStylePlugins (factory: Factory): Promise<string[]> {
  const warnings: string[] = []
  const onWarning = (warning: any): void => {
    if (warning.code === 'FSTWRN002') warnings.push(`${String(warning.code)} ${String(warning.name)}: ${String(warning.message)}`)
  }
  process.on('warning', onWarning)
  try {
    const app = factory()
    // async and a `done` parameter: warned each time such a plugin loads, named as Fastify names it
    const mixed = async function mixedPlugin (_instance: any, _opts: any, _done: any) {}
    app.register(mixed)
    app.register(mixed)
    app.register(Object.assign(async (_instance: any, _opts: any, _done: any) => {}, { [Symbol.for('plugin-meta')]: { name: 'meta-named' } }))
    app.register(Object.assign(async (_instance: any, _opts: any, _done: any) => {}, { [Symbol.for('fastify.display-name')]: 'display-named' }))
    app.register(async (_instance: any, _opts: any, _done: any) => {})
    // either style alone is fine
    app.register(async function asyncOnly (_instance: any, _opts: any) {})
    app.register(function callbackStyle (_instance: any, _opts: any, done: () => void) { done() })
    await app.ready()
    await new Promise((resolve) => setTimeout(resolve, 20))
    await app.close()
  } finally {
    process.off('warning', onWarning)
  }
  return warnings
}

test('a plugin mixing the async and callback styles gets FSTWRN002 each time it loads, as on fastify@4', async () => {
  const expected = await mixedStylePlugins(Fastify as unknown as Factory)
  assert.deepEqual(expected, [
    'FSTWRN002 FastifyWarning: The mixedPlugin plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'FSTWRN002 FastifyWarning: The mixedPlugin plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'FSTWRN002 FastifyWarning: The meta-named plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'FSTWRN002 FastifyWarning: The display-named plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'FSTWRN002 FastifyWarning: The anonymous plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`'
  ])
  assert.deepEqual(await mixedStylePlugins(enclave), expected)
})
