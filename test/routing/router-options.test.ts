/**
 * `routerOptions` (Fastify 5's grouping of the router's settings, at both levels): its precedence over the
 * top-level options, its handlers (defaultRoute, onBadUrl, onMaxParamLength), `compile`, and the answers to a URL
 * the router cannot finish looking up, which differ between the levels (src/core/api-level.ts).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

async function codesWarned (code: string, make: () => void): Promise<string[]> {
  const messages: string[] = []
  const listener = (warning: any): void => { if (warning.code === code) messages.push(`${String(warning.name)}: ${String(warning.message)}`) }
  process.on('warning', listener)
  try {
    make()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', listener)
  }
  return messages
}

test('routerOptions configures the router at both levels, and wins over the same option at the top level', async () => {
  for (const factory of [enclave, enclave5]) {
    const app = factory({
      ignoreTrailingSlash: false,
      caseSensitive: true,
      routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false }
    })
    app.get('/a//b', async (req: any) => req.url)
    for (const url of ['/a/b', '/a/b/', '//A//B//']) {
      const res = await app.inject(url)
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, url)
    }
  }
})

test('routerOptions.querystringParser and useSemicolonDelimiter shape request.query', async () => {
  const app = enclave5({ routerOptions: { useSemicolonDelimiter: true, querystringParser: (text: string) => ({ raw: text }) } })
  app.get('/q', async (req: any) => req.query)
  assert.deepEqual((await app.inject('/q;a=1')).json(), { raw: 'a=1' })
  assert.deepEqual((await app.inject('/q?b=2')).json(), { raw: 'b=2' })
})

test('other find-my-way options pass through: buildPrettyMeta shapes printRoutes({ includeMeta })', async () => {
  const app = enclave5({ routerOptions: { buildPrettyMeta: (route: any) => ({ path: route.path }) } })
  app.put('/one', () => 'x')
  await app.ready()
  assert.equal(app.printRoutes({ includeMeta: true }), '└── /\n    └── one (PUT)\n        • (path) "/one"\n')
})

test('Fastify 5 level: a router option at the top level warns FSTDEP022 (each time), naming them; the Fastify 4 level does not', async () => {
  const v5 = await codesWarned('FSTDEP022', () => { enclave5({ caseSensitive: false, maxParamLength: 50 }); enclave5({ ignoreTrailingSlash: true }) })
  assert.deepEqual(v5, [
    'FastifyWarning: The router options for caseSensitive, maxParamLength property access is deprecated. Please use "options.routerOptions" ' +
      'instead for accessing router options. The router options will be removed in `fastify@6`.',
    'FastifyWarning: The router options for ignoreTrailingSlash property access is deprecated. Please use "options.routerOptions" ' +
      'instead for accessing router options. The router options will be removed in `fastify@6`.'
  ])
  assert.deepEqual(await codesWarned('FSTDEP022', () => enclave({ caseSensitive: false })), [])
  assert.deepEqual(await codesWarned('FSTDEP022', () => enclave5({ routerOptions: { caseSensitive: false } })), [])
})

test('a parameter over maxParamLength: 414 FST_ERR_MAX_PARAM_LENGTH at the Fastify 5 level, not found at the Fastify 4 level', async () => {
  const v5 = enclave5({ routerOptions: { maxParamLength: 5 } })
  v5.get('/p/:id', async (req: any) => req.params)
  assert.equal((await v5.inject('/p/12345')).statusCode, 200)
  const long = await v5.inject('/p/123456')
  assert.equal(long.statusCode, 414)
  assert.equal(long.headers['content-type'], 'application/json')
  assert.deepEqual(long.json(), { error: 'Bad Request', code: 'FST_ERR_MAX_PARAM_LENGTH', message: "'/p/123456' is exceeding the max param length", statusCode: 414 })
  const v4 = enclave({ maxParamLength: 5 })
  v4.get('/p/:id', async (req: any) => req.params)
  const v4Long = await v4.inject('/p/123456')
  assert.equal(v4Long.statusCode, 404)
  assert.equal(v4Long.json().message, 'Route GET:/p/123456 not found')
})

test('the long parameter goes through frameworkErrors, with a request of the URL\'s not-found context', async () => {
  const app = enclave5({
    routerOptions: { maxParamLength: 1 },
    frameworkErrors: (err: any, request: any, reply: any) => reply.code(err.statusCode).send(`${String(err.code)} ${String(request.url)}`)
  })
  app.get('/p/:id', () => 'x')
  const res = await app.inject('/p/12')
  assert.equal(res.statusCode, 414)
  assert.equal(res.body, 'FST_ERR_MAX_PARAM_LENGTH /p/12')
})

test('a bad URL with no route of its method: 400 FST_ERR_BAD_URL at the Fastify 5 level, the not-found handler at the Fastify 4 level', async () => {
  const v5 = enclave5()
  v5.get('/hello/:id', () => 'x')
  const res = await v5.inject({ method: 'DELETE', url: '/hello/%world' })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: "'/hello/%world' is not a valid url component", statusCode: 400 })
  const v4 = enclave()
  v4.get('/hello/:id', () => 'x')
  const v4Res = await v4.inject({ method: 'DELETE', url: '/hello/%world' })
  assert.equal(v4Res.statusCode, 404)
  // with a route of its method, both levels answer 400
  assert.equal((await v4.inject('/hello/%world')).statusCode, 400)
})

test('routerOptions.onBadUrl and onMaxParamLength answer with the raw request and response, at both levels', async () => {
  for (const factory of [enclave, enclave5]) {
    const app = factory({
      routerOptions: {
        maxParamLength: 3,
        onBadUrl: (path: string, _req: any, res: any) => { res.statusCode = 400; res.end(`bad ${path}`) },
        onMaxParamLength: (path: string, _req: any, res: any) => { res.statusCode = 414; res.end(`long ${path}`) }
      }
    })
    app.get('/p/:id', () => 'x')
    const bad = await app.inject('/p/%zz')
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.body, 'bad /p/%zz')
    const badOtherMethod = await app.inject({ method: 'PATCH', url: '/p/%zz' })
    assert.equal(badOtherMethod.body, 'bad /p/%zz')
    const long = await app.inject('/p/1234')
    assert.equal(long.statusCode, 414)
    assert.equal(long.body, 'long /p/1234')
  }
})

test('routerOptions.defaultRoute takes every unmatched request instead of the not-found handlers', async () => {
  const app = enclave5({ routerOptions: { defaultRoute: (_req: any, res: any) => { res.statusCode = 404; res.end('default route') } } })
  app.setNotFoundHandler(() => 'not used')
  app.get('/', () => 'home')
  assert.equal((await app.inject('/')).body, 'home')
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 404)
  assert.equal(res.body, 'default route')
})

test('routerOptions.compile: the routers compile when the app is ready, and answer as before', async () => {
  const app = enclave5({ routerOptions: { compile: true, ignoreTrailingSlash: true } })
  app.get('/users/:id', async (req: any) => req.params)
  app.register(async (api: any) => { api.setNotFoundHandler((_req: any, reply: any) => reply.code(404).send('api 404')) }, { prefix: '/api' })
  await app.ready()
  assert.deepEqual((await app.inject('/users/7/')).json(), { id: '7' })
  assert.equal((await app.inject('/api/x')).body, 'api 404')
  assert.equal(app.hasRoute({ method: 'GET', url: '/users/:id' }), true)
})

test('routerOptions is checked: its typed settings and its functions', () => {
  assert.throws(() => enclave5({ routerOptions: 'yes' }), { code: 'FST_ERR_INIT_OPTS_INVALID', message: 'Invalid initialization options: \'["must be object"]\'' })
  assert.throws(() => enclave5({ routerOptions: { compile: 'yes' } }), { code: 'FST_ERR_INIT_OPTS_INVALID', message: 'Invalid initialization options: \'["must be boolean"]\'' })
  assert.throws(() => enclave({ routerOptions: { querystringParser: 'qs' } }), { code: 'FST_ERR_QSP_NOT_FN' })
  assert.throws(() => enclave5({ routerOptions: { onBadUrl: 1 } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
})

test('initialConfig.routerOptions exists only when given; the user\'s object is neither changed nor tied to one app', async () => {
  assert.equal(enclave5().initialConfig.routerOptions, undefined)
  const routerOptions = { maxParamLength: '20' }
  const first = enclave5({ routerOptions })
  const second = enclave5({ routerOptions })
  assert.deepEqual(routerOptions, { maxParamLength: '20' })
  assert.equal(first.initialConfig.routerOptions.maxParamLength, 20)
  assert.equal(first.initialConfig.routerOptions.compile, false)
  assert.equal(Object.isFrozen(first.initialConfig.routerOptions), true)
  assert.equal((await second.inject('/nothing')).statusCode, 404)
})
