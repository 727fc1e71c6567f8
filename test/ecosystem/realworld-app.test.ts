/**
 * A RealWorld ("Conduit") style API as such apps are written for Fastify 4: plugins and routes loaded from folders by
 * @fastify/autoload, @fastify/jwt behind an `authenticate` decorator, @fastify/cors, and schemas built with
 * fluent-json-schema (shared ones registered by id). The app lives in fixtures/conduit; it must start and answer as
 * the RealWorld API specifies.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import autoload from '@fastify/autoload'
import cors from '@fastify/cors'
import enclave from '../../src/index'

const appDir = path.join(__dirname, 'fixtures', 'conduit')
const origin = 'https://conduit.example'

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(cors, { origin, credentials: true })
  app.register(autoload, { dir: path.join(appDir, 'plugins'), options: { jwtSecret: 'conduit-secret-for-tests' } })
  app.register(autoload, { dir: path.join(appDir, 'routes'), options: { prefix: '/api' } })
  await app.ready()
  return app
}

const newUser = { user: { email: 'ada@example.com', username: 'ada', password: 'analytical-engine' } }
const newArticle = { article: { title: 'How to Train Your Dragon', description: 'Ever wonder how?', body: 'You have to believe', tagList: ['dragons'] } }

async function register (app: any): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/users', payload: newUser })
  assert.equal(res.statusCode, 201)
  return res.json().user.token
}

test('realworld: the app starts with its plugins and routes loaded from folders', async () => {
  const app = await build()
  assert.equal(app.hasPlugin('store'), true)
  assert.equal(app.hasPlugin('auth'), true)
  assert.equal(app.hasPlugin('@fastify/cors'), true)
  for (const [method, url] of [['POST', '/api/users'], ['POST', '/api/users/login'], ['GET', '/api/user'], ['GET', '/api/articles'], ['GET', '/api/articles/:slug']]) {
    assert.equal(app.hasRoute({ method, url }), true, `${method} ${url}`)
  }
  await app.close()
})

test('realworld: registration and login answer the user with a token; the schemas filter stored secrets', async () => {
  const app = await build()
  const created = await app.inject({ method: 'POST', url: '/api/users', payload: newUser })
  assert.equal(created.statusCode, 201)
  const { user } = created.json()
  assert.deepEqual(Object.keys(user), ['email', 'token', 'username', 'bio', 'image'])
  assert.deepEqual({ ...user, token: typeof user.token }, { email: 'ada@example.com', token: 'string', username: 'ada', bio: null, image: null })

  const taken = await app.inject({ method: 'POST', url: '/api/users', payload: newUser })
  assert.equal(taken.statusCode, 422)
  assert.deepEqual(taken.json(), { errors: { email: ['has already been taken'] } })

  const login = await app.inject({ method: 'POST', url: '/api/users/login', payload: { user: { email: 'ada@example.com', password: 'analytical-engine' } } })
  assert.equal(login.statusCode, 200)
  assert.equal(login.json().user.username, 'ada')

  const wrong = await app.inject({ method: 'POST', url: '/api/users/login', payload: { user: { email: 'ada@example.com', password: 'babbage' } } })
  assert.equal(wrong.statusCode, 422)
  assert.deepEqual(wrong.json(), { errors: { 'email or password': ['is invalid'] } })

  const invalid = await app.inject({ method: 'POST', url: '/api/users', payload: { user: { email: 'not-an-email', username: 'x', password: 'longenough' } } })
  assert.equal(invalid.statusCode, 400)
  assert.deepEqual(invalid.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/user/email must match format "email"' })
  await app.close()
})

test('realworld: the current user needs a valid `Token` authorization', async () => {
  const app = await build()
  const token = await register(app)
  const me = await app.inject({ url: '/api/user', headers: { authorization: `Token ${token}` } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json(), { user: { email: 'ada@example.com', token, username: 'ada', bio: null, image: null } })

  const none = await app.inject('/api/user')
  assert.equal(none.statusCode, 401)
  assert.deepEqual(none.json(), { errors: { token: ['Format is Authorization: Bearer [token]'] } })
  const bearer = await app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } })
  assert.equal(bearer.statusCode, 401)
  const forged = await app.inject({ url: '/api/user', headers: { authorization: `Token ${token.slice(0, -2)}xx` } })
  assert.equal(forged.statusCode, 401)
  assert.deepEqual(forged.json(), { errors: { token: ['Authorization token is invalid: The token signature is invalid.'] } })
  await app.close()
})

test('realworld: articles are created by an authenticated user, listed and read by slug in the spec\'s shape', async () => {
  const app = await build()
  const token = await register(app)
  const refused = await app.inject({ method: 'POST', url: '/api/articles', payload: newArticle })
  assert.equal(refused.statusCode, 401)

  const created = await app.inject({ method: 'POST', url: '/api/articles', headers: { authorization: `Token ${token}` }, payload: newArticle })
  assert.equal(created.statusCode, 201)
  const article = { slug: 'how-to-train-your-dragon', ...newArticle.article, author: { username: 'ada' } }
  assert.deepEqual(created.json(), { article })

  const list = await app.inject('/api/articles?limit=5')
  assert.equal(list.statusCode, 200)
  assert.deepEqual(list.json(), { articles: [article], articlesCount: 1 })
  assert.deepEqual((await app.inject('/api/articles/how-to-train-your-dragon')).json(), { article })
  assert.equal((await app.inject('/api/articles/nothing')).statusCode, 404)

  const noTitle = await app.inject({ method: 'POST', url: '/api/articles', headers: { authorization: `Token ${token}` }, payload: { article: { description: 'd', body: 'b' } } })
  assert.equal(noTitle.statusCode, 400)
  assert.equal(noTitle.json().message, 'body/article must have required property \'title\'')
  await app.close()
})

test('realworld: a browser on the front-end origin gets CORS answers over a real socket', async (t) => {
  const app = await build()
  t.after(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${app.server.address().port}`
  const preflight = await fetch(`${base}/api/articles`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' }
  })
  assert.equal(preflight.status, 204)
  assert.equal(preflight.headers.get('access-control-allow-origin'), origin)
  assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true')
  assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET,HEAD,PUT,PATCH,POST,DELETE')
  assert.equal(preflight.headers.get('access-control-allow-headers'), 'authorization,content-type')

  const list = await fetch(`${base}/api/articles`, { headers: { origin } })
  assert.equal(list.status, 200)
  assert.equal(list.headers.get('access-control-allow-origin'), origin)
  assert.deepEqual(await list.json(), { articles: [], articlesCount: 0 })
})
