import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../../src/index'
import enclave5 from '../../../src/fastify5'

// Header names are lower-cased through the whole headers schema at both levels (Fastify 5.12.8's fix, which Fastify
// 4.29.1's own tests do not contradict): a rule written with `X-Role` must hold for the `x-role` Node delivers.
const levels: Array<[string, (options?: object) => any]> = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]]

async function status (app: any, url: string, headers: Record<string, string>): Promise<number> {
  return (await app.inject({ method: 'GET', url, headers })).statusCode
}

for (const [level, factory] of levels) {
  test(`${level}: a dependency written in canonical case is enforced, in array and schema form`, async () => {
    const app = factory()
    app.get('/array', {
      schema: {
        headers: {
          type: 'object',
          properties: { 'X-Role': { type: 'string' }, 'X-Role-Proof': { type: 'string', const: 'signed' } },
          dependencies: { 'X-Role': ['X-Role-Proof'] }
        }
      }
    }, async () => 'done')
    app.get('/schema', {
      schema: {
        headers: {
          type: 'object',
          dependencies: { 'X-Role': { required: ['X-Role-Proof'], properties: { 'X-Role-Proof': { const: 'signed' } } } }
        }
      }
    }, async () => 'done')
    const messages: Record<string, string> = {
      '/array': 'headers must have property x-role-proof when property x-role is present',
      '/schema': "headers must have required property 'x-role-proof'"
    }
    for (const url of ['/array', '/schema']) {
      const missing = await app.inject({ method: 'GET', url, headers: { 'X-Role': 'admin' } })
      assert.equal(missing.statusCode, 400, url)
      assert.equal(missing.json().message, messages[url])
      assert.equal(await status(app, url, { 'X-Role': 'admin', 'X-Role-Proof': 'forged' }), 400, url)
      assert.equal(await status(app, url, { 'X-Role': 'admin', 'X-Role-Proof': 'signed' }), 200, url)
      assert.equal(await status(app, url, {}), 200, url)
    }
  })

  test(`${level}: names are lower-cased inside allOf, if/then and local definitions, and in dependentRequired`, async () => {
    const app = factory({ ajv: { customOptions: { strictSchema: false } } })
    app.get('/all-of', {
      schema: { headers: { type: 'object', allOf: [{ required: ['X-Tenant'] }] } }
    }, async () => 'done')
    app.get('/if-then', {
      schema: { headers: { type: 'object', if: { required: ['X-Mode'] }, then: { required: ['X-Mode-Key'] } } }
    }, async () => 'done')
    app.get('/definitions', {
      schema: {
        headers: {
          $ref: '#/$defs/tenant',
          $defs: { tenant: { type: 'object', properties: { 'X-Tenant': { type: 'integer' } }, required: ['X-Tenant'] } }
        }
      }
    }, async (request: any) => request.headers['x-tenant'])
    app.get('/dependent-required', {
      schema: { headers: { type: 'object', dependentRequired: { 'X-Mode': ['X-Mode-Key'] } } }
    }, async () => 'done')

    assert.equal(await status(app, '/all-of', {}), 400)
    assert.equal(await status(app, '/all-of', { 'X-Tenant': '7' }), 200)
    assert.equal(await status(app, '/if-then', { 'X-Mode': 'a' }), 400)
    assert.equal(await status(app, '/if-then', { 'X-Mode': 'a', 'X-Mode-Key': 'k' }), 200)
    assert.equal(await status(app, '/definitions', { 'X-Tenant': 'seven' }), 400)
    const coerced = await app.inject({ method: 'GET', url: '/definitions', headers: { 'X-Tenant': '7' } })
    assert.equal(coerced.statusCode, 200)
    assert.equal(coerced.body, '7')
    // Ajv's Draft-07 does not know dependentRequired (strictSchema off): rewritten, but not enforced
    assert.equal(await status(app, '/dependent-required', { 'X-Mode': 'a' }), 200)
  })

  test(`${level}: propertyNames rules hold names, lower-cased inside not, anyOf and oneOf; values keep their case`, async () => {
    const app = factory()
    const denied = (propertyNames: object) => ({ schema: { headers: { type: 'object', propertyNames } } })
    app.get('/not-enum', denied({ not: { enum: ['X-Internal', 7] } }), async () => 'done')
    app.get('/not-const', denied({ not: { const: 'X-Internal' } }), async () => 'done')
    app.get('/any-of', denied({ not: { anyOf: [{ enum: ['X-Internal'] }, { const: 'X-Debug' }] } }), async () => 'done')
    app.get('/one-of', denied({ not: { oneOf: [{ const: 'X-Internal' }] } }), async () => 'done')
    app.get('/values', {
      schema: { headers: { type: 'object', properties: { 'X-Mode': { type: 'string', enum: ['FAST', 'Slow'] }, 'X-Tag': { const: 'A' } } } }
    }, async () => 'done')

    for (const url of ['/not-enum', '/not-const', '/any-of', '/one-of']) {
      const refused = await app.inject({ method: 'GET', url, headers: { 'X-Internal': '1' } })
      assert.equal(refused.statusCode, 400, url)
      assert.equal(refused.json().code, 'FST_ERR_VALIDATION')
      assert.equal(await status(app, url, { 'X-Other': '1' }), 200, url)
    }
    assert.equal(await status(app, '/any-of', { 'X-Debug': '1' }), 400)
    assert.equal(await status(app, '/values', { 'X-Mode': 'FAST', 'X-Tag': 'A' }), 200)
    assert.equal(await status(app, '/values', { 'X-Mode': 'fast' }), 400)
  })

  test(`${level}: the route's schema object is left as written`, async () => {
    const headers = {
      type: 'object',
      properties: { 'X-Role': { type: 'string' } },
      required: ['X-Role'],
      dependencies: { 'X-Role': ['X-Role-Proof'] },
      propertyNames: { not: { enum: ['X-Internal'] } }
    }
    const before = JSON.stringify(headers)
    const app = factory()
    app.get('/', { schema: { headers } }, async () => 'done')
    await app.ready()
    assert.equal(JSON.stringify(headers), before)
    assert.equal(await status(app, '/', { 'X-Role': 'a', 'X-Role-Proof': 'b' }), 200)
  })

  test(`${level}: a compiler of the user's gets the headers schema as written`, async () => {
    const seen: unknown[] = []
    const compiler = ({ schema, httpPart }: any) => {
      if (httpPart === 'headers') seen.push(schema)
      return () => true
    }
    const headers = { type: 'object', required: ['X-Role'] }
    const app = factory()
    app.get('/route', { schema: { headers }, validatorCompiler: compiler }, async () => 'done')
    app.register(async (child: any) => {
      child.setValidatorCompiler(compiler)
      child.get('/context', { schema: { headers } }, async () => 'done')
    })
    const factoryApp = factory({ schemaController: { compilersFactory: { buildValidator: () => compiler } } })
    factoryApp.get('/factory', { schema: { headers } }, async () => 'done')
    await app.ready()
    await factoryApp.ready()
    assert.ok(seen.length >= 3)
    for (const schema of seen) assert.equal(schema, headers)
  })

  test(`${level}: FSTSEC002 and FSTSEC003 name the route and the $ref the lower-casing cannot reach`, async (t) => {
    const warnings: string[] = []
    const onWarning = (warning: any): void => {
      if (String(warning.code).startsWith('FSTSEC')) warnings.push(`${String(warning.name)} ${String(warning.code)}: ${String(warning.message)}`)
    }
    process.on('warning', onWarning)
    t.after(() => process.off('warning', onWarning))
    const app = factory()
    app.addSchema({ $id: 'roles', type: 'object', required: ['X-Role'] })
    app.post('/external', { schema: { headers: { allOf: [{ $ref: 'roles#' }] } } }, async () => 'done')
    app.post('/names', {
      schema: { headers: { type: 'object', propertyNames: { $ref: '#/definitions/names' }, definitions: { names: { not: { const: 'X-A' } } } } }
    }, async () => 'done')
    app.post('/local', {
      schema: { headers: { $ref: '#/definitions/h', definitions: { h: { type: 'object', required: ['X-A'] } } } }
    }, async () => 'done')
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings, [
      'FastifySecurity FSTSEC002: The headers schema for POST: /external references an external $ref (roles#) that is not ' +
        'case-normalized. Header names in the referenced schema keep their original case and will not match the lowercased ' +
        'request headers, so case-insensitive assertions such as required and dependencies may not apply. Inline the header ' +
        'schema instead of referencing it with an external $ref.',
      'FastifySecurity FSTSEC003: The headers schema for POST: /names uses a $ref (#/definitions/names) inside propertyNames ' +
        'that is not case-normalized. Header names held in the referenced schema keep their original case and will not match ' +
        'the lowercased request headers, so a case-insensitive deny-list or allow-list on header names may not apply. Inline ' +
        'the propertyNames constraint instead of referencing it with a $ref.'
    ])
  })
}

test('a malformed keyword value is kept for Ajv to reject: ready() fails with FST_ERR_SCH_VALIDATION_BUILD', async () => {
  for (const factory of [enclave, enclave5] as Array<(options?: object) => any>) {
    const app = factory()
    app.get('/', { schema: { headers: { type: 'object', properties: null, dependencies: 3 } } }, async () => 'done')
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
      assert.equal(err.httpPart, 'headers')
      return true
    })
  }
})
