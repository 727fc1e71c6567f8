/**
 * `getDecorator` on the instance, the request and the reply, and `request.setDecorator` (Fastify 5, both levels);
 * and the decorator rules the levels disagree on: reference-type values and names of constructor-set fields.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import typedEnclave5 from '../../src/fastify5'
import { enclave } from '../helpers'

const enclave5 = typedEnclave5 as unknown as typeof enclave

for (const [level, make] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  test(`${level} level: getDecorator reads instance, request and reply decorators; functions come bound`, async () => {
    const app = make()
    app.decorate('greeting', 'hello')
    app.decorate('whoAmI', function (this: unknown) { return this === app })
    app.decorateRequest('tag', 'request-tag')
    app.decorateRequest('self', function (this: any) { return this.url })
    app.decorateReply('mark', 'reply-mark')
    app.decorateReply('status', function (this: any) { return this.statusCode })
    assert.equal(app.getDecorator('greeting'), 'hello')
    assert.equal(app.getDecorator('whoAmI')(), true)
    app.get('/look', async (request: any, reply: any) => {
      const url = request.getDecorator('self')
      const status = reply.getDecorator('status')
      return [request.getDecorator('tag'), url(), reply.getDecorator('mark'), status()]
    })
    const res = await app.inject('/look')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), ['request-tag', '/look', 'reply-mark', 200])
    await app.close()
  })

  test(`${level} level: getDecorator of a name the scope does not have throws FST_ERR_DEC_UNDECLARED`, async () => {
    const app = make()
    app.register(async (child: any) => {
      child.decorate('inner', 1)
      child.decorateRequest('inner', 1)
      child.decorateReply('inner', 1)
    })
    app.get('/', async (request: any, reply: any) => {
      const codes = []
      for (const [owner, target] of [[request, 'request'], [reply, 'reply']]) {
        try {
          owner.getDecorator('inner')
        } catch (err: any) {
          codes.push([err.code, err.message === `No decorator 'inner' has been declared on ${target}.`])
        }
      }
      return codes
    })
    await app.ready()
    assert.throws(() => app.getDecorator('inner'), { code: 'FST_ERR_DEC_UNDECLARED', message: "No decorator 'inner' has been declared on instance." })
    const res = await app.inject('/')
    assert.deepEqual(res.json(), [['FST_ERR_DEC_UNDECLARED', true], ['FST_ERR_DEC_UNDECLARED', true]])
    await app.close()
  })

  test(`${level} level: request.setDecorator sets a declared decorator and refuses an undeclared one`, async () => {
    const app = make()
    app.decorateRequest('user', null)
    app.addHook('onRequest', async (request: any) => {
      request.setDecorator('user', 'ada')
      assert.throws(() => request.setDecorator('usr', 'typo'), { code: 'FST_ERR_DEC_UNDECLARED', message: "No decorator 'usr' has been declared on request." })
    })
    app.get('/', async (request: any) => ({ user: request.getDecorator('user'), typo: 'usr' in request }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { user: 'ada', typo: false })
    await app.close()
  })
}

test('getDecorator runs a getter decorator once and binds the function it returns to the instance', async () => {
  const app = enclave5()
  let reads = 0
  app.decorate('method', { getter () { reads++; return function (this: unknown) { return this } } })
  assert.equal(app.getDecorator('method')(), app)
  assert.equal(reads, 1)
  await app.close()
})

test('a request decorator whose value is an object or array: a warning at the Fastify 4 level, an error at the Fastify 5 level', async () => {
  const app5 = enclave5()
  assert.throws(() => app5.decorateRequest('list', []), {
    code: 'FST_ERR_DEC_REFERENCE_TYPE',
    message: "The decorator 'list' of type 'object' is a reference type. Use the { getter, setter } interface instead."
  })
  assert.throws(() => app5.decorateReply('bag', { a: 1 }), { code: 'FST_ERR_DEC_REFERENCE_TYPE' })
  // the instance may hold one; a getter is the way for requests
  app5.decorate('list', [])
  app5.decorateRequest('bag', { getter: () => ({ fresh: true }) })
  app5.get('/', async (request: any) => request.bag)
  assert.deepEqual((await app5.inject('/')).json(), { fresh: true })
  await app5.close()

  const warnings: string[] = []
  const onWarning = (warning: Error & { code?: string }): void => { warnings.push(String(warning.code)) }
  process.on('warning', onWarning)
  try {
    const app4 = enclave()
    app4.decorateRequest('sharedList', [])
    await new Promise((resolve) => setImmediate(resolve))
    assert.ok(warnings.includes('FSTDEP006'))
    await app4.close()
  } finally {
    process.off('warning', onWarning)
  }
})

test('a decorator named after a field the request constructor sets: refused at the Fastify 5 level only', async () => {
  const app5 = enclave5()
  for (const name of ['id', 'params', 'raw', 'query', 'body', 'log']) {
    assert.throws(() => app5.decorateRequest(name, null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  }
  for (const name of ['raw', 'request', 'log']) {
    assert.throws(() => app5.decorateReply(name, null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  }
  await app5.close()
  const app4 = enclave()
  app4.decorateRequest('body', null)
  app4.decorateRequest('params', function () { return 'never seen: the field wins' })
  await app4.close()
})

test('errors match an errors module of Fastify 5 by code with instanceof, as @fastify/error 4 does', async () => {
  const app = enclave5()
  app.decorate('twice', 1)
  const marked = Symbol.for('fastify-error FST_ERR_DEC_ALREADY_PRESENT')
  try {
    app.decorate('twice', 2)
    assert.fail('decorated twice')
  } catch (err: any) {
    assert.equal(err[marked], true)
    assert.equal(err[Symbol.for('fastify-error-generic')], true)
  }
  await app.close()
})
