import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

test('getSchemas is encapsulated: a parent sees its own, a child its own plus its ancestors\'', async () => {
  const app = enclave()
  app.addSchema({ $id: 'one', my: 'hello' })
  app.get('/', async () => app.getSchemas())
  app.register(async (instance: any) => {
    instance.addSchema({ $id: 'two', my: 'ciao' })
    instance.get('/sub', async () => instance.getSchemas())
    instance.register(async (subinstance: any) => {
      subinstance.addSchema({ $id: 'three', my: 'hola' })
      subinstance.get('/deep', async () => subinstance.getSchemas())
    })
  })
  app.register(async (sibling: any) => {
    sibling.get('/sibling', async () => sibling.getSchemas())
  })

  const one = { $id: 'one', my: 'hello' }
  const two = { $id: 'two', my: 'ciao' }
  const three = { $id: 'three', my: 'hola' }
  assert.deepEqual((await app.inject({ method: 'GET', url: '/' })).json(), { one })
  assert.deepEqual((await app.inject({ method: 'GET', url: '/sub' })).json(), { one, two })
  assert.deepEqual((await app.inject({ method: 'GET', url: '/deep' })).json(), { one, two, three })
  assert.deepEqual((await app.inject({ method: 'GET', url: '/sibling' })).json(), { one })
})

test('getSchema returns one visible schema by $id, or undefined', async () => {
  const app = enclave()
  const user = { $id: 'http://example.com/user', type: 'object' }
  app.addSchema(user)
  let inChild: unknown
  let childOnly: unknown
  app.register(async (child: any) => {
    child.addSchema({ $id: 'child-only', type: 'string' })
    inChild = child.getSchema('http://example.com/user')
    childOnly = child.getSchema('child-only')
  })
  await app.ready()
  assert.equal(app.getSchema('http://example.com/user'), user)
  assert.equal(inChild, user)
  assert.deepEqual(childOnly, { $id: 'child-only', type: 'string' })
  assert.equal(app.getSchema('child-only'), undefined)
  assert.equal(app.getSchema('nope'), undefined)
})

test('addSchema returns the instance for chaining', () => {
  const app = enclave()
  assert.equal(app.addSchema({ $id: 'a' }).addSchema({ $id: 'b' }), app)
  assert.deepEqual(Object.keys(app.getSchemas()), ['a', 'b'])
})

test('a schema without $id is refused: FST_ERR_SCH_MISSING_ID', () => {
  const app = enclave()
  assert.throws(() => app.addSchema({ type: 'object' }), { code: 'FST_ERR_SCH_MISSING_ID', message: 'Missing schema $id property' })
  assert.throws(() => app.addSchema(null as any), { code: 'FST_ERR_SCH_MISSING_ID' })
})

test('a duplicate $id in the same context (or one an ancestor holds) is refused: FST_ERR_SCH_ALREADY_PRESENT', async () => {
  const app = enclave()
  app.addSchema({ $id: 'dup', type: 'string' })
  assert.throws(() => app.addSchema({ $id: 'dup', type: 'number' }), {
    code: 'FST_ERR_SCH_ALREADY_PRESENT', message: "Schema with id 'dup' already declared!"
  })
  let childError: any
  app.register(async (child: any) => {
    try { child.addSchema({ $id: 'dup', type: 'number' }) } catch (err) { childError = err }
  })
  await app.ready()
  assert.equal(childError?.code, 'FST_ERR_SCH_ALREADY_PRESENT')
})

test('siblings may use the same $id without clashing', async () => {
  const app = enclave()
  const seen: any[] = []
  app.register(async (a: any) => { a.addSchema({ $id: 'same', v: 1 }); seen.push(a.getSchema('same')) })
  app.register(async (b: any) => { b.addSchema({ $id: 'same', v: 2 }); seen.push(b.getSchema('same')) })
  await app.ready()
  assert.deepEqual(seen, [{ $id: 'same', v: 1 }, { $id: 'same', v: 2 }])
  assert.deepEqual(app.getSchemas(), {})
})

