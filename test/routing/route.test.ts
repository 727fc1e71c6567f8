import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { enclave, logSink } from '../helpers'

const methods = ['get', 'post', 'put', 'delete', 'options', 'patch'] as const

test('route(opts) registers a handler for one method or a list', async () => {
  const app = enclave()
  app.route({ method: 'GET', url: '/one', handler: async () => ({ one: true }) })
  app.route({ method: ['POST', 'PUT'], url: '/many', handler: async (req: any) => ({ method: req.method }) })
  const one = await app.inject('/one')
  assert.equal(one.statusCode, 200)
  assert.equal(one.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(one.json(), { one: true })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/many' })).json(), { method: 'POST' })
  assert.deepEqual((await app.inject({ method: 'PUT', url: '/many' })).json(), { method: 'PUT' })
  assert.equal((await app.inject({ method: 'DELETE', url: '/many' })).statusCode, 404)
  await app.close()
})

test('shortcuts accept (path, handler), (path, options, handler) and (path, optionsWithHandler)', async () => {
  const app = enclave()
  for (const m of methods) {
    app[m]('/a', async (req: any) => ({ form: 'a', method: req.method }))
    app[m]('/b', { config: { form: 'b' } }, async (req: any) => ({ form: req.routeOptions.config.form, method: req.method }))
    app[m]('/c', { config: { form: 'c' }, handler: async (req: any) => ({ form: req.routeOptions.config.form, method: req.method }) })
  }
  for (const m of methods) {
    const method = m.toUpperCase()
    for (const form of ['a', 'b', 'c']) {
      const res = await app.inject({ method, url: `/${form}` })
      assert.equal(res.statusCode, 200, `${method} /${form}`)
      assert.deepEqual(res.json(), { form, method })
    }
  }
  await app.close()
})

test('head shortcut and all()', async () => {
  const app = enclave()
  app.head('/h', async (_req: any, reply: any) => { reply.header('x-head', 'yes').send() })
  app.all('/any', async (req: any) => ({ method: req.method }))
  const head = await app.inject({ method: 'HEAD', url: '/h' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['x-head'], 'yes')
  assert.equal(head.payload, '')
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'SEARCH']) {
    const res = await app.inject({ method, url: '/any' })
    assert.equal(res.statusCode, 200, method)
    assert.deepEqual(res.json(), { method })
  }
  await app.close()
})

test('shortcut with both a handler argument and options.handler throws', () => {
  const app = enclave()
  assert.throws(() => app.get('/', { handler: () => {} }, () => {}), { code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER' })
})

test('params, wildcards and regexp params', async () => {
  const app = enclave()
  app.get('/user/:id', async (req: any) => req.params)
  app.get('/user/:id/post/:post', async (req: any) => req.params)
  app.get('/files/*', async (req: any) => req.params)
  app.get('/num/:id(^\\d+)', async (req: any) => req.params)
  app.get('/date/:year-:month', async (req: any) => req.params)
  assert.deepEqual((await app.inject('/user/42')).json(), { id: '42' })
  assert.deepEqual((await app.inject('/user/42/post/7')).json(), { id: '42', post: '7' })
  assert.deepEqual((await app.inject('/files/a/b/c.txt')).json(), { '*': 'a/b/c.txt' })
  assert.deepEqual((await app.inject('/num/123')).json(), { id: '123' })
  assert.equal((await app.inject('/num/abc')).statusCode, 404)
  assert.deepEqual((await app.inject('/date/2024-05')).json(), { year: '2024', month: '05' })
  assert.deepEqual((await app.inject('/user/a%20b')).json(), { id: 'a b' })
  await app.close()
})

test('query string is parsed into request.query', async () => {
  const app = enclave()
  app.get('/q', async (req: any) => req.query)
  assert.deepEqual((await app.inject('/q?a=1&b=x&b=y')).json(), { a: '1', b: ['x', 'y'] })
  await app.close()
})

test('register prefix: routes are prefixed; a "/" route answers /p and /p/', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.get('/', async () => 'root of p')
    child.get('/x', async (req: any) => ({ url: req.url, routeUrl: req.routeOptions.url }))
    child.register(async (grand: any) => {
      grand.get('/y', async () => 'nested')
    }, { prefix: '/q' })
  }, { prefix: '/p' })
  app.register(async (child: any) => {
    child.get('/z', async () => 'z')
  }, { prefix: 'noslash' })
  await app.ready()
  assert.equal((await app.inject('/p')).payload, 'root of p')
  assert.equal((await app.inject('/p/')).payload, 'root of p')
  assert.deepEqual((await app.inject('/p/x?k=v')).json(), { url: '/p/x?k=v', routeUrl: '/p/x' })
  assert.equal((await app.inject('/p/q/y')).payload, 'nested')
  assert.equal((await app.inject('/noslash/z')).payload, 'z')
  assert.equal((await app.inject('/x')).statusCode, 404)
  await app.close()
})

test('a prefix given with its trailing slash is the route\'s path as given: "/p/" answers "/p/" (and "/p//"), not "/p"', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.get('/', async () => 'root of p')
    child.get('/x', async () => 'x')
  }, { prefix: '/p/' })
  app.register(async (child: any) => { child.get('/', async () => 'slash root') }, { prefix: '/' })
  assert.equal((await app.inject('/p')).statusCode, 404)
  assert.equal((await app.inject('/p/')).payload, 'root of p')
  assert.equal((await app.inject('/p//')).payload, 'root of p')
  assert.equal((await app.inject('/p/x')).payload, 'x')
  assert.equal((await app.inject('/')).payload, 'slash root')
  await app.close()
})

