import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import autoload from '@fastify/autoload'
import enclave from '../../src/index'

const fixtures = path.join(__dirname, 'fixtures', 'autoload')

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(autoload, { dir: path.join(fixtures, 'plugins'), options: { salutation: 'hi' } })
  app.register(autoload, { dir: path.join(fixtures, 'routes'), autoHooks: true, options: { prefix: '/api' } })
  await app.ready()
  return app
}

test('autoload: plugins and route folders load from disk with folder prefixes, autoPrefix, options and folder-scoped autohooks', async () => {
  const app = await build()
  assert.equal(app.greet('ada'), 'hi ada')
  assert.equal(app.hasPlugin('greeting'), true)

  const root = await app.inject('/api')
  assert.equal(root.statusCode, 200)
  assert.deepEqual(root.json(), { root: true, hook: null })

  const user = await app.inject('/api/users/ada')
  assert.equal(user.statusCode, 200)
  assert.deepEqual(user.json(), { id: 'ada', greeting: 'hi ada', hook: 'users' })

  const list = await app.inject('/api/users')
  assert.deepEqual(list.json(), { users: [], hook: 'users' })

  const admin = await app.inject('/api/backoffice')
  assert.equal(admin.statusCode, 200)
  assert.deepEqual(admin.json(), { admin: true })
  assert.equal((await app.inject('/api/admin')).statusCode, 404)
  await app.close()
})

test('autoload: without folder prefixes, two folders declaring the same route make ready() fail', async () => {
  const app: any = enclave()
  app.register(autoload, { dir: path.join(fixtures, 'routes'), dirNameRoutePrefix: false })
  await assert.rejects(app.ready(), { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method 'GET' already declared for route '/'" })
})
