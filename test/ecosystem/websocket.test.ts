import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import websocket from '@fastify/websocket'
import WebSocket from 'ws'
import enclave from '../../src/index'

async function build (): Promise<any> {
  const app: any = enclave()
  await app.register(websocket)
  app.register(async (instance: any) => {
    instance.addHook('preValidation', async (request: any, reply: any) => {
      if (request.headers['x-token'] !== 'ok') await reply.code(401).send({ error: 'no token' })
    })
    instance.get('/echo', { websocket: true }, (socket: any, request: any) => {
      socket.on('message', (message: Buffer) => socket.send(`${request.query.prefix ?? ''}${message.toString()}`))
    })
  })
  app.get('/plain', { websocket: true }, (socket: any) => { socket.on('message', () => socket.send('welcome')) })
  app.route({ method: 'GET', url: '/both', handler: async () => ({ http: true }), wsHandler: (socket: any) => { socket.on('message', () => socket.send('upgraded')) } })
  return app
}

test('websocket: a websocket route echoes over a real socket; its preValidation hook can refuse the upgrade', async (t) => {
  const app = await build()
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `ws://127.0.0.1:${app.server.address().port}`

  const client = new WebSocket(`${base}/echo?prefix=re:`, { headers: { 'x-token': 'ok' } })
  await once(client, 'open')
  client.send('hello')
  const [message] = await once(client, 'message')
  assert.equal(message.toString(), 're:hello')
  client.close()
  await once(client, 'close')

  const refused = new WebSocket(`${base}/echo`)
  const [, response] = await once(refused, 'unexpected-response')
  assert.equal(response.statusCode, 401)
  refused.on('error', () => {})
  response.resume()
  refused.terminate()
})

test('websocket: injectWS connects without a socket; a route with both handlers answers plain HTTP requests too', async () => {
  const app = await build()
  await app.ready()
  const socket = await app.injectWS('/plain')
  socket.send('hi')
  const [message] = await once(socket, 'message')
  assert.equal(message.toString(), 'welcome')
  socket.terminate()

  const upgraded = await app.injectWS('/both')
  upgraded.send('hi')
  const [greeting] = await once(upgraded, 'message')
  assert.equal(greeting.toString(), 'upgraded')
  upgraded.terminate()

  const http = await app.inject('/both')
  assert.equal(http.statusCode, 200)
  assert.deepEqual(http.json(), { http: true })
  const plain = await app.inject('/plain')
  assert.equal(plain.statusCode, 404)
  await app.close()
})
