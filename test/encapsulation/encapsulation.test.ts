import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { enclave, temporaryDir } from '../helpers'

/** The spec's section 4 app: root decorates `answer`; /one and /two are sibling contexts; /three is /two's child. */
function visibilityApp (wrapGrandchild: boolean): any {
  const app = enclave()
  app.decorateRequest('answer', 42)
  const visible = (req: any) => {
    const out: Record<string, unknown> = {}
    for (const key of ['answer', 'foo', 'bar']) if (req[key] !== undefined) out[key] = req[key]
    return out
  }
  app.register(async (one: any) => {
    one.addHook('onRequest', async (req: any) => { req.authenticated = true })
    one.get('/one', async (req: any) => visible(req))
  })
  app.register(async (two: any) => {
    two.decorateRequest('foo', 'foo')
    const grandchild = async (three: any) => {
      three.decorateRequest('bar', 'bar')
      three.get('/three', async (req: any) => visible(req))
    }
    two.register(wrapGrandchild ? fp(grandchild) : grandchild)
    two.get('/two', async (req: any) => visible(req))
  })
  return app
}

test('spec section 4: each route sees only its ancestors\' decorators', async () => {
  const app = visibilityApp(false)
  const one = await app.inject('/one')
  assert.equal(one.statusCode, 200)
  assert.deepEqual(one.json(), { answer: 42 })
  const two = await app.inject('/two')
  assert.equal(two.statusCode, 200)
  assert.deepEqual(two.json(), { answer: 42, foo: 'foo' })
  const three = await app.inject('/three')
  assert.equal(three.statusCode, 200)
  assert.deepEqual(three.json(), { answer: 42, foo: 'foo', bar: 'bar' })
  await app.close()
})

test('spec section 4: with the grandchild wrapped by fastify-plugin, /two also sees bar', async () => {
  const app = visibilityApp(true)
  assert.deepEqual((await app.inject('/one')).json(), { answer: 42 })
  assert.deepEqual((await app.inject('/two')).json(), { answer: 42, foo: 'foo', bar: 'bar' })
  assert.deepEqual((await app.inject('/three')).json(), { answer: 42, foo: 'foo', bar: 'bar' })
  await app.close()
})

test('instance decorators: a child sees its ancestors; parent and siblings do not see the child\'s', async () => {
  const app = enclave()
  app.decorate('rootValue', 'root')
  const seen: Record<string, unknown> = {}
  app.register(async (a: any) => {
    a.decorate('aValue', 'a')
    a.register(async (aa: any) => {
      seen.aaSeesRoot = aa.rootValue
      seen.aaSeesA = aa.aValue
    })
  })
  app.register(async (b: any) => {
    seen.bSeesRoot = b.rootValue
    seen.bSeesA = b.aValue
    seen.bHasA = b.hasDecorator('aValue')
  })
  await app.ready()
  assert.deepEqual(seen, { aaSeesRoot: 'root', aaSeesA: 'a', bSeesRoot: 'root', bSeesA: undefined, bHasA: false })
  assert.equal(app.aValue, undefined)
  assert.equal(app.hasDecorator('aValue'), false)
  await app.close()
})

