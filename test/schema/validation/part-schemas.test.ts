import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../../src/index'
import enclave5 from '../../../src/fastify5'

// What a request part's schema may be: a part is validated whenever its key holds anything but `undefined`, as in
// Fastify 5; at both levels (Fastify 4.29.1 skipped `null` and `false`, and its own tests do not rely on it).
const levels: Array<[string, (options?: object) => any]> = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]]

for (const [level, factory] of levels) {
  test(`${level}: a null part schema fails ready() with FST_ERR_SCH_VALIDATION_BUILD; the handler never runs`, async () => {
    for (const part of ['body', 'querystring', 'params', 'headers']) {
      let ran = false
      const app = factory({ exposeHeadRoutes: false })
      app.post('/:id', { schema: { [part]: null } }, async () => { ran = true; return 'open' })
      await assert.rejects(app.ready(), (err: any) => {
        assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
        assert.match(err.message, /^Failed building the validation schema for POST: \/:id, due to error /)
        assert.equal(err.httpPart, part)
        return true
      })
      assert.equal(ran, false)
    }
  })

  test(`${level}: query: false is aliased to querystring and refuses every request`, async () => {
    let ran = false
    const app = factory()
    app.get('/', { schema: { query: false } }, async () => { ran = true; return 'open' })
    const res = await app.inject({ method: 'GET', url: '/?any=1' })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), {
      statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring boolean schema is false'
    })
    assert.equal(ran, false)
  })

  test(`${level}: query and querystring both present fail ready() with FST_ERR_SCH_DUPLICATE, whatever their values`, async () => {
    for (const schema of [{ query: false, querystring: false }, { query: null, querystring: { type: 'object' } }]) {
      const app = factory()
      app.get('/', { schema }, async () => 'open')
      await assert.rejects(app.ready(), (err: any) => {
        assert.equal(err.code, 'FST_ERR_SCH_DUPLICATE')
        assert.equal(err.message, "Schema with 'querystring' already present!")
        return true
      })
    }
  })

  test(`${level}: FSTWRN001 is for a part given as undefined only, not for false`, async (t) => {
    const warnings: string[] = []
    const onWarning = (warning: any): void => { if (warning.code === 'FSTWRN001') warnings.push(String(warning.message)) }
    process.on('warning', onWarning)
    t.after(() => process.off('warning', onWarning))
    const app = factory({ exposeHeadRoutes: false })
    app.post('/refused', { schema: { body: false } }, async () => 'open')
    app.post('/unchecked', { schema: { body: undefined } }, async () => 'open')
    assert.equal((await app.inject({ method: 'POST', url: '/refused', payload: {} })).statusCode, 400)
    assert.equal((await app.inject({ method: 'POST', url: '/unchecked', payload: {} })).statusCode, 200)
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings, ['The body schema for POST: /unchecked is missing. This may indicate the schema is not well specified.'])
  })
}
