import { test } from 'node:test'
import assert from 'node:assert/strict'
import enclave from '../../src/index'
import enclave5 from '../../src/fastify5'

type Factory = any

const levels: Array<[string, Factory]> = [['Fastify 4', enclave], ['Fastify 5', enclave5]]

test('a 415 names the content type at the Fastify 4 level only; each level exports its own error class', async () => {
  const messages = []
  for (const [, factory] of levels) {
    const app = factory()
    app.post('/', async () => 'unreached')
    const typed = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/xml' }, payload: '<a/>' })
    const untyped = await app.inject({ method: 'POST', url: '/', payload: 'some text', headers: { 'content-type': '' } })
    for (const res of [typed, untyped]) {
      assert.equal(res.statusCode, 415)
      assert.equal(res.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    }
    messages.push([typed.json().message, untyped.json().message, new factory.errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE().message])
  }
  assert.deepEqual(messages, [
    ['Unsupported Media Type: text/xml', 'Unsupported Media Type: undefined', 'Unsupported Media Type: %s'],
    ['Unsupported Media Type', 'Unsupported Media Type', 'Unsupported Media Type']
  ])
})

test('hasContentTypeParser takes a string or a RegExp, at both levels', () => {
  for (const [, factory] of levels) {
    const app = factory()
    assert.equal(app.hasContentTypeParser('  Text/Plain  '), true)
    assert.throws(() => app.hasContentTypeParser(123), { code: 'FST_ERR_CTP_INVALID_TYPE', message: 'The content type should be a string or a RegExp' })
  }
})

test('a parser name that is no media type: every type containing it at the Fastify 4 level, refused at the Fastify 5 level', async () => {
  const app4 = enclave()
  app4.addContentTypeParser('json-ish', { parseAs: 'string' }, (_req: any, body: string, done: any) => done(null, { raw: body }))
  app4.post('/', async (req: any) => req.body)
  const res = await app4.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/x-json-ish' }, payload: 'x' })
  assert.deepEqual(res.json(), { raw: 'x' })

  const app5 = enclave5()
  for (const name of ['json-ish', 'type-only', 'application/']) {
    assert.throws(() => app5.addContentTypeParser(name, () => {}), { code: 'FST_ERR_CTP_INVALID_TYPE' }, name)
  }
  // '*' and names with parameters are media types enough
  app5.addContentTypeParser('*', () => {})
  app5.addContentTypeParser('application/vnd.x; version=1', () => {})
})

test('RegExps: Fastify 4 tests the header as sent (or the media type), Fastify 5 the normalized header', async () => {
  const parsedBy = async (factory: Factory, re: RegExp, header: string): Promise<number> => {
    const app = factory()
    app.removeAllContentTypeParsers()
    app.addContentTypeParser(re, { parseAs: 'string' }, (_req: any, _body: string, done: any) => done(null, 'parsed'))
    app.post('/', async (req: any) => req.body)
    return (await app.inject({ method: 'POST', url: '/', headers: { 'content-type': header }, payload: '' })).statusCode
  }
  const header = 'Application/JSON; Charset=utf8'
  assert.equal(await parsedBy(enclave, /application\/json; charset=utf8/i, header), 200)
  assert.equal(await parsedBy(enclave, /application\/json; charset="utf8"/, header), 415)
  assert.equal(await parsedBy(enclave, /^application\/json$/, header), 200)
  assert.equal(await parsedBy(enclave5, /application\/json; charset="utf8"/, header), 200)
  assert.equal(await parsedBy(enclave5, /application\/json; charset=utf8/, header), 415)
  // the whole normalized header, parameters included: an anchored media type does not match one with parameters
  assert.equal(await parsedBy(enclave5, /^application\/json$/, header), 415)
  assert.equal(await parsedBy(enclave5, /^application\/json$/, 'application/json'), 200)
})

test('headers Fastify 4 cannot parse (a space or nothing after the media type\'s `;`) have a media type at the Fastify 5 level', async () => {
  const statuses = []
  for (const [, factory] of levels) {
    const app = factory()
    const schema = { body: { type: 'object', properties: { foo: { type: 'string' } }, required: ['foo'] } }
    app.post('/', { schema }, async (req: any) => req.body)
    const row = []
    for (const type of ['application/json ;', 'ApPlIcAtIoN/JsOn;', 'application/json\t; charset=utf-8', 'application/json foo;', 'application/json; =x; charset="a;b"']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload: '{"bar":1}' })
      row.push(res.statusCode === 400 ? res.json().code : res.statusCode)
    }
    statuses.push(row)
  }
  assert.deepEqual(statuses, [
    [415, 415, 'FST_ERR_VALIDATION', 415, 415],
    // parsed and validated (the body lacks foo); a space inside the media type is still no media type
    ['FST_ERR_VALIDATION', 'FST_ERR_VALIDATION', 'FST_ERR_VALIDATION', 415, 'FST_ERR_VALIDATION']
  ])
})

