import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import enclave from '../../src/index'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-static-'))
fs.writeFileSync(path.join(root, 'hello.txt'), 'hello world\n')
fs.writeFileSync(path.join(root, 'data.json'), '{"a":1}')
fs.mkdirSync(path.join(root, 'docs'))
fs.writeFileSync(path.join(root, 'docs', 'index.html'), '<h1>docs</h1>')
after(() => fs.rmSync(root, { recursive: true, force: true }))

async function build (): Promise<any> {
  const app: any = enclave()
  app.register(fastifyStatic, { root, prefix: '/public/' })
  app.get('/download', (_request: any, reply: any) => reply.sendFile('data.json'))
  app.get('/attachment', (_request: any, reply: any) => reply.download('hello.txt', 'greeting.txt'))
  await app.ready()
  return app
}

test('static: files are served with content-type, length, etag and last-modified', async () => {
  const app = await build()
  const stat = fs.statSync(path.join(root, 'hello.txt'))
  const res = await app.inject({ url: '/public/hello.txt' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'hello world\n')
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8')
  assert.equal(res.headers['content-length'], '12')
  assert.equal(res.headers['accept-ranges'], 'bytes')
  assert.equal(res.headers['cache-control'], 'public, max-age=0')
  assert.equal(res.headers['last-modified'], stat.mtime.toUTCString())
  assert.match(String(res.headers.etag), /^W\/"[0-9a-f]+-[0-9a-f]+"$/)

  const json = await app.inject({ url: '/public/data.json' })
  assert.equal(json.headers['content-type'], 'application/json; charset=UTF-8')
  assert.equal(json.body, '{"a":1}')

  const index = await app.inject({ url: '/public/docs/' })
  assert.equal(index.statusCode, 200)
  assert.equal(index.headers['content-type'], 'text/html; charset=UTF-8')
  assert.equal(index.body, '<h1>docs</h1>')
  await app.close()
})

test('static: conditional GET answers 304, HEAD has no body, ranges answer 206', async () => {
  const app = await build()
  const first = await app.inject({ url: '/public/hello.txt' })
  const notModified = await app.inject({ url: '/public/hello.txt', headers: { 'if-none-match': first.headers.etag } })
  assert.equal(notModified.statusCode, 304)
  assert.equal(notModified.body, '')

  const head = await app.inject({ method: 'HEAD', url: '/public/hello.txt' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  assert.equal(head.headers['content-length'], '12')
  assert.equal(head.headers['content-type'], 'text/plain; charset=UTF-8')

  const range = await app.inject({ url: '/public/hello.txt', headers: { range: 'bytes=0-4' } })
  assert.equal(range.statusCode, 206)
  assert.equal(range.body, 'hello')
  assert.equal(range.headers['content-range'], 'bytes 0-4/12')
  assert.equal(range.headers['content-length'], '5')
  await app.close()
})

test('static: missing files and traversal attempts answer 404', async () => {
  const app = await build()
  const missing = await app.inject({ url: '/public/nope.txt' })
  assert.equal(missing.statusCode, 404)
  assert.deepEqual(missing.json(), { message: 'Route GET:/public/nope.txt not found', error: 'Not Found', statusCode: 404 })
  const traversal = await app.inject({ url: '/public/../package.json' })
  assert.equal(traversal.statusCode, 404)
  const dotdot = await app.inject({ url: '/public/%2e%2e/%2e%2e/etc/passwd' })
  assert.equal(dotdot.statusCode, 404)
  await app.close()
})

test('static: reply.sendFile and reply.download', async () => {
  const app = await build()
  const file = await app.inject({ url: '/download' })
  assert.equal(file.statusCode, 200)
  assert.equal(file.headers['content-type'], 'application/json; charset=UTF-8')
  assert.equal(file.body, '{"a":1}')
  const download = await app.inject({ url: '/attachment' })
  assert.equal(download.statusCode, 200)
  assert.equal(download.headers['content-disposition'], 'attachment; filename="greeting.txt"')
  assert.equal(download.body, 'hello world\n')
  await app.close()
})

test('static: served over a real socket', async () => {
  const app = await build()
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const res = await fetch(`${address}/public/hello.txt`)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=UTF-8')
    assert.equal(res.headers.get('content-length'), '12')
    assert.equal(await res.text(), 'hello world\n')
    const etag = res.headers.get('etag') as string
    // fetch() adds cache-control: no-cache to conditional requests, so this one goes through node:http
    const again = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${address}/public/hello.txt`, { headers: { 'if-none-match': etag } }, resolve).on('error', reject)
    })
    again.resume()
    assert.equal(again.statusCode, 304)
    assert.equal(again.headers.etag, etag)
    const missing = await fetch(`${address}/public/missing.txt`)
    assert.equal(missing.status, 404)
    assert.equal(((await missing.json()) as any).error, 'Not Found')
  } finally {
    await app.close()
  }
})

test('static: maxAge, setHeaders, wildcard false and two roots under different prefixes', async () => {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-static-b-'))
  fs.writeFileSync(path.join(other, 'style.css'), 'body{}')
  const app: any = enclave()
  app.register(fastifyStatic, {
    root,
    prefix: '/a/',
    maxAge: '1h',
    immutable: true,
    setHeaders: (res: any, filePath: string) => { res.setHeader('x-file', path.basename(filePath)) }
  })
  app.register(fastifyStatic, { root: other, prefix: '/b/', wildcard: false, decorateReply: false })
  try {
    await app.ready()
    const a = await app.inject({ url: '/a/hello.txt' })
    assert.equal(a.statusCode, 200)
    assert.equal(a.headers['cache-control'], 'public, max-age=3600, immutable')
    assert.equal(a.headers['x-file'], 'hello.txt')
    const b = await app.inject({ url: '/b/style.css' })
    assert.equal(b.statusCode, 200)
    assert.equal(b.headers['content-type'], 'text/css; charset=UTF-8')
    assert.equal(b.body, 'body{}')
    assert.equal(app.hasRoute({ method: 'GET', url: '/b/style.css' }), true)
    const missing = await app.inject({ url: '/b/other.css' })
    assert.equal(missing.statusCode, 404)
  } finally {
    await app.close()
    fs.rmSync(other, { recursive: true, force: true })
  }
})
