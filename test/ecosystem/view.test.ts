import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import view from '@fastify/view'
import handlebars from 'handlebars'
import enclave from '../../src/index'

const root = path.join(__dirname, 'fixtures', 'view')

async function build (options: Record<string, unknown> = {}): Promise<any> {
  const app: any = enclave()
  await app.register(view, {
    engine: { handlebars },
    root,
    defaultContext: { site: 'enclave' },
    options: { partials: { item: 'partials/item.hbs' } },
    ...options
  })
  app.get('/hello', (request: any, reply: any) => { reply.view('hello.hbs', { name: request.query.name }) })
  app.get('/list', async (_request: any, reply: any) => reply.view('list.hbs', { items: ['a', '<b>'] }))
  app.get('/broken', (_request: any, reply: any) => { reply.view('broken.hbs', {}) })
  app.get('/missing', (_request: any, reply: any) => { reply.view('nowhere.hbs', {}) })
  return app
}

test('view: reply.view renders a template from the root with the data and defaultContext, as text/html', async () => {
  const app = await build()
  const res = await app.inject('/hello?name=<Ada>')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  assert.equal(res.body, '<p>Hello &lt;Ada&gt; from enclave</p>\n')
  assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)))
  await app.close()
})

test('view: partials declared in the options render, and an async handler may return reply.view()', async () => {
  const app = await build()
  const res = await app.inject('/list')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '<ul><li>a</li><li>&lt;b&gt;</li></ul>\n')
  await app.close()
})

test('view: a layout wraps every page; app.view renders outside a request', async () => {
  const app = await build({ layout: 'layout.hbs' })
  const res = await app.inject('/hello?name=Grace')
  assert.equal(res.body, '<html><body><p>Hello Grace from enclave</p>\n</body></html>\n')
  const rendered = await app.view('hello.hbs', { name: 'Linus' })
  assert.equal(rendered, '<html><body><p>Hello Linus from enclave</p>\n</body></html>\n')
  await app.close()
})

test('view: a missing or broken template answers 500 through the error handler', async () => {
  const app = await build()
  const missing = await app.inject('/missing')
  assert.equal(missing.statusCode, 500)
  assert.equal(missing.json().statusCode, 500)
  assert.match(missing.json().message, /ENOENT: no such file or directory, open '.*nowhere\.hbs'/)
  const broken = await app.inject('/broken')
  assert.equal(broken.statusCode, 500)
  assert.match(broken.json().message, /Parse error on line 1/)
  await app.close()
})

test('view: propertyName renames the decorator, and a reply content type set before rendering is kept', async () => {
  const app: any = enclave()
  await app.register(view, { engine: { handlebars }, root, propertyName: 'render', defaultContext: { site: 'x' } })
  app.get('/', (_request: any, reply: any) => { reply.type('text/plain; charset=utf-8').render('hello.hbs', { name: 'plain' }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
  assert.equal(res.body, '<p>Hello plain from x</p>\n')
  assert.equal(app.hasReplyDecorator('view'), false)
  assert.equal(app.hasReplyDecorator('render'), true)
  await app.close()
})
