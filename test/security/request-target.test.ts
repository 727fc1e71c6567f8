/**
 * The request-target of a request line reaches a route only when it is a path (`/admin`) or an absolute URL
 * (`http://host/admin`). Node's parser lets other forms through (`*admin`), and a router that took their first
 * character for the leading slash would serve `/admin` to them, past any rule in front that matches paths.
 */
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'
import enclave5Typed from '../../src/fastify5'
import { rawGet } from './helpers'

const enclave5 = enclave5Typed as unknown as (options?: Record<string, any>) => any

for (const [level, factory] of [['Fastify 4', enclave], ['Fastify 5', enclave5]] as const) {
  describe(`request-targets at the ${level} level`, () => {
    let app: any
    let port: number
    before(async () => {
      app = factory()
      app.get('/admin', async () => ({ secret: true }))
      await app.listen({ port: 0, host: '127.0.0.1' })
      port = app.server.address().port
    })
    after(() => app.close())

    test('a path and an absolute URL reach their route', async () => {
      for (const target of ['/admin', 'http://x/admin']) {
        const res = await rawGet(port, target)
        assert.equal(res.status, 200, target)
        assert.deepEqual(JSON.parse(res.body.toString()), { secret: true })
      }
    })

    test('a target whose first character is not a slash never reaches the route of the path after it', async () => {
      for (const target of ['*admin', '*/admin']) {
        const res = await rawGet(port, target)
        assert.equal(res.status, 400, target)
        assert.deepEqual(JSON.parse(res.body.toString()), {
          error: 'Bad Request',
          code: 'FST_ERR_BAD_URL',
          message: `'${target}' is not a valid url component`,
          statusCode: 400
        })
      }
    })

    test('the asterisk-form is looked up as it is: not found', async () => {
      const res = await rawGet(port, '*')
      assert.equal(res.status, 404)
      assert.deepEqual(JSON.parse(res.body.toString()), { message: 'Route GET:* not found', error: 'Not Found', statusCode: 404 })
    })
  })
}