test('with ignoreDuplicateSlashes, a prefix given with its trailing slash registers its "/" route once', async () => {
  const app = enclave({ ignoreDuplicateSlashes: true })
  app.register(async (child: any) => { child.get('/', async () => 'root of p') }, { prefix: '/p/' })
  assert.equal((await app.inject('/p/')).payload, 'root of p')
  assert.equal((await app.inject('/p//')).payload, 'root of p')
  await app.close()
})

test('prefixTrailingSlash: slash / no-slash restrict the "/" route under a prefix', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.get('/', { prefixTrailingSlash: 'slash' }, async () => 'slash')
  }, { prefix: '/s' })
  app.register(async (child: any) => {
    child.get('/', { prefixTrailingSlash: 'no-slash' }, async () => 'no-slash')
  }, { prefix: '/n' })
  assert.equal((await app.inject('/s/')).payload, 'slash')
  assert.equal((await app.inject('/s')).statusCode, 404)
  assert.equal((await app.inject('/n')).payload, 'no-slash')
  assert.equal((await app.inject('/n/')).statusCode, 404)
  await app.close()
})

test('route config is visible at request.routeOptions.config and routeConfig', async () => {
  const app = enclave()
  app.get('/c', { config: { role: 'admin' } }, async (req: any) => ({ config: req.routeOptions.config, routeConfig: req.routeConfig, method: req.routeOptions.method, url: req.routeOptions.url }))
  app.get('/none', async (req: any) => ({ config: req.routeOptions.config }))
  assert.deepEqual((await app.inject('/c')).json(), {
    config: { role: 'admin', url: '/c', method: 'GET' },
    routeConfig: { role: 'admin', url: '/c', method: 'GET' },
    method: 'GET',
    url: '/c'
  })
  assert.deepEqual((await app.inject('/none')).json(), { config: { url: '/none', method: 'GET' } })
  await app.close()
})

test('a route of several methods reports them all, as declared, in routeOptions.method and its config; its HEAD route says HEAD', async () => {
  const app = enclave()
  const report = async (req: any) => ({ method: req.routeOptions.method, config: req.routeOptions.config })
  app.route({ method: ['get', 'POST'], url: '/m', config: { x: 1 }, handler: report })
  app.route({ method: 'HEAD', url: '/h', handler: async (req: any, reply: any) => reply.header('x-method', JSON.stringify(req.routeOptions.method)).send() })
  const expected = { method: ['GET', 'POST'], config: { x: 1, url: '/m', method: ['GET', 'POST'] } }
  assert.deepEqual((await app.inject('/m')).json(), expected)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/m' })).json(), expected)
  assert.equal((await app.inject({ method: 'HEAD', url: '/h' })).headers['x-method'], '"HEAD"')
  await app.close()
})

test('the handler runs with this = its instance', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.decorate('who', 'child')
    child.get('/', async function (this: any) { return { who: this.who, same: this === child } })
  })
  assert.deepEqual((await app.inject('/')).json(), { who: 'child', same: true })
  await app.close()
})

test('duplicate route throws FST_ERR_DUPLICATED_ROUTE at registration', () => {
  const app = enclave()
  app.get('/dup', () => {})
  assert.throws(() => app.get('/dup', () => {}), (err: any) => {
    assert.equal(err.code, 'FST_ERR_DUPLICATED_ROUTE')
    assert.equal(err.message, "Method 'GET' already declared for route '/dup'")
    return true
  })
  app.post('/dup', () => {})
  assert.throws(() => app.route({ method: ['PUT', 'POST'], url: '/dup', handler: () => {} }), { code: 'FST_ERR_DUPLICATED_ROUTE' })
})

test('duplicate route across plugins rejects ready()', async () => {
  const app = enclave()
  app.get('/dup', () => {})
  app.register(async (child: any) => { child.get('/dup', () => {}) })
  await assert.rejects(app.ready(), { code: 'FST_ERR_DUPLICATED_ROUTE' })
})

