import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import enclave from '../../../src/index'
import enclave5 from '../../../src/fastify5'

// `ajv.onCreate` (@fastify/ajv-compiler's, so Fastify 4.29.1's and 5.12.8's): a function called with each Ajv
// instance the default compiler makes, after its plugins and ajv-formats, before the shared schemas.
const levels: Array<[string, (options?: object) => any]> = [['Fastify 4 level', enclave], ['Fastify 5 level', enclave5]]

function evenFormatApp (factory: (options?: object) => any, extra: object = {}): any {
  const app = factory({
    ...extra,
    ajv: { onCreate: (ajv: any) => ajv.addFormat('even', (data: string) => Number(data) % 2 === 0) }
  })
  app.addSchema({ $id: 'count', type: 'string', format: 'even' })
  app.get('/inline', { schema: { querystring: { type: 'object', properties: { n: { type: 'string', format: 'even' } } } } },
    async (request: any) => request.query)
  app.get('/shared', { schema: { querystring: { type: 'object', properties: { n: { $ref: 'count#' } } } } },
    async (request: any) => request.query)
  return app
}

for (const [level, factory] of levels) {
  test(`${level}: ajv.onCreate adds a format that inline and shared schemas use`, async () => {
    const app = evenFormatApp(factory)
    for (const url of ['/inline', '/shared']) {
      assert.deepEqual((await app.inject({ method: 'GET', url: `${url}?n=4` })).json(), { n: '4' })
      const odd = await app.inject({ method: 'GET', url: `${url}?n=3` })
      assert.equal(odd.statusCode, 400)
      assert.equal(odd.json().message, 'querystring/n must match format "even"')
    }
  })

  test(`${level}: ajv.onCreate also applies with a compile cache (its validators are not cached: code the key cannot see)`, async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'enclave-oncreate-'))
    t.after(() => rm(dir, { recursive: true, force: true }))
    for (let start = 0; start < 2; start++) {
      const app = evenFormatApp(factory, { compileCache: { dir } })
      assert.equal((await app.inject({ method: 'GET', url: '/inline?n=3' })).statusCode, 400)
      assert.equal((await app.inject({ method: 'GET', url: '/shared?n=2' })).statusCode, 200)
      await app.close()
    }
  })

  test(`${level}: an ajv.onCreate that is not a function fails at creation with FST_ERR_INIT_OPTS_INVALID`, () => {
    assert.throws(() => factory({ ajv: { onCreate: 'addFormats' } }), (err: any) => {
      assert.equal(err.code, 'FST_ERR_INIT_OPTS_INVALID')
      assert.match(err.message, /ajv\.onCreate must be a function/)
      return true
    })
  })
}