test('hooks: a child\'s hooks do not run for the parent\'s or a sibling\'s routes', async () => {
  const app = enclave()
  app.addHook('onRequest', async (_req: any, reply: any) => { reply.header('x-root', '1') })
  app.get('/root', async () => 'root')
  app.register(async (child: any) => {
    child.addHook('onRequest', async (_req: any, reply: any) => { reply.header('x-child', '1') })
    child.get('/child', async () => 'child')
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', async () => 'sibling') })
  const root = await app.inject('/root')
  assert.equal(root.headers['x-root'], '1')
  assert.equal(root.headers['x-child'], undefined)
  const child = await app.inject('/child')
  assert.equal(child.headers['x-root'], '1')
  assert.equal(child.headers['x-child'], '1')
  const sibling = await app.inject('/sibling')
  assert.equal(sibling.headers['x-root'], '1')
  assert.equal(sibling.headers['x-child'], undefined)
  await app.close()
})

test('content-type parsers are encapsulated', async () => {
  const app = enclave()
  app.post('/root', async (req: any) => ({ body: req.body }))
  app.register(async (child: any) => {
    child.addContentTypeParser('text/custom', { parseAs: 'string' }, (_req: any, body: string, done: any) => done(null, { custom: body }))
    child.post('/child', async (req: any) => ({ body: req.body }))
    assert.equal(child.hasContentTypeParser('text/custom'), true)
  })
  await app.ready()
  assert.equal(app.hasContentTypeParser('text/custom'), false)
  const inChild = await app.inject({ method: 'POST', url: '/child', headers: { 'content-type': 'text/custom' }, payload: 'hi' })
  assert.equal(inChild.statusCode, 200)
  assert.deepEqual(inChild.json(), { body: { custom: 'hi' } })
  const inRoot = await app.inject({ method: 'POST', url: '/root', headers: { 'content-type': 'text/custom' }, payload: 'hi' })
  assert.equal(inRoot.statusCode, 415)
  assert.deepEqual(inRoot.json(), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: 'Unsupported Media Type: text/custom' })
  await app.close()
})

test('error handlers are encapsulated', async () => {
  const app = enclave()
  app.get('/root', async () => { throw new Error('root failed') })
  app.register(async (child: any) => {
    child.setErrorHandler(async (err: Error, _req: any, reply: any) => {
      reply.code(418)
      return { handledByChild: err.message }
    })
    child.get('/child', async () => { throw new Error('child failed') })
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', async () => { throw new Error('sibling failed') }) })
  const child = await app.inject('/child')
  assert.equal(child.statusCode, 418)
  assert.deepEqual(child.json(), { handledByChild: 'child failed' })
  const root = await app.inject('/root')
  assert.equal(root.statusCode, 500)
  assert.deepEqual(root.json(), { statusCode: 500, error: 'Internal Server Error', message: 'root failed' })
  const sibling = await app.inject('/sibling')
  assert.equal(sibling.statusCode, 500)
  assert.deepEqual(sibling.json(), { statusCode: 500, error: 'Internal Server Error', message: 'sibling failed' })
  await app.close()
})

test('not-found handlers are encapsulated', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send('child 404') })
  }, { prefix: '/child' })
  assert.equal((await app.inject('/child/x')).payload, 'child 404')
  assert.deepEqual((await app.inject('/x')).json(), { message: 'Route GET:/x not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('shared schemas (addSchema/getSchemas) are encapsulated', async () => {
  const app = enclave()
  app.addSchema({ $id: 'rootSchema', type: 'string' })
  let childSchemas: any
  let siblingSchemas: any
  app.register(async (child: any) => {
    child.addSchema({ $id: 'childSchema', type: 'integer' })
    childSchemas = child.getSchemas()
    child.get('/child/:n', { schema: { params: { type: 'object', properties: { n: { $ref: 'childSchema#' } } } } }, async (req: any) => req.params)
  })
  app.register(async (sibling: any) => { siblingSchemas = sibling.getSchemas() })
  await app.ready()
  assert.deepEqual(Object.keys(childSchemas).sort(), ['childSchema', 'rootSchema'])
  assert.deepEqual(Object.keys(siblingSchemas), ['rootSchema'])
  assert.deepEqual(Object.keys(app.getSchemas()), ['rootSchema'])
  assert.equal(app.getSchema('childSchema'), undefined)
  assert.deepEqual((await app.inject('/child/5')).json(), { n: 5 })
  assert.equal((await app.inject('/child/x')).statusCode, 400)
  await app.close()
})

test('a parent route cannot reference a child\'s shared schema', async () => {
  const app = enclave()
  app.register(async (child: any) => { child.addSchema({ $id: 'hidden', type: 'integer' }) })
  app.get('/:n', { schema: { params: { type: 'object', properties: { n: { $ref: 'hidden#' } } } } }, async () => 'x')
  await assert.rejects(app.ready())
})

test('validator compilers are encapsulated', async () => {
  const app = enclave()
  const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } } }
  app.get('/root', { schema }, async (req: any) => req.query)
  app.register(async (child: any) => {
    // accepts everything and leaves the values untouched
    child.setValidatorCompiler(() => () => true)
    child.get('/child', { schema }, async (req: any) => req.query)
  })
  const child = await app.inject('/child?n=abc')
  assert.equal(child.statusCode, 200)
  assert.deepEqual(child.json(), { n: 'abc' })
  const root = await app.inject('/root?n=abc')
  assert.equal(root.statusCode, 400)
  assert.equal(root.json().code, 'FST_ERR_VALIDATION')
  assert.deepEqual((await app.inject('/root?n=3')).json(), { n: 3 })
  await app.close()
})

