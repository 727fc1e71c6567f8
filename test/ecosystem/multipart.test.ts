import { test } from 'node:test'
import assert from 'node:assert/strict'
import multipart from '@fastify/multipart'
import enclave from '../../src/index'

const boundary = '----EnclaveBoundary7MA4YWxkTrZu0gW'

interface Part { name: string, value: string | Buffer, filename?: string, contentType?: string }

function multipartBody (parts: Part[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`
    if (part.filename !== undefined) head += `; filename="${part.filename}"`
    head += '\r\n'
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`
    chunks.push(Buffer.from(head + '\r\n'), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` }
const fileContent = Buffer.concat([Buffer.from('binary\x00data\r\n--not-a-boundary\r\n'), Buffer.alloc(64 * 1024, 7)])

test('multipart: a file is streamed to the handler with its fields (request.file)', async () => {
  const app: any = enclave()
  app.register(multipart)
  app.post('/upload', async (request: any) => {
    assert.equal(request.isMultipart(), true)
    const data = await request.file()
    let size = 0
    const chunks: Buffer[] = []
    for await (const chunk of data.file) {
      size += chunk.length
      chunks.push(chunk)
    }
    return {
      fieldname: data.fieldname,
      filename: data.filename,
      mimetype: data.mimetype,
      encoding: data.encoding,
      size,
      same: Buffer.concat(chunks).equals(fileContent),
      title: data.fields.title.value
    }
  })
  const res = await app.inject({
    method: 'POST',
    url: '/upload',
    headers,
    payload: multipartBody([
      { name: 'title', value: 'my upload' },
      { name: 'upload', value: fileContent, filename: 'data.bin', contentType: 'application/octet-stream' }
    ])
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), {
    fieldname: 'upload', filename: 'data.bin', mimetype: 'application/octet-stream', encoding: '7bit', size: fileContent.length, same: true, title: 'my upload'
  })
  await app.close()
})

test('multipart: request.parts() iterates fields and files in order', async () => {
  const app: any = enclave()
  app.register(multipart)
  app.post('/parts', async (request: any) => {
    const seen: any[] = []
    for await (const part of request.parts()) {
      if (part.type === 'file') seen.push({ file: part.filename, content: (await part.toBuffer()).toString() })
      else seen.push({ field: part.fieldname, value: part.value })
    }
    return seen
  })
  const res = await app.inject({
    method: 'POST',
    url: '/parts',
    headers,
    payload: multipartBody([
      { name: 'a', value: '1' },
      { name: 'doc', value: 'first file', filename: 'one.txt', contentType: 'text/plain' },
      { name: 'b', value: '2' },
      { name: 'doc', value: 'second file', filename: 'two.txt', contentType: 'text/plain' }
    ])
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), [
    { field: 'a', value: '1' },
    { file: 'one.txt', content: 'first file' },
    { field: 'b', value: '2' },
    { file: 'two.txt', content: 'second file' }
  ])
  await app.close()
})

test('multipart: attachFieldsToBody validates the fields against the body schema', async () => {
  const app: any = enclave()
  app.register(multipart, { attachFieldsToBody: 'keyValues' })
  app.post('/profile', {
    schema: {
      consumes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: ['name', 'avatar'],
        properties: { name: { type: 'string', minLength: 2 }, avatar: { type: 'object' } }
      }
    }
  }, async (request: any) => ({ name: request.body.name, avatar: request.body.avatar.toString(), isBuffer: Buffer.isBuffer(request.body.avatar) }))
  const ok = await app.inject({
    method: 'POST',
    url: '/profile',
    headers,
    payload: multipartBody([
      { name: 'name', value: 'Ada' },
      { name: 'avatar', value: 'PNGDATA', filename: 'a.txt', contentType: 'text/plain' }
    ])
  })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { name: 'Ada', avatar: 'PNGDATA', isBuffer: true })
  const bad = await app.inject({ method: 'POST', url: '/profile', headers, payload: multipartBody([
    { name: 'name', value: 'A' },
    { name: 'avatar', value: 'PNGDATA', filename: 'a.txt', contentType: 'text/plain' }
  ]) })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/name must NOT have fewer than 2 characters' })
  await app.close()
})

test('multipart: limits.fileSize answers 413 when the file is too large', async () => {
  const app: any = enclave()
  app.register(multipart, { limits: { fileSize: 1024 } })
  app.post('/upload', async (request: any) => {
    const data = await request.file()
    await data.toBuffer()
    return { ok: true }
  })
  const res = await app.inject({
    method: 'POST',
    url: '/upload',
    headers,
    payload: multipartBody([{ name: 'upload', value: fileContent, filename: 'big.bin', contentType: 'application/octet-stream' }])
  })
  assert.equal(res.statusCode, 413)
  assert.deepEqual(res.json(), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE', error: 'Payload Too Large', message: 'request file too large' })
  await app.close()
})

test('multipart: a non-multipart request to request.file() is rejected with 406', async () => {
  const app: any = enclave()
  app.register(multipart)
  app.post('/upload', async (request: any) => {
    await request.file()
    return { ok: true }
  })
  const res = await app.inject({ method: 'POST', url: '/upload', payload: { not: 'multipart' } })
  assert.equal(res.statusCode, 406)
  assert.equal(res.json().code, 'FST_INVALID_MULTIPART_CONTENT_TYPE')
  await app.close()
})

test('multipart: a chunked upload over a real socket reaches the handler as a stream', async () => {
  const app: any = enclave()
  app.register(multipart)
  app.post('/upload', async (request: any) => {
    const data = await request.file()
    const buffer = await data.toBuffer()
    return { filename: data.filename, size: buffer.length, same: buffer.equals(fileContent) }
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const body = multipartBody([{ name: 'upload', value: fileContent, filename: 'stream.bin', contentType: 'application/octet-stream' }])
    const stream = new ReadableStream({
      start (controller) {
        for (let i = 0; i < body.length; i += 4096) controller.enqueue(body.subarray(i, i + 4096))
        controller.close()
      }
    })
    const res = await fetch(`${address}/upload`, { method: 'POST', headers, body: stream, duplex: 'half' } as any)
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), { filename: 'stream.bin', size: fileContent.length, same: true })
  } finally {
    await app.close()
  }
})

test('multipart: saveRequestFiles writes uploads to temporary files, removed after the response', async () => {
  const fs = await import('node:fs')
  const app: any = enclave()
  app.register(multipart)
  let savedPath = ''
  app.post('/save', async (request: any) => {
    const files = await request.saveRequestFiles()
    savedPath = files[0].filepath
    return { count: files.length, content: fs.readFileSync(savedPath, 'utf8'), field: files[0].fields.note.value }
  })
  const res = await app.inject({
    method: 'POST',
    url: '/save',
    headers,
    payload: multipartBody([{ name: 'note', value: 'n' }, { name: 'doc', value: 'saved content', filename: 'doc.txt', contentType: 'text/plain' }])
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { count: 1, content: 'saved content', field: 'n' })
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(fs.existsSync(savedPath), false)
  await app.close()
})

test('multipart: without limits.fileSize, the server bodyLimit (initialConfig.bodyLimit) caps file size', async () => {
  const app: any = enclave({ bodyLimit: 2048 })
  assert.equal(app.initialConfig.bodyLimit, 2048)
  app.register(multipart)
  app.post('/upload', async (request: any) => {
    const data = await request.file()
    return { size: (await data.toBuffer()).length }
  })
  const small = await app.inject({ method: 'POST', url: '/upload', headers, payload: multipartBody([{ name: 'f', value: 'x'.repeat(1000), filename: 'a.txt' }]) })
  assert.equal(small.statusCode, 200)
  assert.deepEqual(small.json(), { size: 1000 })
  const big = await app.inject({ method: 'POST', url: '/upload', headers, payload: multipartBody([{ name: 'f', value: fileContent, filename: 'b.bin' }]) })
  assert.equal(big.statusCode, 413)
  assert.equal(big.json().code, 'FST_REQ_FILE_TOO_LARGE')
  await app.close()
})
