/**
 * Static routes are answered from a table beside the router (src/routing/route-table.ts). Through the public API,
 * at both levels: requests reach the same routes as before (escapes decoded, reserved ones not, bad ones refused
 * with FST_ERR_BAD_URL even when every route of the method is static), and the routes print in the same tree.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any
const levels = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]] as const

function buildApp (make: (options?: Record<string, any>) => any, options: Record<string, any> = {}): any {
  const app = make(options)
  app.get('/users/:id', async (request: any) => ({ id: request.params.id }))
  app.post('/users', async () => ({ created: true }))
  app.get('/users/me', async (request: any) => ({ me: true, query: request.query, params: request.params }))
  app.get('/health', async () => 'up')
  app.put('/users/:id/name', async () => 'renamed')
  app.get('/caf\u00e9', async () => 'cafe')
  return app
}

for (const [level, make] of levels) {
  test(`${level}: static and parametric routes side by side answer as registered`, async () => {
    const app = buildApp(make)
    const cases: Array<[string, string, number, string]> = [
      ['GET', '/users/me?x=1', 200, '{"me":true,"query":{"x":"1"},"params":{}}'],
      ['GET', '/users/42', 200, '{"id":"42"}'],
      ['GET', '/users/m%65', 200, '{"me":true,"query":{},"params":{}}'],
      ['GET', '/caf%C3%A9', 200, 'cafe'],
      ['POST', '/users', 200, '{"created":true}'],
      ['HEAD', '/health', 200, ''],
      ['PUT', '/users/7/name', 200, 'renamed']
    ]
    for (const [method, url, statusCode, body] of cases) {
      const res = await app.inject({ method, url })
      assert.equal(res.statusCode, statusCode, `${method} ${url}`)
      assert.equal(res.body, body, `${method} ${url}`)
    }
    await app.close()
  })

  test(`${level}: an escaped slash is not a path separator, and a trailing slash is another path`, async () => {
    const app = buildApp(make)
    const escaped = await app.inject('/users%2Fme')
    assert.equal(escaped.statusCode, 404)
    assert.deepEqual(escaped.json(), { message: 'Route GET:/users%2Fme not found', error: 'Not Found', statusCode: 404 })
    const trailing = await app.inject({ method: 'POST', url: '/users/' })
    assert.equal(trailing.statusCode, 404)
    assert.deepEqual(trailing.json(), { message: 'Route POST:/users/ not found', error: 'Not Found', statusCode: 404 })
    await app.close()
  })

  test(`${level}: a bad escape is FST_ERR_BAD_URL even when every route of the method is static`, async () => {
    const app = buildApp(make)
    for (const [method, url] of [['POST', '/%'], ['POST', '/users%'], ['GET', '/users/%E0%A4%A']]) {
      const res = await app.inject({ method, url })
      assert.equal(res.statusCode, 400, `${method} ${url}`)
      assert.deepEqual(res.json(), { error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: `'${url}' is not a valid url component`, statusCode: 400 })
    }
    await app.close()
  })

  test(`${level}: the printed tree interleaves static and parametric routes as registered`, async () => {
    const app = buildApp(make)
    await app.ready()
    assert.equal(app.printRoutes({ commonPrefix: false }), [
      '├── /users (POST)',
      '│   ├── /me (GET, HEAD)',
      '│   └── /:id (GET, HEAD)',
      '│       └── /name (PUT)',
      '├── /health (GET, HEAD)',
      '└── /café (GET, HEAD)',
      ''
    ].join('\n'))
    assert.equal(app.printRoutes({ method: 'GET' }), [
      '└── /',
      '    ├── users/',
      '    │   ├── me (GET)',
      '    │   └── :id (GET)',
      '    ├── health (GET)',
      '    └── café (GET)',
      ''
    ].join('\n'))
    await app.close()
  })

  test(`${level}: options that normalize paths apply to static routes (case, trailing and duplicate slashes)`, async () => {
    const app = buildApp(make, { routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } })
    for (const url of ['/USERS/ME', '//users//me/', '/Users/Me?x=1']) {
      const res = await app.inject(url)
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.json().me, true, url)
    }
    assert.equal((await app.inject({ method: 'POST', url: '/users/' })).statusCode, 200)
    await app.close()
  })

  test(`${level}: a constraint strategy added after static routes were printed applies to the routes after it`, async () => {
    const app = make()
    app.get('/static', async () => 'any tenant')
    assert.match(app.printRoutes(), /static \(GET, HEAD\)/)
    const tenants = new Map<string, unknown>()
    app.addConstraintStrategy({
      name: 'tenant',
      storage: () => ({ get: (key: string) => tenants.get(key) ?? null, set: (key: string, value: unknown) => { tenants.set(key, value) } }),
      deriveConstraint: (req: any) => req.headers['x-tenant'],
      validate () {}
    })
    app.get('/static', { constraints: { tenant: 'acme' } }, async () => 'acme')
    assert.equal((await app.inject({ url: '/static', headers: { 'x-tenant': 'acme' } })).body, 'acme')
    assert.equal((await app.inject('/static')).body, 'any tenant')
    await app.close()
  })

  test(`${level}: a static route added beside a constrained one keeps both reachable`, async () => {
    const app = make()
    app.get('/site', async () => 'any host')
    app.get('/site', { constraints: { host: 'example.com' } }, async () => 'example.com')
    app.get('/later', async () => 'later')
    assert.equal((await app.inject({ url: '/site', headers: { host: 'example.com' } })).body, 'example.com')
    assert.equal((await app.inject({ url: '/site', headers: { host: 'other.com' } })).body, 'any host')
    assert.equal((await app.inject('/later')).body, 'later')
    assert.equal(app.hasRoute({ method: 'GET', url: '/later' }), true)
    await app.close()
  })
}