test('a fastify-plugin wrapped plugin registers into its parent (decorators, hooks, parsers, error handler)', async () => {
  const app = enclave()
  app.register(fp(async (shared: any) => {
    shared.decorate('util', () => 'util')
    shared.decorateRequest('shared', 'yes')
    shared.addHook('onRequest', async (_req: any, reply: any) => { reply.header('x-shared', '1') })
    shared.setErrorHandler(async (err: Error, _req: any, reply: any) => { reply.code(400).send({ shared: err.message }) })
  }))
  app.get('/', async function (this: any, req: any) { return { util: this.util(), shared: req.shared } })
  app.get('/fail', async () => { throw new Error('x') })
  await app.ready()
  assert.equal(app.hasDecorator('util'), true)
  assert.equal(app.hasRequestDecorator('shared'), true)
  const res = await app.inject('/')
  assert.equal(res.headers['x-shared'], '1')
  assert.deepEqual(res.json(), { util: 'util', shared: 'yes' })
  const fail = await app.inject('/fail')
  assert.equal(fail.statusCode, 400)
  assert.deepEqual(fail.json(), { shared: 'x' })
  await app.close()
})

test('fastify-plugin with encapsulate: true stays encapsulated', async () => {
  const app = enclave()
  app.register(fp(async (child: any) => { child.decorate('inner', 1) }, { encapsulate: true, name: 'enc' }))
  await app.ready()
  assert.equal(app.hasDecorator('inner'), false)
  assert.equal(app.hasPlugin('enc'), true)
  await app.close()
})

test('plugin names: display-name symbol, fp name, function name; hasPlugin and pluginName', async () => {
  const app = enclave()
  const names: Record<string, string> = {}
  const seen: Record<string, boolean[]> = {}
  const displayed = async (child: any) => { names.displayed = child.pluginName }
  ;(displayed as any)[Symbol.for('fastify.display-name')] = 'displayed-plugin'
  app.register(displayed)
  app.register(async function namedFunction (child: any) {
    names.named = child.pluginName
    seen.insideNamed = [child.hasPlugin('namedFunction'), child.hasPlugin('displayed-plugin')]
    child.register(async function grandchild (inner: any) { seen.insideGrandchild = [inner.hasPlugin('namedFunction'), inner.hasPlugin('grandchild')] })
  })
  app.register(fp(async (instance: any) => { names.fpInner = instance.pluginName }, { name: 'fp-named' }))
  app.register(async function later (child: any) { seen.insideLater = [child.hasPlugin('fp-named'), child.hasPlugin('namedFunction')] })
  await app.ready()
  assert.equal(names.displayed, 'displayed-plugin')
  assert.equal(names.named, 'namedFunction')
  // as in Fastify: an encapsulated plugin without plugin-meta is visible to itself only; fp plugins (they carry
  // plugin-meta) to their context and the contexts created after them
  assert.deepEqual(seen, { insideNamed: [true, false], insideGrandchild: [false, true], insideLater: [true, false] })
  assert.equal(app.hasPlugin('displayed-plugin'), false)
  assert.equal(app.hasPlugin('namedFunction'), false)
  assert.equal(app.hasPlugin('fp-named'), true)
  assert.equal(app.hasPlugin('nope'), false)
  // an fp plugin runs in its parent's instance: its name joins that instance's chain
  assert.match(names.fpInner, /fp-named$/)
  assert.match(app.pluginName, / -> fp-named$/)
  await app.close()
})

test('a plugin that is the export of a module goes by that module\'s file, before its function or metadata name', async (t) => {
  const dir = temporaryDir(t)
  const file = path.join(dir, 'routes-plugin.js')
  writeFileSync(file, `function fileExport (instance, opts, done) { opts.seen.push(instance.pluginName); done() }
fileExport[Symbol.for('plugin-meta')] = { name: 'meta-name' }
module.exports = fileExport`)
  const seen: string[] = []
  const app = enclave()
  app.register(require(file), { seen })
  // the registration's name option names nothing: the function's own name is used
  app.register(function optionless (_instance: any, opts: any, done: () => void) { seen.push(_instance.pluginName); done() }, { name: 'ignored', seen } as any)
  await app.ready()
  assert.deepEqual(seen, [file, 'optionless'])
  await app.close()
})

