import { test } from 'node:test'
import assert from 'node:assert/strict'
import accepts from '@fastify/accepts'
import enclave from '../../src/index'

test('accepts: request.accepts(), the request helpers and (decorateReply) the reply helpers negotiate from the Accept headers', async () => {
  const app: any = enclave()
  app.register(accepts, { decorateReply: true })
  app.get('/', async (request: any, reply: any) => {
    const type = request.accepts().type(['json', 'html'])
    if (type === 'html') return reply.type('text/html').send('<p>hi</p>')
    if (type === 'json') return { hi: true }
    return reply.code(406).send({ error: 'not acceptable' })
  })
  app.get('/languages', async (request: any, reply: any) => ({
    language: request.language(['en', 'fr']),
    encodings: request.encodings(),
    replyType: reply.requestType(['json', 'html'])
  }))

  const html = await app.inject({ url: '/', headers: { accept: 'text/html' } })
  assert.equal(html.statusCode, 200)
  assert.equal(html.headers['content-type'], 'text/html')
  assert.equal(html.body, '<p>hi</p>')

  const json = await app.inject({ url: '/', headers: { accept: 'application/json;q=0.9, text/html;q=0.1' } })
  assert.deepEqual(json.json(), { hi: true })

  const none = await app.inject({ url: '/', headers: { accept: 'image/png' } })
  assert.equal(none.statusCode, 406)
  assert.deepEqual(none.json(), { error: 'not acceptable' })

  const languages = await app.inject({ url: '/languages', headers: { 'accept-language': 'fr-CH, fr;q=0.9', 'accept-encoding': 'gzip', accept: 'text/html' } })
  assert.deepEqual(languages.json(), { language: 'fr', encodings: ['gzip', 'identity'], replyType: 'html' })
  await app.close()
})
