import { test } from 'node:test'
import assert from 'node:assert/strict'
import { enclave } from '../helpers'

// Compile-at-ready resolves what the routes of one context share once for that context: each route must still get
// its own context's decorators, request id generator and hooks, whatever order the routes were registered in.
test('routes of sibling contexts, registered interleaved, each get their own context\'s decorators, ids and hooks', async () => {
  const app = enclave()
  const seen = (request: any) => ({ team: request.team ?? 'none', id: request.id, hooked: request.hooked ?? null })
  app.get('/root/a', async (request: any) => seen(request))
  for (const team of ['red', 'blue']) {
    app.register(async (child: any) => {
      child.decorateRequest('team', team)
      child.setGenReqId(() => `${team}-id`)
      if (team === 'blue') child.addHook('onRequest', async (request: any) => { request.hooked = 'blue hook' })
      for (const name of ['a', 'b', 'c']) child.get(`/${team}/${name}`, async (request: any) => seen(request))
      child.setNotFoundHandler(async (request: any, reply: any) => reply.code(404).send(seen(request)))
    }, { prefix: `/${team[0]}` })
  }
  app.get('/root/b', async (request: any) => seen(request))

  const answer = async (url: string): Promise<unknown> => {
    const response = await app.inject(url)
    return { status: response.statusCode, ...response.json() }
  }
  assert.deepEqual(await answer('/root/a'), { status: 200, team: 'none', id: 'req-1', hooked: null })
  assert.deepEqual(await answer('/r/red/b'), { status: 200, team: 'red', id: 'red-id', hooked: null })
  assert.deepEqual(await answer('/b/blue/c'), { status: 200, team: 'blue', id: 'blue-id', hooked: 'blue hook' })
  assert.deepEqual(await answer('/root/b'), { status: 200, team: 'none', id: 'req-2', hooked: null })
  assert.deepEqual(await answer('/r/missing'), { status: 404, team: 'red', id: 'red-id', hooked: null })
  assert.deepEqual(await answer('/b/missing'), { status: 404, team: 'blue', id: 'blue-id', hooked: 'blue hook' })
  await app.close()
})
