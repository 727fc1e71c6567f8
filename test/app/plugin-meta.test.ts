import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import enclave from '../../src'
import enclave5 from '../../src/fastify5'

/** What ready() gives for a plugin declaring `range`: 'loaded', or the error's code and message. */
async function outcome (factory: () => any, range: string, version?: string): Promise<string | [string, string]> {
  const app = factory()
  if (version !== undefined) Object.defineProperty(app, 'version', { value: version })
  app.register(fp(async () => {}, { fastify: range, name: 'made-for' }))
  return app.ready().then(() => 'loaded', (err: any) => [err.code, err.message])
}

test('a plugin made for Fastify 4 only fails at the Fastify 5 level, and the error names the entry of the level that takes it', async () => {
  assert.deepEqual(await outcome(() => enclave5(), '4.x'), ['FST_ERR_PLUGIN_VERSION_MISMATCH',
    "fastify-plugin: made-for - expected '4.x' fastify version, '5.12.8' is installed; " +
    "it is made for Fastify 4, which Enclave's Fastify 4 level gives: load 'enclave-http/fastify4'"])
  assert.equal(await outcome(() => enclave5(), '>=4.0.0'), 'loaded')
})

test('a range neither level takes fails with Fastify\'s message alone', async () => {
  assert.deepEqual(await outcome(() => enclave5(), '3.x'), ['FST_ERR_PLUGIN_VERSION_MISMATCH',
    "fastify-plugin: made-for - expected '3.x' fastify version, '5.12.8' is installed"])
  assert.deepEqual(await outcome(() => enclave(), '6.x'), ['FST_ERR_PLUGIN_VERSION_MISMATCH',
    "fastify-plugin: made-for - expected '6.x' fastify version, '4.29.1' is installed"])
  // a redefined instance.version is the only one checked, and no level is named
  assert.deepEqual(await outcome(() => enclave5(), '4.x', '5.0.0'), ['FST_ERR_PLUGIN_VERSION_MISMATCH',
    "fastify-plugin: made-for - expected '4.x' fastify version, '5.0.0' is installed"])
})

test('the Fastify 4 level takes plugins made for Fastify 4 or 5, so none of them is sent to the other level', async () => {
  for (const range of ['4.x', '5.x', '^5.12.0', '>=4 <6']) assert.equal(await outcome(() => enclave(), range), 'loaded', range)
})
