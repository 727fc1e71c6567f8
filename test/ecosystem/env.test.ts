import { test } from 'node:test'
import assert from 'node:assert/strict'
import env from '@fastify/env'
import enclave from '../../src/index'

const schema = {
  type: 'object',
  required: ['PORT', 'DATABASE_URL'],
  properties: {
    PORT: { type: 'integer', default: 3000 },
    DATABASE_URL: { type: 'string' },
    DEBUG: { type: 'boolean', default: false }
  }
}

test('env: the validated configuration is decorated on the instance before ready()', async () => {
  const app: any = enclave()
  app.register(env, { schema, data: { DATABASE_URL: 'postgres://db', DEBUG: 'true' } })
  app.get('/config', async function (this: any) { return this.config })
  await app.ready()
  assert.deepEqual(app.config, { PORT: 3000, DATABASE_URL: 'postgres://db', DEBUG: true })
  const res = await app.inject('/config')
  assert.deepEqual(res.json(), { PORT: 3000, DATABASE_URL: 'postgres://db', DEBUG: true })
  await app.close()
})

test('env: a missing required key rejects ready() with env-schema\'s message; confKey renames the decorator', async () => {
  const failing: any = enclave()
  failing.register(env, { schema, data: {} })
  await assert.rejects(failing.ready(), { message: "env must have required property 'DATABASE_URL'" })

  const renamed: any = enclave()
  renamed.register(env, { schema, confKey: 'settings', data: { DATABASE_URL: 'x', PORT: '8080' } })
  await renamed.ready()
  assert.equal(renamed.settings.PORT, 8080)
  assert.equal(renamed.config, undefined)
  await renamed.close()
})
