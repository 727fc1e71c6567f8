/**
 * What a warm start loads. Loading code is most of a warm start, so the compile cache is worth only as much as the
 * modules it spares: with every validator and serializer in the pack, neither Ajv, nor fast-json-stringify's schema
 * check, nor ajv-formats (for schemas with no format) is required. Module loading is per process, so each start is a
 * child process; it prints the answers it got and which of those modules it loaded.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { temporaryDir } from '../helpers'

const factory = path.resolve(__dirname, '..', '..', 'src', 'index.ts')

const watched = {
  ajv: 'ajv/dist/ajv.js',
  formats: 'ajv-formats/dist/formats.js',
  schemaCheck: 'fast-json-stringify/lib/schema-validator.js',
  equal: 'ajv/dist/runtime/equal.js',
  ucs2length: 'ajv/dist/runtime/ucs2length.js'
}

const script = `import { createRequire } from 'node:module'
const { default: enclave } = await import(${JSON.stringify(factory)})
const [dir, withFormat] = process.argv.slice(2)
const app = enclave({ compileCache: { dir } })
const body = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 8 }, ...(withFormat === 'yes' ? { mail: { type: 'string', format: 'email' } } : {}) } }
const reply = { type: 'object', properties: { name: { type: 'string' } } }
app.post('/users', { schema: { body, response: { 200: reply } } }, async (request) => ({ ...request.body, secret: 'x' }))
await app.ready()
const answers = []
for (const payload of [{ name: 'ada', mail: 'ada@example.com' }, { name: 'far too long a name' }, { name: 'bob', mail: 'not a mail' }]) {
  const res = await app.inject({ method: 'POST', url: '/users', payload })
  answers.push([res.statusCode, res.json()])
}
await app.close()
const cache = Object.keys(createRequire(import.meta.url).cache)
const watched = ${JSON.stringify(watched)}
const loaded = Object.keys(watched).filter((name) => cache.some((file) => file.endsWith('node_modules/' + watched[name])))
console.log(JSON.stringify({ answers, loaded }))
`

function start (file: string, dir: string, withFormat: boolean): { answers: unknown[], loaded: string[] } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', file, dir, withFormat ? 'yes' : 'no'], { encoding: 'utf8', timeout: 30000 })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.stdout)
}

const tooLong = [400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/name must NOT have more than 8 characters' }]

test('a warm start with every schema in the pack loads neither Ajv, nor ajv-formats, nor the serializer\'s schema check', (t) => {
  const dir = temporaryDir(t)
  const file = path.join(temporaryDir(t), 'start.mts')
  writeFileSync(file, script)
  const cold = start(file, dir, false)
  const warm = start(file, dir, false)
  const answers = [[200, { name: 'ada' }], tooLong, [200, { name: 'bob' }]]
  assert.deepEqual(cold.answers, answers)
  assert.deepEqual(warm.answers, answers)
  // the cold start checked its schemas with Ajv and fast-json-stringify
  assert.deepEqual(cold.loaded.filter((name) => name === 'ajv' || name === 'schemaCheck'), ['ajv', 'schemaCheck'])
  // the warm one only loads the helper its validator calls (maxLength counts characters as Ajv does)
  assert.deepEqual(warm.loaded, ['ucs2length'])
})

test('a warm start whose schemas use a format loads ajv-formats, and validates the format', (t) => {
  const dir = temporaryDir(t)
  const file = path.join(temporaryDir(t), 'start.mts')
  writeFileSync(file, script)
  start(file, dir, true)
  const warm = start(file, dir, true)
  assert.deepEqual(warm.answers, [[200, { name: 'ada' }], tooLong,
    [400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/mail must match format "email"' }]])
  assert.deepEqual(warm.loaded, ['formats', 'ucs2length'])
})
