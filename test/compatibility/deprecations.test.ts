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