test('invalid route options throw at registration with the right code', () => {
  const app = enclave()
  assert.throws(() => app.route({ method: 'GET', url: '/' }), { code: 'FST_ERR_ROUTE_MISSING_HANDLER' })
  assert.throws(() => app.get('/'), { code: 'FST_ERR_ROUTE_MISSING_HANDLER' })
  assert.throws(() => app.route({ method: 'FETCH', url: '/', handler: () => {} }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' })
  assert.throws(() => app.route({ method: 42, url: '/', handler: () => {} }), { code: 'FST_ERR_ROUTE_METHOD_INVALID' })
  assert.throws(() => app.route({ method: [], url: '/', handler: () => {} }), { code: 'FST_ERR_ROUTE_METHOD_INVALID' })
  assert.throws(() => app.post('/', { bodyLimit: 1.5 }, () => {}), { code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT' })
  assert.throws(() => app.post('/', { bodyLimit: '100' }, () => {}), { code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT' })
  assert.throws(() => app.get('/', { schema: { body: { type: 'object' } } }, () => {}), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
  assert.throws(() => app.head('/', { schema: { body: { type: 'object' } } }, () => {}), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
  assert.throws(() => app.route({ method: 'GET', url: 42, handler: () => {} }), { code: 'FST_ERR_INVALID_URL' })
  assert.throws(() => app.get('/', { errorHandler: 'nope' }, () => {}), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN' })
  assert.throws(() => app.get('/', { onRequest: 'nope' }, () => {}), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
  // an async hook that also takes `done`, in a list of route hooks as in addHook (a single one: route-checks.test.ts)
  assert.throws(() => app.get('/', { preHandler: [async (_req: any, _reply: any, _done: any) => {}] }, () => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.throws(() => app.get('/', 'nope'), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ' })
  // nothing was registered by the failed calls
  assert.equal(app.hasRoute({ method: 'GET', url: '/' }), false)
})

test('shortcut arguments: with a handler third, the options must be an object; without, a function second is the handler', async () => {
  const app = enclave()
  for (const options of [undefined, null, '', 1, []]) {
    assert.throws(() => app.get('/a', options, async () => 'x'), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ' }, String(options))
  }
  assert.throws(() => app.get('/a', { handler: 'nope' }, async () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN' })
  assert.throws(() => app.get(42, async () => 'x'), { code: 'FST_ERR_INVALID_URL' })
  app.get('/fn', async () => 'function second')
  app.get('/opts', { handler: async () => 'handler in options' })
  assert.throws(() => app.get('/none', undefined), { code: 'FST_ERR_ROUTE_MISSING_HANDLER' })
  assert.equal((await app.inject('/fn')).body, 'function second')
  assert.equal((await app.inject('/opts')).body, 'handler in options')
})

test('route options are checked in Fastify\'s order: a bad bodyLimit is named before a missing url', () => {
  const app = enclave()
  assert.throws(() => app.route({ method: 'PUT', bodyLimit: false, handler: () => null }), {
    code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', message: "'bodyLimit' option must be an integer > 0. Got 'false'"
  })
  assert.throws(() => app.route({ method: 'GET', handler: () => null }), { name: 'AssertionError', message: 'The path could not be empty' })
})

test('routes cannot be added after the app started', async () => {
  const app = enclave()
  await app.ready()
  assert.throws(() => app.get('/late', () => {}), (err: any) => {
    assert.equal(err.code, 'FST_ERR_INSTANCE_ALREADY_LISTENING')
    assert.equal(err.message, 'Fastify instance is already listening. Cannot add route!')
    return true
  })
  await app.close()
})

test('a route bodyLimit overrides the server one', async () => {
  const app = enclave()
  app.post('/small', { bodyLimit: 5 }, async (req: any) => req.body)
  const res = await app.inject({ method: 'POST', url: '/small', payload: { a: 'long value' } })
  assert.equal(res.statusCode, 413)
  assert.equal(res.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  await app.close()
})

test('GET routes answer HEAD with an empty body and the same content-type/length', async () => {
  const app = enclave()
  app.get('/json', async () => ({ hello: 'world' }))
  app.get('/text', async (_req: any, reply: any) => reply.header('x-custom', '1').type('text/plain').send('some text'))
  const get = await app.inject('/json')
  const head = await app.inject({ method: 'HEAD', url: '/json' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.payload, '')
  assert.equal(head.headers['content-type'], get.headers['content-type'])
  assert.equal(head.headers['content-length'], get.headers['content-length'])
  assert.equal(head.headers['content-length'], String(Buffer.byteLength('{"hello":"world"}')))
  const text = await app.inject({ method: 'HEAD', url: '/text' })
  assert.equal(text.payload, '')
  assert.equal(text.headers['content-type'], 'text/plain')
  assert.equal(text.headers['content-length'], '9')
  assert.equal(text.headers['x-custom'], '1')
  assert.equal(app.hasRoute({ method: 'HEAD', url: '/json' }), true)
  await app.close()
})

test('an explicit HEAD route replaces the automatic one (declared before or after the GET)', async () => {
  const app = enclave()
  app.get('/after', async () => 'get')
  app.head('/after', async (_req: any, reply: any) => { reply.header('x-explicit', 'after').send() })
  app.head('/before', async (_req: any, reply: any) => { reply.header('x-explicit', 'before').send() })
  app.get('/before', async () => 'get')
  const after = await app.inject({ method: 'HEAD', url: '/after' })
  assert.equal(after.statusCode, 200)
  assert.equal(after.headers['x-explicit'], 'after')
  const before = await app.inject({ method: 'HEAD', url: '/before' })
  assert.equal(before.headers['x-explicit'], 'before')
  assert.equal((await app.inject('/before')).payload, 'get')
  await app.close()
})

test('exposeHeadRoute: false on one route', async () => {
  const app = enclave()
  app.get('/no', { exposeHeadRoute: false }, async () => 'x')
  app.get('/yes', async () => 'x')
  assert.equal((await app.inject({ method: 'HEAD', url: '/no' })).statusCode, 404)
  assert.equal((await app.inject({ method: 'HEAD', url: '/yes' })).statusCode, 200)
  await app.close()
})

test('onRoute hook sees the route options and may change them', async () => {
  const app = enclave()
  const seen: any[] = []
  app.addHook('onRoute', (opts: any) => {
    seen.push({ method: opts.method, url: opts.url, routePath: opts.routePath, prefix: opts.prefix })
    if (opts.config?.secure) {
      opts.onRequest = async (_req: any, reply: any) => { reply.code(401).send({ denied: true }) }
    }
    opts.config = { ...opts.config, tagged: true }
  })
  app.get('/open', async (req: any) => ({ tagged: req.routeOptions.config.tagged }))
  app.get('/secret', { config: { secure: true } }, async () => 'secret')
  app.register(async (child: any) => {
    child.get('/x', async () => 'x')
  }, { prefix: '/child' })
  await app.ready()
  assert.deepEqual((await app.inject('/open')).json(), { tagged: true })
  const denied = await app.inject('/secret')
  assert.equal(denied.statusCode, 401)
  assert.deepEqual(denied.json(), { denied: true })
  assert.deepEqual(seen, [
    { method: 'GET', url: '/open', routePath: '/open', prefix: '' },
    { method: 'HEAD', url: '/open', routePath: '/open', prefix: '' },
    { method: 'GET', url: '/secret', routePath: '/secret', prefix: '' },
    { method: 'HEAD', url: '/secret', routePath: '/secret', prefix: '' },
    { method: 'GET', url: '/child/x', routePath: '/x', prefix: '/child' },
    { method: 'HEAD', url: '/child/x', routePath: '/x', prefix: '/child' }
  ])
  const deniedHead = await app.inject({ method: 'HEAD', url: '/secret' })
  assert.equal(deniedHead.statusCode, 401)
  await app.close()
})

test('onRoute in a child context sees only that context\'s routes', async () => {
  const app = enclave()
  const seen: string[] = []
  app.get('/root', () => {})
  app.register(async (child: any) => {
    child.addHook('onRoute', (opts: any) => { seen.push(opts.url) })
    child.get('/inside', () => {})
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', () => {}) })
  await app.ready()
  assert.deepEqual(seen, ['/inside', '/inside']) // GET and its HEAD route
  await app.close()
})

test('onRoute may rewrite the url', async () => {
  const app = enclave()
  app.addHook('onRoute', (opts: any) => { if (opts.url === '/old') opts.url = '/new' })
  app.get('/old', async () => 'moved')
  assert.equal((await app.inject('/new')).payload, 'moved')
  assert.equal((await app.inject('/old')).statusCode, 404)
  await app.close()
})

test('hasRoute, findRoute, printRoutes', async () => {
  const app = enclave()
  app.get('/users/:id', { config: { c: 1 } }, async () => 'x')
  app.post('/users', async () => 'x')
  app.register(async (child: any) => { child.get('/status', async () => 'ok') }, { prefix: '/v1' })
  await app.ready()
  assert.equal(app.hasRoute({ method: 'GET', url: '/users/:id' }), true)
  assert.equal(app.hasRoute({ method: 'get', url: '/users/:id' }), true)
  assert.equal(app.hasRoute({ method: 'POST', url: '/users/:id' }), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/v1/status' }), true)
  const found = app.findRoute({ method: 'GET', url: '/users/:id' })
  assert.equal(typeof found.handler, 'function')
  assert.deepEqual(found.params, { id: ':id' })
  assert.deepEqual(found.searchParams, {})
  assert.deepEqual(Object.keys(found).sort(), ['handler', 'params', 'searchParams'])
  assert.equal(app.findRoute({ method: 'DELETE', url: '/users' }), null)
  // a lookup, as a request would do it: concrete urls are found too, and what the caller changes stays theirs
  assert.equal(app.hasRoute({ method: 'GET', url: '/users/42' }), true)
  assert.deepEqual(app.findRoute({ method: 'GET', url: '/users/42' }).params, { id: '42' })
  found.params.extra = 'x'
  assert.deepEqual(app.findRoute({ method: 'GET', url: '/users/:id' }).params, { id: ':id' })
  assert.equal(app.hasRoute({} as any), false)
  assert.equal(app.hasRoute({ method: 'GET' } as any), false)
  // urls a request could not be routed by: no route, rather than the handler that answers the failure
  for (const url of ['/users/%zz', '*users/42', '']) {
    assert.equal(app.hasRoute({ method: 'GET', url }), false, url)
    assert.equal(app.findRoute({ method: 'GET', url }), null, url)
  }
  const printed = app.printRoutes()
  assert.equal(typeof printed, 'string')
  assert.match(printed, /users/)
  assert.match(printed, /:id/)
  assert.match(printed, /status/)
  const withMethods = app.printRoutes({ commonPrefix: false })
  assert.match(withMethods, /\/users \(POST\)/)
  assert.match(withMethods, /\/:id \(GET, HEAD\)/)
  assert.match(withMethods, /\/v1\/status \(GET, HEAD\)/)
  await app.close()
})

test('errors thrown by a sync handler become a 500', async () => {
  const app = enclave()
  app.get('/', () => { throw new Error('boom') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
  await app.close()
})

test('printRoutes({ includeHooks, includeMeta }) lists hooks, error handler and log level, not internals', async () => {
  const app = enclave({ exposeHeadRoutes: false })
  app.addHook('onRequest', async function checkAuth () {})
  app.get('/a', { config: { x: 1 }, preHandler: async function loadUser () {} }, async () => 'a')
  await app.ready()
  assert.equal(app.printRoutes({ includeHooks: true }), [
    '└── /',
    '    └── a (GET)',
    '        • (onRequest) ["checkAuth()"]',
    '        • (preHandler) ["loadUser()"]',
    ''
  ].join('\n'))
  assert.equal(app.printRoutes({ includeMeta: true }), [
    '└── /',
    '    └── a (GET)',
    '        • (errorHandler) "defaultErrorHandler()"',
    '        • (logLevel) ""',
    '        • (onRequest) ["checkAuth()"]',
    '        • (preHandler) ["loadUser()"]',
    ''
  ].join('\n'))
  await app.close()
})

test('the deprecated route option version is the version constraint, with Fastify 4\'s FSTDEP008 warning', async (t) => {
  const warnings: string[] = []
  const onWarning = (warning: any): void => { if (warning.code === 'FSTDEP008') warnings.push(warning.message) }
  process.on('warning', onWarning)
  t.after(() => { process.off('warning', onWarning) })
  const app = enclave()
  app.get('/v', { version: '1.0.0' }, async (req: any) => ({ v: 1, version: req.routeOptions.version }))
  app.get('/v', { version: '2.0.0' }, async () => ({ v: 2 }))
  const answers = []
  for (const headers of [{ 'accept-version': '1.x' }, { 'accept-version': '2.0.0' }, { 'accept-version': '3.x' }, {}]) {
    const res = await app.inject({ url: '/v', headers })
    answers.push([res.statusCode, res.statusCode === 200 ? res.json() : null])
  }
  // routeOptions.version is the version the request asked for, as in Fastify
  assert.deepEqual(answers, [[200, { v: 1, version: '1.x' }], [200, { v: 2 }], [404, null], [404, null]])
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(warnings.length, 1)
  assert.match(warnings[0], /route \{ version: "\.\.\." \} option/)
})

test('constraints: version-constrained GETs each answer their own HEAD; an explicit HEAD replaces only its own', async () => {
  const app = enclave()
  app.get('/v', { constraints: { version: '1.0.0' } }, async () => 'v1')
  app.get('/v', { constraints: { version: '2.0.0' } }, async () => 'v2')
  app.head('/v', { constraints: { version: '1.0.0' } }, async (_req: any, reply: any) => { reply.header('x-explicit', 'v1').send() })
  const get1 = await app.inject({ url: '/v', headers: { 'accept-version': '1.x' } })
  assert.equal(get1.payload, 'v1')
  const get2 = await app.inject({ url: '/v', headers: { 'accept-version': '2.0.0' } })
  assert.equal(get2.payload, 'v2')
  const head1 = await app.inject({ method: 'HEAD', url: '/v', headers: { 'accept-version': '1.0.0' } })
  assert.equal(head1.statusCode, 200)
  assert.equal(head1.headers['x-explicit'], 'v1')
  const head2 = await app.inject({ method: 'HEAD', url: '/v', headers: { 'accept-version': '2.0.0' } })
  assert.equal(head2.statusCode, 200)
  assert.equal(head2.headers['x-explicit'], undefined)
  assert.equal(head2.headers['content-length'], '2')
  assert.equal(head2.payload, '')
  assert.equal((await app.inject({ url: '/v', headers: { 'accept-version': '3.0.0' } })).statusCode, 404)
  await app.close()
})

test('addConstraintStrategy / hasConstraintStrategy: a custom strategy selects the route', async () => {
  const app = enclave()
  assert.equal(app.hasConstraintStrategy('tenant'), false)
  const store = () => {
    const handlers = new Map<string, unknown>()
    return { get: (v: string) => handlers.get(v) ?? null, set: (v: string, h: unknown) => { handlers.set(v, h) } }
  }
  app.addConstraintStrategy({ name: 'tenant', storage: store, deriveConstraint: (req: any) => req.headers['x-tenant'], mustMatchWhenDerived: true })
  assert.equal(app.hasConstraintStrategy('tenant'), true)
  app.get('/', { constraints: { tenant: 'acme' } }, async () => 'acme')
  app.get('/', async () => 'anyone')
  assert.equal((await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })).payload, 'acme')
  assert.equal((await app.inject('/')).payload, 'anyone')
  assert.equal((await app.inject({ url: '/', headers: { 'x-tenant': 'other' } })).statusCode, 404)
  await app.close()
  const late = enclave()
  await late.ready()
  assert.throws(() => late.addConstraintStrategy({ name: 'x', storage: store, deriveConstraint: () => 'x' }), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
})

test('withTypeProvider() returns the instance itself', () => {
  const app = enclave()
  assert.equal(app.withTypeProvider(), app)
})

describe('route constraints: version, host, the constraints and versioning options', () => {
  /** A find-my-way store keyed by exact value, as the Fastify docs' custom strategies use. */
  const exactStore = () => {
    const handlers = new Map<unknown, unknown>()
    return { get: (v: unknown) => handlers.get(v) ?? null, set: (v: unknown, h: unknown) => { handlers.set(v, h) } }
  }
  /** Versions from a vendor media type; any other Accept value derives no version. */
  const mediaTypeVersion = (req: any): string | undefined => /^application\/vnd\.demo\.(v\d+)$/.exec(req.headers.accept ?? '')?.[1]
  const notFound = (url: string) => ({ message: `Route GET:${url} not found`, error: 'Not Found', statusCode: 404 })

  // first in this block: Fastify warns once per process, so a later app with `versioning` would not warn again
  test('versioning: a custom strategy routes on the derived version and emits FSTDEP009 once', async () => {
    const warnings: any[] = []
    const onWarning = (w: any): void => { warnings.push(w) }
    process.on('warning', onWarning)
    try {
      const app = enclave({ versioning: { storage: exactStore, deriveVersion: mediaTypeVersion } })
      enclave({ versioning: { storage: exactStore, deriveVersion: mediaTypeVersion } })
      app.get('/item', { constraints: { version: 'v1' } }, async () => ({ shape: 'old' }))
      app.get('/item', { constraints: { version: 'v2' } }, async () => ({ shape: 'new' }))
      app.get('/open', async () => 'open')

      const v1 = await app.inject({ url: '/item', headers: { accept: 'application/vnd.demo.v1' } })
      assert.equal(v1.statusCode, 200)
      assert.deepEqual(v1.json(), { shape: 'old' })
      const v2 = await app.inject({ url: '/item', headers: { accept: 'application/vnd.demo.v2' } })
      assert.equal(v2.statusCode, 200)
      assert.deepEqual(v2.json(), { shape: 'new' })
      // Fastify documents no automatic Vary header: setting it is left to the application
      assert.equal(v2.headers.vary, undefined)
      const v3 = await app.inject({ url: '/item', headers: { accept: 'application/vnd.demo.v3' } })
      assert.equal(v3.statusCode, 404)
      assert.deepEqual(v3.json(), notFound('/item'))
      const none = await app.inject({ url: '/item', headers: { accept: 'application/json' } })
      assert.equal(none.statusCode, 404)
      assert.deepEqual(none.json(), notFound('/item'))

      // a derived version must match: an unversioned route answers only when no version is derived
      const openPlain = await app.inject({ url: '/open', headers: { accept: 'application/json' } })
      assert.equal(openPlain.statusCode, 200)
      assert.equal(openPlain.payload, 'open')
      const openVersioned = await app.inject({ url: '/open', headers: { accept: 'application/vnd.demo.v1' } })
      assert.equal(openVersioned.statusCode, 404)
      assert.deepEqual(openVersioned.json(), notFound('/open'))
      await app.close()
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(warnings.filter((w) => w.code === 'FSTDEP009').map((w) => w.name), ['DeprecationWarning'])
    } finally {
      process.off('warning', onWarning)
    }
  })

  test('versioning: deriveVersion gets the raw request; the version strategy matches before any versioned route exists', async () => {
    const seen: string[] = []
    const app = enclave({
      versioning: {
        storage: exactStore,
        deriveVersion: (req: any) => { seen.push(`${req.method} ${req.url}`); return req.headers['x-api'] }
      }
    })
    app.get('/plain', async () => 'plain')
    assert.equal((await app.inject({ url: '/plain' })).payload, 'plain')
    const res = await app.inject({ url: '/plain?x=1', headers: { 'x-api': '7' } })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), notFound('/plain?x=1'))
    assert.deepEqual(seen, ['GET /plain', 'GET /plain?x=1'])
    await app.close()
  })

  test('versioning: invalid shapes throw FST_ERR_INIT_OPTS_INVALID; a non-string version is FST_ERR_VERSION_CONSTRAINT_NOT_STR', () => {
    assert.throws(() => enclave({ versioning: { storage: exactStore } }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
      message: 'Invalid initialization options: \'"versioning" must be an object { storage(), deriveVersion() }\''
    })
    assert.throws(() => enclave({ versioning: 'header' }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    const app = enclave({ versioning: { storage: exactStore, deriveVersion: mediaTypeVersion } })
    assert.throws(() => app.get('/', { constraints: { version: 2 } }, async () => 'x'), {
      code: 'FST_ERR_VERSION_CONSTRAINT_NOT_STR',
      message: 'Version constraint should be a string.'
    })
  })

  test('version: Accept-Version picks the highest compatible version and is preferred to an unversioned route', async () => {
    const app = enclave()
    app.get('/v', { constraints: { version: '1.2.0' } }, async () => '1.2.0')
    app.get('/v', { constraints: { version: '1.3.1' } }, async () => '1.3.1')
    app.get('/v', { constraints: { version: '2.0.0' } }, async () => '2.0.0')
    app.get('/v', async () => 'unversioned')
    app.get('/only', { constraints: { version: '1.0.0' } }, async () => 'only')
    // the router's own error, as Fastify lets it through
    assert.throws(() => app.get('/bad', { constraints: { version: 1 } }, async () => 'x'), { code: 'ERR_ASSERTION', message: 'Version should be a string' })
    const cases: Array<[string | undefined, number, string]> = [
      ['1.x', 200, '1.3.1'],
      ['1.2.x', 200, '1.2.0'],
      ['1.3.1', 200, '1.3.1'],
      ['2.x', 200, '2.0.0'],
      ['*', 200, '2.0.0'],
      [undefined, 200, 'unversioned']
    ]
    for (const [version, status, payload] of cases) {
      const res = await app.inject({ url: '/v', headers: version === undefined ? {} : { 'accept-version': version } })
      assert.equal(res.statusCode, status, String(version))
      assert.equal(res.payload, payload, String(version))
      assert.equal(res.headers.vary, undefined)
    }
    const unknown = await app.inject({ url: '/v', headers: { 'accept-version': '3.x' } })
    assert.equal(unknown.statusCode, 404)
    assert.deepEqual(unknown.json(), notFound('/v'))
    // a versioned-only route needs the header
    const missing = await app.inject({ url: '/only' })
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), notFound('/only'))
    await app.close()
  })

  test('host: exact and RegExp host constraints select the route; other hosts get 404', async () => {
    const app = enclave()
    app.get('/', { constraints: { host: 'auth.example.test' } }, async () => 'auth')
    app.get('/', { constraints: { host: /^[a-z]+\.shop\.example\.test$/ } }, async (req: any) => ({ shop: req.headers.host }))
    const auth = await app.inject({ url: '/', headers: { host: 'auth.example.test' } })
    assert.equal(auth.statusCode, 200)
    assert.equal(auth.payload, 'auth')
    const shop = await app.inject({ url: '/', headers: { host: 'books.shop.example.test' } })
    assert.equal(shop.statusCode, 200)
    assert.deepEqual(shop.json(), { shop: 'books.shop.example.test' })
    const other = await app.inject({ url: '/', headers: { host: 'example.test' } })
    assert.equal(other.statusCode, 404)
    assert.deepEqual(other.json(), notFound('/'))
    assert.equal(app.hasRoute({ method: 'GET', url: '/', constraints: { host: 'auth.example.test' } }), true)
    assert.equal(app.hasRoute({ method: 'GET', url: '/', constraints: { host: 'nope.test' } }), false)
    await app.close()
  })

  test('versioning wins over a version strategy given in constraints, as in Fastify', async () => {
    const ownVersion = { name: 'version', storage: exactStore, validate: () => true, deriveConstraint: (req: any) => req.headers['x-own'] }
    const app = enclave({ versioning: { storage: exactStore, deriveVersion: mediaTypeVersion }, constraints: { version: ownVersion } })
    app.get('/', { constraints: { version: 'v1' } }, async () => 'v1')
    assert.equal((await app.inject({ url: '/', headers: { accept: 'application/vnd.demo.v1' } })).payload, 'v1')
    assert.equal((await app.inject({ url: '/', headers: { 'x-own': 'v1' } })).statusCode, 404)
    await app.close()
  })

  test('constraints option: custom strategies, with and without mustMatchWhenDerived', async () => {
    const app = enclave({
      constraints: {
        tenant: { name: 'tenant', storage: exactStore, validate: () => true, deriveConstraint: (req: any) => req.headers['x-tenant'], mustMatchWhenDerived: true },
        region: { name: 'region', storage: exactStore, validate: () => true, deriveConstraint: (req: any) => req.headers['x-region'] }
      }
    })
    assert.equal(app.hasConstraintStrategy('tenant'), true)
    assert.equal(app.hasConstraintStrategy('region'), true)
    app.get('/t', { constraints: { tenant: 'acme' } }, async () => 'acme')
    app.get('/t', async () => 'anyone')
    app.get('/r', { constraints: { region: 'eu' } }, async () => 'eu')
    app.get('/r', async () => 'global')
    const results: Array<[string, Record<string, string>, number, string]> = [
      ['/t', { 'x-tenant': 'acme' }, 200, 'acme'],
      ['/t', {}, 200, 'anyone'],
      ['/r', { 'x-region': 'eu' }, 200, 'eu'],
      ['/r', {}, 200, 'global'],
      // without mustMatchWhenDerived an unconstrained route takes the values no route declares
      ['/r', { 'x-region': 'us' }, 200, 'global']
    ]
    for (const [url, headers, status, payload] of results) {
      const res = await app.inject({ url, headers })
      assert.equal(res.statusCode, status, `${url} ${JSON.stringify(headers)}`)
      assert.equal(res.payload, payload, `${url} ${JSON.stringify(headers)}`)
    }
    const otherTenant = await app.inject({ url: '/t', headers: { 'x-tenant': 'globex' } })
    assert.equal(otherTenant.statusCode, 404)
    assert.deepEqual(otherTenant.json(), notFound('/t'))
    await app.close()
  })

  test('constraints option: a mustMatchWhenDerived strategy applies before any route declares it', async () => {
    const app = enclave({
      constraints: { tenant: { name: 'tenant', storage: exactStore, validate: () => true, deriveConstraint: (req: any) => req.headers['x-tenant'], mustMatchWhenDerived: true } }
    })
    app.get('/', async () => 'plain')
    assert.equal((await app.inject('/')).payload, 'plain')
    const derived = await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })
    assert.equal(derived.statusCode, 404)
    assert.deepEqual(derived.json(), notFound('/'))
    await app.close()
  })

  test('constraints option: a strategy named version replaces the built-in Accept-Version one', async () => {
    const app = enclave({
      constraints: { version: { name: 'version', storage: exactStore, validate: () => true, deriveConstraint: (req: any) => req.headers['x-api-version'], mustMatchWhenDerived: true } }
    })
    app.get('/', { constraints: { version: 'beta' } }, async () => 'beta')
    app.get('/', async () => 'stable')
    assert.equal((await app.inject({ url: '/', headers: { 'x-api-version': 'beta' } })).payload, 'beta')
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': 'beta' } })).payload, 'stable')
    await app.close()
  })

  test('constraints option: an incomplete strategy or an unknown route constraint throws', () => {
    // Fastify's option schema: every strategy has a name, storage(), validate() and deriveConstraint()
    assert.throws(() => enclave({ constraints: { tenant: { name: 'tenant', storage: exactStore, deriveConstraint: () => 'x' } } }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
      message: 'Invalid initialization options: \'["must have required property \'validate\'"]\''
    })
    assert.throws(() => enclave({ constraints: { tenant: { name: 'tenant', storage: exactStore, validate: 'yes', deriveConstraint: () => 'x' } } }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
      message: 'Invalid initialization options: \'"constraints.tenant" must be a constraint strategy { name, storage(), validate(), deriveConstraint() }, got a value of type object\''
    })
    assert.throws(() => enclave({ constraints: { tenant: null } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    const app = enclave()
    // the router's own error, as Fastify lets it through
    assert.throws(() => app.get('/', { constraints: { tenant: 'acme' } }, async () => 'x'), {
      message: 'No strategy registered for constraint key tenant'
    })
  })
})

describe('asynchronous constraint strategies and the frameworkErrors option', () => {
  /** A strategy whose value comes from a (simulated) lookup that answers later, as a database would. */
  function tenantStrategy (lookup: (key: string | undefined) => Promise<string | undefined>): Record<string, unknown> {
    return {
      name: 'tenant',
      mustMatchWhenDerived: true,
      storage () {
        const stores = new Map<string, unknown>()
        return { get: (value: string) => stores.get(value) ?? null, set: (value: string, store: unknown) => stores.set(value, store) }
      },
      deriveConstraint (req: any, _ctx: unknown, done: (err: Error | null, value?: string) => void) {
        lookup(req.headers['x-api-key']).then((tenant) => done(null, tenant), (err) => done(err))
      },
      validate () {}
    }
  }
  const tenants: Record<string, string> = { k1: 'acme', k2: 'globex' }
  const lookup = async (key: string | undefined): Promise<string | undefined> => {
    await new Promise((resolve) => setTimeout(resolve, 1))
    if (key === 'broken') throw new Error('database down')
    return key === undefined ? undefined : tenants[key]
  }

  test('a route constrained by an asynchronous strategy is chosen once the value is derived', async () => {
    const app = enclave({ constraints: { tenant: tenantStrategy(lookup) } })
    app.get('/data', { constraints: { tenant: 'acme' } }, async () => ({ tenant: 'acme' }))
    app.get('/data', { constraints: { tenant: 'globex' } }, async () => ({ tenant: 'globex' }))
    app.get('/data', async () => ({ tenant: null }))
    const answers = await Promise.all(['k1', 'k2', undefined].map((key) =>
      app.inject({ url: '/data', headers: key === undefined ? {} : { 'x-api-key': key } })))
    assert.deepEqual(answers.map((res: any) => [res.statusCode, res.json()]), [
      [200, { tenant: 'acme' }], [200, { tenant: 'globex' }], [200, { tenant: null }]
    ])
  })

  test('a failing asynchronous strategy answers FST_ERR_ASYNC_CONSTRAINT (500), or what frameworkErrors sends', async () => {
    const plain = enclave({ constraints: { tenant: tenantStrategy(lookup) } })
    plain.get('/data', { constraints: { tenant: 'acme' } }, async () => ({ tenant: 'acme' }))
    // Fastify 4's fixed answer, byte for byte: no route was chosen, so no error handler or hook applies
    plain.setErrorHandler(async () => 'not used')
    let res = await plain.inject({ url: '/data', headers: { 'x-api-key': 'broken' } })
    assert.deepEqual([res.statusCode, res.headers['content-type'], res.payload], [500, 'application/json',
      '{"error":"Internal Server Error","message":"Unexpected error from async constraint","statusCode":500}'])

    const seen: string[] = []
    const custom = enclave({
      constraints: { tenant: tenantStrategy(lookup) },
      frameworkErrors (err: any, request: any, reply: any) {
        seen.push(`${err.code} ${request.url} ${err.cause?.message}`)
        reply.code(400).send({ message: 'unknown tenant' })
      }
    })
    custom.get('/data', { constraints: { tenant: 'acme' } }, async () => ({ tenant: 'acme' }))
    res = await custom.inject({ url: '/data', headers: { 'x-api-key': 'broken' } })
    assert.deepEqual([res.statusCode, res.json()], [400, { message: 'unknown tenant' }])
    assert.deepEqual(seen, ['FST_ERR_ASYNC_CONSTRAINT /data database down'])
  })

  test('frameworkErrors answers a URL with an invalid percent-encoding; without it the answer is FST_ERR_BAD_URL', async () => {
    const plain = enclave()
    plain.get('/:id', async () => 'ok')
    plain.addHook('onSend', async () => 'not used')
    let res = await plain.inject({ url: '/%zz' })
    assert.deepEqual([res.statusCode, res.headers['content-type'], res.payload], [400, 'application/json',
      '{"error":"Bad Request","code":"FST_ERR_BAD_URL","message":"\'/%zz\' is not a valid url component","statusCode":400}'])

    const custom = enclave({
      frameworkErrors (err: any, _request: any, reply: any) {
        if (err.code === 'FST_ERR_BAD_URL') reply.code(400).type('text/plain').send('Provided url is not valid')
        else reply.send(err)
      }
    })
    custom.get('/:id', async () => 'ok')
    res = await custom.inject({ url: '/%zz' })
    assert.deepEqual([res.statusCode, res.headers['content-type'], res.body], [400, 'text/plain', 'Provided url is not valid'])

    const throwing = enclave({ frameworkErrors () { throw new Error('handler bug') } })
    throwing.get('/:id', async () => 'ok')
    res = await throwing.inject({ url: '/%zz' })
    assert.deepEqual([res.statusCode, res.json().message], [500, 'handler bug'])
  })

  test('the request a frameworkErrors handler gets is a logged request of its own: its id, its logger, its "incoming request" line', async () => {
    const sink = logSink()
    const app = enclave({
      logger: { level: 'info', stream: sink.stream },
      genReqId: () => 'bad-url-1',
      frameworkErrors (_err: any, request: any, reply: any) {
        request.log.info('answering a bad url')
        reply.code(400).send({ id: request.id })
      }
    })
    app.get('/:id', async () => 'ok')
    const res = await app.inject({ url: '/%zz' })
    assert.deepEqual(res.json(), { id: 'bad-url-1' })
    const incoming = sink.lines.find((line) => line.msg === 'incoming request')
    assert.equal(incoming.reqId, 'bad-url-1')
    assert.equal(incoming.req.url, '/%zz')
    assert.equal(sink.lines.find((line) => line.msg === 'answering a bad url').reqId, 'bad-url-1')
  })
})

test('route arguments are checked as Fastify checks them: method first, then options and path', () => {
  const app = enclave()
  for (const given of [undefined, null, [], 'GET /']) {
    assert.throws(() => app.route(given), { code: 'FST_ERR_ROUTE_METHOD_INVALID' }, `route(${JSON.stringify(given)})`)
  }
  for (const options of [null, [], 'x']) {
    assert.throws(() => app.get('/x', options, async () => 'x'), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ' }, `get('/x', ${JSON.stringify(options)})`)
  }
  assert.throws(() => app.get('', async () => 'x'), { code: 'ERR_ASSERTION', message: 'The path could not be empty' })
})

test('an empty path under a prefix is the prefix itself', async () => {
  const app = enclave()
  app.register(async (child: any) => { child.get('', async () => 'the prefix') }, { prefix: '/api' })
  assert.equal((await app.inject('/api')).body, 'the prefix')
})

test('a hook option given as null may be replaced by an onRoute hook; left null, it is refused with Fastify\'s message', async () => {
  const app = enclave()
  const seen: string[] = []
  app.addHook('onRoute', (options: any) => {
    if (options.url === '/filled') options.preHandler = async (request: any) => { seen.push(request.url) }
  })
  app.get('/filled', { preHandler: null }, async () => 'ok')
  assert.throws(() => app.get('/left', { preHandler: null }, async () => 'x'), {
    code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'preHandler hook should be a function, instead got [object Null]'
  })
  assert.equal((await app.inject('/filled')).body, 'ok')
  assert.deepEqual(seen, ['/filled'])
})

test('the WebDAV methods Fastify 4 routes (REPORT, MKCALENDAR) are routes like any other', async () => {
  const app = enclave()
  app.route({ method: 'REPORT', url: '/calendar', handler: async (request: any) => ({ report: request.body }) })
  app.route({ method: 'MKCALENDAR', url: '/calendar', handler: async () => 'created' })
  assert.deepEqual((await app.inject({ method: 'REPORT', url: '/calendar', payload: { a: 1 } })).json(), { report: { a: 1 } })
  assert.equal((await app.inject({ method: 'MKCALENDAR', url: '/calendar' })).body, 'created')
})