test('plugin-meta fastify range: 4.x and 5.x load at the Fastify 4 level, 3.x fails ready() with FST_ERR_PLUGIN_VERSION_MISMATCH', async () => {
  const ok = enclave()
  let loaded = false
  ok.register(fp(async () => { loaded = true }, { fastify: '4.x', name: 'four' }))
  await ok.ready()
  assert.equal(loaded, true)
  await ok.close()

  const five = enclave()
  five.register(fp(async () => { loaded = false }, { fastify: '5.x', name: 'five' }))
  await five.ready()
  assert.equal(loaded, false)
  await five.close()

  const bad = enclave()
  bad.register(fp(async () => {}, { fastify: '3.x', name: 'three' }))
  await assert.rejects(bad.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_VERSION_MISMATCH')
    assert.equal(err.message, "fastify-plugin: three - expected '3.x' fastify version, '4.29.1' is installed")
    return true
  })
})

test('plugin-meta decorators: a missing one fails with FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', async () => {
  const cases: Array<[any, string, RegExp]> = [
    [{ fastify: ['db'] }, 'db', /Fastify/],
    [{ request: ['user'] }, 'user', /Request/],
    [{ reply: ['view'] }, 'view', /Reply/]
  ]
  for (const [decorators, name, where] of cases) {
    const app = enclave()
    app.register(fp(async () => {}, { name: 'needy', decorators }))
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE')
      assert.match(err.message, new RegExp(`'${name}'`))
      assert.match(err.message, /needy/)
      assert.match(err.message, where)
      return true
    })
  }
  const ok = enclave()
  ok.decorate('db', {})
  ok.decorateRequest('user', null)
  ok.decorateReply('view', function () {})
  ok.register(fp(async () => {}, { name: 'needy', decorators: { fastify: ['db'], request: ['user'], reply: ['view'] } }))
  await ok.ready()
  await ok.close()
})

test('plugin-meta decorators are looked up in the registering context', async () => {
  const app = enclave()
  app.register(async (child: any) => { child.decorate('childOnly', 1) })
  app.register(fp(async () => {}, { name: 'needs-child', decorators: { fastify: ['childOnly'] } }))
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE' })
})

test('plugin-meta dependencies: present loads, missing fails with a clear error', async () => {
  const ok = enclave()
  ok.register(fp(async () => {}, { name: 'db' }))
  ok.register(fp(async () => {}, { name: 'repo', dependencies: ['db'] }))
  await ok.ready()
  assert.equal(ok.hasPlugin('repo'), true)
  await ok.close()

  const bad = enclave()
  bad.register(fp(async () => {}, { name: 'repo', dependencies: ['db'] }))
  await assert.rejects(bad.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED')
    assert.equal(err.message, "The dependency 'db' of plugin 'repo' is not registered")
    return true
  })
})

test('a dependency registered in a sibling context does not count', async () => {
  const app = enclave()
  app.register(async (a: any) => { a.register(fp(async () => {}, { name: 'db' })) })
  app.register(async (b: any) => { b.register(fp(async () => {}, { name: 'repo', dependencies: ['db'] })) })
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED' })
})

test('onRegister is called with the child instance and its options, for encapsulated plugins only', async () => {
  const app = enclave()
  const calls: Array<{ prefix: string, opts: any, isChild: boolean }> = []
  app.addHook('onRegister', (instance: any, opts: any) => {
    calls.push({ prefix: instance.prefix, opts, isChild: instance !== app })
  })
  app.register(async (child: any) => {
    child.register(async () => {}, { prefix: '/inner', deep: true })
  }, { prefix: '/outer', custom: 1 })
  app.register(fp(async () => {}))
  await app.ready()
  assert.deepEqual(calls, [
    { prefix: '/outer', opts: { prefix: '/outer', custom: 1 }, isChild: true },
    { prefix: '/outer/inner', opts: { prefix: '/inner', deep: true }, isChild: true }
  ])
  await app.close()
})

test('the child instance is a fresh object whose decorators are its own', async () => {
  const app = enclave()
  let childInstance: any
  app.register(async (child: any) => {
    childInstance = child
    child.decorate('only', true)
  })
  await app.ready()
  assert.notEqual(childInstance, app)
  assert.equal(childInstance.only, true)
  assert.equal(childInstance.hasDecorator('only'), true)
  assert.equal(typeof childInstance.get, 'function')
  await app.close()
})