test('schema setters throw FST_ERR_INSTANCE_ALREADY_LISTENING once the app started', async () => {
  const app = enclave()
  await app.ready()
  assert.throws(() => app.addSchema({ $id: 'late' }), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot call "addSchema"!' })
  assert.throws(() => app.setValidatorCompiler(() => () => true), /setValidatorCompiler/)
  assert.throws(() => app.setSchemaErrorFormatter(() => new Error('x')), /setSchemaErrorFormatter/)
  assert.throws(() => app.setSchemaController({}), /setSchemaController/)
})

test('validatorCompiler: undefined until set, or until routes of the context (or above) were compiled with the default', async () => {
  const app = enclave()
  assert.equal(app.validatorCompiler, undefined)
  app.addSchema({ $id: 'n', type: 'integer' })
  let withRoutes: any
  let withoutRoutes: any
  let nested: any
  app.register(async (child: any) => {
    withRoutes = child
    child.get('/', { schema: { querystring: { type: 'object', properties: { a: { $ref: 'n#' } } } } }, async () => 'ok')
    child.register(async (grandchild: any) => { nested = grandchild })
  })
  app.register(async (sibling: any) => { withoutRoutes = sibling })
  await app.ready()
  assert.equal(app.validatorCompiler, undefined)
  assert.equal(withoutRoutes.validatorCompiler, undefined)
  assert.equal(nested.validatorCompiler, withRoutes.validatorCompiler)
  const validate = withRoutes.validatorCompiler({ schema: { type: 'object', properties: { a: { $ref: 'n#' } } }, method: 'GET', url: '/', httpPart: 'querystring' })
  const data = { a: '5' }
  assert.equal(validate(data), true)
  assert.deepEqual(data, { a: 5 })
  assert.equal(validate({ a: 'x' }), false)

  const custom = () => () => true
  const other = enclave()
  other.setValidatorCompiler(custom)
  assert.equal(other.validatorCompiler, custom)
  other.register(async (child: any) => { assert.equal(child.validatorCompiler, custom) })
  await other.ready()
})

test('serializerCompiler: undefined until set, or until routes of the context (or above) were compiled with the default', async () => {
  const app = enclave()
  assert.equal(app.serializerCompiler, undefined)
  const custom = (): any => () => 'custom'
  let childBefore: unknown
  let grandchildCompiler: unknown
  let plain: any
  app.register(async (child: any) => {
    child.setSerializerCompiler(custom)
    childBefore = child.serializerCompiler
    child.register(async (grandchild: any) => { grandchildCompiler = grandchild.serializerCompiler })
  })
  app.register(async (child: any) => { plain = child })
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } }, async () => ({ a: 1 }))
  await app.ready()
  assert.equal(childBefore, custom)
  assert.equal(grandchildCompiler, custom)
  const compiler = app.serializerCompiler
  assert.equal(typeof compiler, 'function')
  assert.equal(plain.serializerCompiler, compiler)
  const serialize = compiler({ schema: { type: 'object', properties: { a: { type: 'integer' } } }, method: 'GET', url: '/', httpStatus: '200' })
  assert.equal(serialize({ a: 1, b: 2 }), '{"a":1}')

  const noSchemas = enclave()
  noSchemas.get('/', async () => 'ok')
  await noSchemas.ready()
  assert.equal(noSchemas.serializerCompiler, undefined)
})

test('schemaController.bucket replaces the shared-schema store, per context', async () => {
  const buckets: Array<{ parent: unknown, added: any[] }> = []
  const app = enclave({
    schemaController: {
      bucket (parentSchemas?: Record<string, any>) {
        const store: Record<string, any> = { ...parentSchemas }
        const record = { parent: parentSchemas, added: [] as any[] }
        buckets.push(record)
        return {
          add (schema: any) { record.added.push(schema.$id); store[schema.$id] = schema },
          getSchema (id: string) { return store[id] },
          getSchemas () { return { ...store } }
        }
      }
    }
  })
  app.addSchema({ $id: 'root', type: 'integer' })
  app.register(async (child: any) => {
    child.addSchema({ $id: 'child', type: 'object', properties: { n: { $ref: 'root#' } } })
    child.post('/', { schema: { body: { $ref: 'child#' } } }, async (req: any) => req.body)
  })
  const res = await app.inject({ method: 'POST', url: '/', payload: { n: 'x' } })
  assert.equal(res.json().message, 'body/n must be integer')
  assert.equal(buckets[0].parent, undefined)
  assert.deepEqual(buckets[0].added, ['root'])
  assert.deepEqual(Object.keys(buckets[1].parent as object), ['root'])
  assert.deepEqual(buckets[1].added, ['child'])
})

test('setSchemaController in a plugin changes the compilers of that context only', async () => {
  const app = enclave()
  app.register(async (child: any) => {
    child.setSchemaController({
      compilersFactory: { buildValidator: () => () => () => ({ error: new Error('child factory') }) }
    })
    child.post('/child', { schema: { body: { type: 'object' } } }, async () => 'ok')
  })
  app.post('/root', { schema: { body: { type: 'object' } } }, async () => 'root ok')
  let res = await app.inject({ method: 'POST', url: '/child', payload: {} })
  assert.equal(res.json().message, 'child factory')
  res = await app.inject({ method: 'POST', url: '/root', payload: {} })
  assert.equal(res.body, 'root ok')
})