test('the Fastify 5 level matches parameters read leniently: quoted values, case-insensitive names', async () => {
  const app = enclave5()
  app.addContentTypeParser('text/x-list; sep=";"', { parseAs: 'string' }, (_req: any, body: string, done: any) => done(null, body.split(';')))
  app.post('/', async (req: any) => req.body)
  const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'Text/X-List ; SEP=";" ; junk' }, payload: 'a;b' })
  assert.deepEqual(res.json(), ['a', 'b'])
})

test('a Content-Type with no media type: the catch-all or the not-found handler takes it at the Fastify 4 level, 415 at the Fastify 5 level', async () => {
  const answers = []
  for (const [, factory] of levels) {
    const app = factory()
    app.register(async (scoped: any) => {
      scoped.addContentTypeParser('*', (_req: any, _payload: unknown, done: any) => done(null, 'caught'))
      scoped.post('/all', async (req: any) => req.body)
    })
    const row = []
    for (const url of ['/all', '/missing']) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'undefined' }, payload: 'x' })
      row.push(res.statusCode === 200 ? res.body : res.statusCode)
    }
    answers.push(row)
  }
  assert.deepEqual(answers, [['caught', 404], [415, 415]])
  // a media type no parser names still goes to the catch-all, or to the not-found handler without a body
  const app5 = enclave5()
  app5.addContentTypeParser('*', (_req: any, _payload: unknown, done: any) => done(null, 'caught'))
  app5.post('/all', async (req: any) => req.body)
  for (const [url, expected] of [['/all', 200], ['/missing', 404]] as const) {
    const res = await app5.inject({ method: 'POST', url, headers: { 'content-type': 'application/jsoff' }, payload: 'x' })
    assert.equal(res.statusCode, expected, url)
  }
})

test('a body the JSON parser cannot parse: Fastify 4 level answers the SyntaxError\'s message, Fastify 5 level FST_ERR_CTP_INVALID_JSON_BODY', async () => {
  const answers = []
  for (const [, factory] of levels) {
    const app = factory()
    app.post('/', async (request: any) => request.body)
    // the parser getDefaultJsonParser() returns follows the level too
    app.register(async (child: any) => {
      child.addContentTypeParser('application/json', { parseAs: 'buffer' }, child.getDefaultJsonParser('error', 'ignore'))
      child.delete('/buffered', async (request: any) => request.body)
    })
    for (const [method, url] of [['POST', '/'], ['DELETE', '/buffered']]) {
      const res = await app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: ']' })
      answers.push([res.statusCode, res.json().code, res.json().message])
    }
  }
  const syntaxError = (() => { try { JSON.parse(']'); return '' } catch (err) { return (err as Error).message } })()
  const coded = [400, 'FST_ERR_CTP_INVALID_JSON_BODY', "Body is not valid JSON but content-type is set to 'application/json'"]
  assert.deepEqual(answers, [[400, undefined, syntaxError], [400, undefined, syntaxError], coded, coded])
})

test('a body whose Content-Type fetch sends as "undefined" is a 415 for PUT, PATCH and OPTIONS, through a custom error handler', async () => {
  for (const [name, factory] of levels) {
    const app = factory()
    const seen: string[] = []
    app.setErrorHandler((err: any, req: any, reply: any) => {
      seen.push(`${req.method} ${err.code}`)
      reply.code(err.statusCode).type('application/json; charset=utf-8').send(err)
    })
    for (const method of ['put', 'patch', 'options']) app[method]('/echo', async (req: any) => ({ got: req.body ?? null }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const answers = []
    for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
      // an undefined header value goes out as the text "undefined", which names no media type
      const res = await fetch(`http://127.0.0.1:${app.server.address().port}/echo`, { method, body: 'hello world', headers: { 'Content-Type': undefined as unknown as string } })
      answers.push([res.status, (await res.json()).code])
    }
    await app.close()
    assert.deepEqual(answers, Array(3).fill([415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE']), name)
    assert.deepEqual(seen, ['PUT', 'PATCH', 'OPTIONS'].map((m) => `${m} FST_ERR_CTP_INVALID_MEDIA_TYPE`), name)
  }
})
