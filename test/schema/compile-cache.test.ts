/**
 * The compile cache (`compileCache: { dir }`): generated validators and serializers kept between starts. A warm start
 * loads them; a changed schema or a pack of another fingerprint is never used; a corrupt or foreign file is ignored
 * and replaced; writes are atomic and never take the application down.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import v8 from 'node:v8'
import { CompileCache } from '../../src/schema/compile-cache'
import { readPack } from '../../src/schema/compile-cache-pack'
import { packFingerprint } from '../../src/schema/compile-cache-fingerprint'
import { ajvConfigurationKey } from '../../src/schema/validation/ajv-standalone'
import { configurationKey, moduleEntryBody, moduleEntryParams, runModuleEntry } from '../../src/schema/cached-module'
import { precompile } from '../../src/app/precompile'
import { enclave, temporaryDir } from '../helpers'

const body = (maxLength: number): Record<string, unknown> => ({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength }, age: { type: 'integer', default: 1 } }
})
const response = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } }

/** An application whose one route validates `body(maxLength)` and serializes through `response`. */
function app (dir: string, maxLength = 3): any {
  const instance = enclave({ compileCache: { dir } })
  instance.post('/users', { schema: { body: body(maxLength), response: { 200: response } } }, async (request: any) => ({ ...request.body, secret: 1 }))
  return instance
}

function packFile (dir: string): string {
  const packs = readdirSync(dir).filter((name) => name.endsWith('.pack'))
  assert.equal(packs.length, 1, `packs in ${dir}: ${packs.join(', ')}`)
  return path.join(dir, packs[0])
}

function header (dir: string): Record<string, any> {
  const data = readFileSync(packFile(dir))
  return JSON.parse(data.toString('utf8', 0, data.indexOf(0x0a)))
}

/** The keys of the entries in `dir`'s pack. */
function packKeys (dir: string): string[] {
  const pack = readPack(packFile(dir), packFingerprint())
  assert.ok(pack !== null, 'the pack is whole')
  return pack.index.map(([key]) => key)
}

const validatorKey = (maxLength: number): string => CompileCache.key('validator', 'baseline', JSON.stringify(body(maxLength)))

type Answers = Array<[number, string]>

/** What `ask` gets from a fresh application of `build`, closed afterwards (a pack is written by then). */
async function answersOf (build: () => any, ask: (instance: any) => Promise<Answers>): Promise<Answers> {
  const instance = build()
  const results = await ask(instance)
  await instance.close()
  return results
}

/** A later start from the same directory: its answers, with the pack left as it was (nothing new to write). */
async function warmAnswers (dir: string, build: () => any, ask: (instance: any) => Promise<Answers>): Promise<Answers> {
  const written = readFileSync(packFile(dir))
  const results = await answersOf(build, ask)
  assert.deepEqual(readFileSync(packFile(dir)), written)
  return results
}

async function answers (instance: any): Promise<Answers> {
  const results: Answers = []
  for (const payload of [{ name: 'ann' }, { name: 'toolong' }, { name: 'bo', age: '7' }]) {
    const res = await instance.inject({ method: 'POST', url: '/users', payload })
    results.push([res.statusCode, res.payload])
  }
  return results
}

describe('compile cache', () => {
  test('a first start writes the pack once ready; a second start answers the same from it', async (t) => {
    const dir = temporaryDir(t)
    const expected = await answersOf(() => app(dir), answers)
    assert.deepEqual(expected, [
      [200, '{"name":"ann","age":1}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/name must NOT have more than 3 characters"}'],
      [200, '{"name":"bo","age":7}']
    ])
    assert.deepEqual(packKeys(dir).sort(), [
      CompileCache.key('serializer', 'trunc', JSON.stringify(response)), validatorKey(3)
    ].sort())

    const cache = new CompileCache(dir)
    assert.equal(typeof cache.get(validatorKey(3)), 'function')
    assert.deepEqual(await warmAnswers(dir, () => app(dir), answers), expected)
  })

  test('schemas with text beyond ASCII are found in the pack by a warm start, which answers as the first did', async (t) => {
    const dir = temporaryDir(t)
    // a property name of two-byte UTF-8, a pattern with a character outside the BMP (a surrogate pair in JavaScript)
    const bodySchema = { type: 'object', required: ['café'], properties: { café: { type: 'string', maxLength: 4 }, mood: { type: 'string', pattern: '^🙂+$' } } }
    const responseSchema = { type: 'object', properties: { café: { type: 'string' }, mood: { type: 'string' } } }
    const build = (): any => {
      const instance = enclave({ compileCache: { dir } })
      instance.post('/order', { schema: { body: bodySchema, response: { 200: responseSchema } } }, async (request: any) => ({ ...request.body, secret: 1 }))
      return instance
    }
    const ask = async (instance: any): Promise<Answers> => {
      const results: Answers = []
      for (const payload of [{ café: 'noir', mood: '🙂🙂' }, { café: 'crème', mood: '🙂' }, { café: 'lait', mood: 'meh' }]) {
        const res = await instance.inject({ method: 'POST', url: '/order', payload })
        results.push([res.statusCode, res.payload])
      }
      return results
    }
    const first = await answersOf(build, ask)
    assert.deepEqual(first, [
      [200, '{"café":"noir","mood":"🙂🙂"}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/café must NOT have more than 4 characters"}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/mood must match pattern \\"^🙂+$\\""}']
    ])
    assert.ok(packKeys(dir).includes(CompileCache.key('validator', 'baseline', JSON.stringify(bodySchema))))
    // the warm start's keys match the pack's (a pack rewritten with new entries would fail warmAnswers)
    assert.deepEqual(await warmAnswers(dir, build, ask), first)
  })

  test('a validator from the pack has its schema, and reports an enum\'s allowed values, as a first start does', async (t) => {
    const dir = temporaryDir(t)
    const plain = { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } }
    const withEnum = { type: 'object', properties: { kind: { type: 'string', enum: ['a', 'b'] } } }
    const build = (): any => {
      const instance = enclave({ compileCache: { dir } })
      for (const [url, body] of [['/plain', plain], ['/enum', withEnum]] as const) {
        instance.post(url, { schema: { body }, attachValidation: true }, async (request: any) => {
          const validate = request.getValidationFunction('body')
          return { schema: validate.schema, validation: request.validationError?.validation ?? null }
        })
      }
      return instance
    }
    const ask = async (instance: any): Promise<Answers> => {
      const results: Answers = []
      for (const [url, payload] of [['/plain', { name: 'toolong' }], ['/enum', { kind: 'c' }], ['/enum', { kind: 'a' }]] as const) {
        const res = await instance.inject({ method: 'POST', url, payload })
        results.push([res.statusCode, res.payload])
      }
      return results
    }
    const first = await answersOf(build, ask)
    assert.deepEqual(first.map(([status, payload]) => [status, JSON.parse(payload)]), [
      [200, { schema: plain, validation: [{ instancePath: '/name', schemaPath: '#/properties/name/maxLength', keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' }] }],
      [200, { schema: withEnum, validation: [{ instancePath: '/kind', schemaPath: '#/properties/kind/enum', keyword: 'enum', params: { allowedValues: ['a', 'b'] }, message: 'must be equal to one of the allowed values' }] }],
      [200, { schema: withEnum, validation: null }]
    ])
    assert.deepEqual(await warmAnswers(dir, build, ask), first)
  })

  test('a changed schema never uses the old entry; the pack then holds what the application uses', async (t) => {
    const dir = temporaryDir(t)
    await app(dir, 3).ready().then((instance: any) => instance.close())
    const changed = app(dir, 10)
    const res = await changed.inject({ method: 'POST', url: '/users', payload: { name: 'toolong' } })
    assert.deepEqual([res.statusCode, res.payload], [200, '{"name":"toolong","age":1}'])
    await changed.close()
    const keys = packKeys(dir)
    assert.ok(keys.includes(validatorKey(10)))
    assert.ok(!keys.includes(validatorKey(3)))
  })

  test('a corrupt, truncated or foreign pack is ignored, and replaced by a good one', async (t) => {
    const dir = temporaryDir(t)
    const first = app(dir)
    const expected = await answers(first)
    await first.close()
    const file = packFile(dir)
    const good = readFileSync(file)
    const sourceStart = good.indexOf(0x0a) + 1
    const flipped = Buffer.from(good)
    // a limit in the code changed on disk ("3" → "9"): the checksum no longer matches
    const limit = flipped.indexOf('> 3', sourceStart)
    flipped[limit + 2] = 0x39
    // a key changed on disk (the keys are raw text after the header): the checksum covers them too
    const otherKey = Buffer.from(good)
    otherKey[otherKey.indexOf('"maxLength":3', sourceStart) + '"maxLength":'.length] = 0x39
    // an offset of the header's index changed in place (a digit of an entry's code start): the checksum covers it
    const otherOffset = Buffer.from(good)
    const digit = otherOffset.indexOf(',', otherOffset.indexOf(',', otherOffset.indexOf('"index":[')) + 1) - 1
    otherOffset[digit] = otherOffset[digit] === 0x30 ? 0x31 : 0x30
    const foreignHeader = { ...header(dir), fingerprint: 'another version' }
    const foreign = Buffer.concat([Buffer.from(JSON.stringify(foreignHeader) + '\n'), good.subarray(sourceStart)])
    for (const damaged of [flipped, otherKey, otherOffset, good.subarray(0, good.length - 10), Buffer.from('not a pack at all'), foreign]) {
      writeFileSync(file, damaged)
      const instance = app(dir)
      assert.deepEqual(await answers(instance), expected)
      await instance.close()
      assert.equal(header(dir).fingerprint, packFingerprint())
      assert.notDeepEqual(readFileSync(file), damaged)
      assert.equal(typeof new CompileCache(dir).get(validatorKey(3)), 'function')
    }
  })

  test('files that are not packs are left alone, and writes leave no temporary file', async (t) => {
    const dir = temporaryDir(t)
    writeFileSync(path.join(dir, 'notes.txt'), 'mine')
    await app(dir).ready().then((instance: any) => instance.close())
    assert.deepEqual(readdirSync(dir).filter((name) => !name.endsWith('.pack')), ['notes.txt'])
    assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'mine')
  })

  test('two writers of one pack leave a whole pack (each renames a complete file over it)', async (t) => {
    const dir = temporaryDir(t)
    await app(dir).ready().then((instance: any) => instance.close())
    const a = new CompileCache(dir)
    const b = new CompileCache(dir)
    a.get(validatorKey(3))
    b.put('someKey', 'rt, schema', 'return 1')
    a.put('otherKey', 'rt, schema', 'return 2')
    a.flush()
    b.flush()
    assert.deepEqual(packKeys(dir), ['someKey'])
    assert.equal(new CompileCache(dir).get('someKey')?.(undefined, undefined), 1)
  })

  test('a directory that cannot be written means no cache, not a failing application', async (t) => {
    const dir = temporaryDir(t)
    const file = path.join(dir, 'a-file')
    writeFileSync(file, 'x')
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => { warnings.push(warning) }
    process.on('warning', onWarning)
    t.after(() => process.off('warning', onWarning))
    const instance = app(path.join(file, 'cache'))
    assert.deepEqual((await answers(instance))[0], [200, '{"name":"ann","age":1}'])
    await instance.close()
    // the process is told, once: every later start pays what this one compiled
    await new Promise((resolve) => setImmediate(resolve))
    const ours = warnings.filter((warning) => (warning as Error & { code?: string }).code === 'ENCLAVE_COMPILE_CACHE_NOT_WRITTEN')
    assert.equal(ours.length, 1)
    assert.match(ours[0].message, /could not write .*a-file\/cache\/enclave-compile-cache-[0-9a-f]{16}\.pack \(ENOTDIR/)
    await assert.rejects(precompile(app(path.join(file, 'cache'))), { code: 'ENOTDIR' })
  })

  test('the option is checked when the application is created', () => {
    for (const compileCache of ['dir', { dir: '' }, { dir: 7 }, []]) {
      assert.throws(() => enclave({ compileCache }), { code: 'FST_ERR_INIT_OPTS_INVALID' }, JSON.stringify(compileCache))
    }
  })
})

/** A user schema shared by `$id` and a route that reaches it by `$ref`: outside Enclave's generator, so Ajv's. */
const user = (maxLength: number): Record<string, unknown> => ({
  $id: 'user', type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength }, age: { type: 'integer', default: 1 } }
})
const byRef = { type: 'object', required: ['user'], properties: { user: { $ref: 'user#' }, limit: { type: 'integer' } } }
/** Outside Enclave's serializer generator too: fast-json-stringify's, with a `$ref` and an `anyOf` it checks with Ajv. */
const replyByRef = {
  type: 'object',
  properties: { user: { $ref: 'user#' }, limit: { anyOf: [{ type: 'integer' }, { type: 'string' }] } }
}

function refApp (dir: string, maxLength = 3, ajv?: unknown): any {
  const instance = enclave({ compileCache: { dir }, ...(ajv === undefined ? {} : { ajv }) })
  instance.addSchema(user(maxLength))
  instance.post('/users', { schema: { body: byRef, response: { 200: replyByRef } } },
    async (request: any) => ({ ...request.body, limit: request.body.limit ?? 'none', secret: 1 }))
  return instance
}

async function refAnswers (instance: any): Promise<Answers> {
  const results: Answers = []
  const payloads = [{ user: { name: 'ann' } }, { user: { name: 'toolong' } }, { user: { name: 'bo' }, limit: '7' }, { user: { name: 'bo' }, limit: 'Infinity' }, {}]
  for (const payload of payloads) {
    const res = await instance.inject({ method: 'POST', url: '/users', payload })
    results.push([res.statusCode, res.payload])
  }
  return results
}

const ajvValidatorKey = (maxLength: number): string => CompileCache.key('ajv-validator',
  ajvConfigurationKey({ customOptions: {}, plugins: [] }, { user: user(maxLength) }) as string, JSON.stringify(byRef))

const serializerKey = (maxLength: number): string => CompileCache.key('fjs-serializer',
  configurationKey(undefined, { user: user(maxLength) }) as string, JSON.stringify(replyByRef))

describe('compile cache: code compiled by Ajv and fast-json-stringify', () => {
  test('is kept as their standalone code and answers the same from the pack, Infinity coercion fix included', async (t) => {
    const dir = temporaryDir(t)
    const expected = await answersOf(() => refApp(dir), refAnswers)
    assert.deepEqual(expected, [
      [200, '{"user":{"name":"ann","age":1},"limit":"none"}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/user/name must NOT have more than 3 characters"}'],
      [200, '{"user":{"name":"bo","age":1},"limit":7}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/limit must be integer"}'],
      [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body must have required property \'user\'"}']
    ])
    assert.ok(packKeys(dir).includes(ajvValidatorKey(3)))
    assert.equal(typeof new CompileCache(dir).get(ajvValidatorKey(3)), 'function')
    assert.equal(typeof new CompileCache(dir).get(serializerKey(3)), 'function')
    assert.deepEqual(await warmAnswers(dir, () => refApp(dir), refAnswers), expected)
  })

  test('a changed shared schema is another key: the old code is never used', async (t) => {
    const dir = temporaryDir(t)
    await refApp(dir, 3).ready().then((instance: any) => instance.close())
    const changed = refApp(dir, 10)
    const res = await changed.inject({ method: 'POST', url: '/users', payload: { user: { name: 'toolong' } } })
    assert.deepEqual([res.statusCode, res.payload], [200, '{"user":{"name":"toolong","age":1},"limit":"none"}'])
    await changed.close()
    const keys = packKeys(dir)
    assert.ok(keys.includes(ajvValidatorKey(10)) && keys.includes(serializerKey(10)))
    assert.ok(!keys.includes(ajvValidatorKey(3)) && !keys.includes(serializerKey(3)))
  })

  test('a warm start trusts shared schemas Ajv accepted before, and still fails ready() on a broken one', async (t) => {
    const dir = temporaryDir(t)
    await refApp(dir, 3).ready().then((instance: any) => instance.close())
    const sharedKey = CompileCache.key('ajv-shared-schemas',
      ajvConfigurationKey({ customOptions: {}, plugins: [] }, { user: user(3) }) as string, '')
    assert.equal(typeof new CompileCache(dir).get(sharedKey), 'function')

    const broken = enclave({ compileCache: { dir } })
    broken.addSchema({ ...user(3), properties: { name: { type: 'nope' } } })
    broken.post('/users', { schema: { body: byRef } }, async () => 'never')
    await assert.rejects(broken.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD', message: /schema is invalid: data\/properties\/name\/type/ })
  })

  test('Ajv plugins or options that are not plain JSON are not cached (the key could not see them)', async (t) => {
    const withPlugin = temporaryDir(t)
    const plugin = (ajv: any): void => { ajv.addKeyword('x-note') }
    const instance = refApp(withPlugin, 3, { plugins: [plugin] })
    assert.deepEqual((await refAnswers(instance))[1][0], 400)
    await instance.close()
    assert.deepEqual(packKeys(withPlugin), [serializerKey(3)])
    assert.equal(ajvConfigurationKey({ customOptions: { code: { process: (code: string) => code } } as any, plugins: [] }, {}), null)

    // ES module standalone code cannot run as an entry: such validators compile at each start, the rest is cached
    const esm = temporaryDir(t)
    const esmApp = refApp(esm, 3, { customOptions: { code: { esm: true } } })
    assert.deepEqual((await refAnswers(esmApp)).map(([status]) => status), [200, 400, 200, 400, 400])
    await esmApp.close()
    const esmKeys = packKeys(esm)
    assert.ok(esmKeys.includes(serializerKey(3)))
    assert.equal(esmKeys.length, 2) // the serializer and the record that Ajv accepted the shared schemas
    assert.equal(typeof ajvConfigurationKey({ customOptions: { allErrors: true, code: { optimize: true } } as any, plugins: [] }, {}), 'string')
    // a schema whose JSON says less than it holds (a Date among its examples) is not cached either
    const withDate = temporaryDir(t)
    const dated = enclave({ compileCache: { dir: withDate } })
    dated.addSchema(user(3))
    dated.post('/users', { schema: { body: { ...byRef, examples: [new Date(0)] } } }, async () => 'ok')
    const res = await dated.inject({ method: 'POST', url: '/users', payload: { user: { name: 'toolong' } } })
    assert.equal(res.statusCode, 400)
    await dated.close()
    assert.equal(packKeys(withDate).length, 1) // only the record that Ajv accepted the shared schemas
    // shared schemas whose JSON says less than they hold (a RegExp, a function) could not be told apart by their key
    assert.equal(configurationKey(undefined, { user: { ...user(3), pattern: /x/ } }), null)
    assert.equal(configurationKey(undefined, { user: { ...user(3), default: () => 1 } }), null)
  })
})

describe('compile cache: standalone module entries', () => {
  test('run as CommonJS modules whose require answers only the runtime modules allowed', () => {
    const entry = (code: string): any => new Function(moduleEntryParams, moduleEntryBody(code))
    const allowed = /^ajv\/dist\/runtime\/equal$/
    const equal = runModuleEntry(entry('"use strict";module.exports = require("ajv/dist/runtime/equal").default'), allowed) as any
    assert.equal(equal({ a: [1] }, { a: [1] }), true)
    assert.throws(() => runModuleEntry(entry('module.exports = require("node:child_process")'), allowed),
      /cached code requires "node:child_process", which the compile cache does not provide/)
  })
})

describe('compile cache: housekeeping', () => {
  const day = 24 * 60 * 60 * 1000
  /** Creates `name` in `dir`, last modified `ageMs` ago. */
  function fileAged (dir: string, name: string, ageMs: number): void {
    const file = path.join(dir, name)
    writeFileSync(file, 'old')
    const then = new Date(Date.now() - ageMs)
    utimesSync(file, then, then)
  }

  test('a write removes packs of other versions unused for a month and abandoned temporary files, nothing else', async (t) => {
    const dir = temporaryDir(t)
    const stale = 'enclave-compile-cache-00000000000000aa.pack'
    const abandoned = 'enclave-compile-cache-00000000000000aa.pack.4242.0123456789ab.tmp'
    fileAged(dir, stale, 31 * day)
    fileAged(dir, abandoned, 2 * 60 * 60 * 1000)
    const kept = [
      ['enclave-compile-cache-00000000000000bb.pack', 29 * day], // another version, used this month
      ['enclave-compile-cache-00000000000000cc.pack.4242.0123456789ab.tmp', 60 * 1000], // a write under way
      ['old-notes.pack', 400 * day], // not a name this cache writes
      ['enclave-compile-cache-notes.txt', 400 * day]
    ] as const
    for (const [name, age] of kept) fileAged(dir, name, age)
    const instance = app(dir)
    const result = await precompile(instance)
    await instance.close()
    assert.deepEqual(result.removed.sort(), [stale, abandoned].sort())
    assert.deepEqual(readdirSync(dir).sort(), [path.basename(result.file), ...kept.map(([name]) => name)].sort())
  })

  test('a start that loads its pack marks it used, so another version never prunes a pack in use', async (t) => {
    const dir = temporaryDir(t)
    await app(dir).ready().then((instance: any) => instance.close())
    const file = packFile(dir)
    const longAgo = new Date(Date.now() - 40 * day)
    utimesSync(file, longAgo, longAgo)
    // a warm start: answered from the pack, which it leaves byte for byte as it was
    assert.deepEqual((await warmAnswers(dir, () => app(dir), answers))[0], [200, '{"name":"ann","age":1}'])
    assert.ok(statSync(file).mtimeMs > Date.now() - day, 'the warm start refreshed the pack\'s modification time')
  })
})

describe('precompile', () => {
  test('writes every generated validator and serializer with V8\'s code cache', async (t) => {
    const dir = temporaryDir(t)
    const instance = app(dir)
    const result = await precompile(instance)
    const { codeCacheFor, ...written } = result
    assert.deepEqual(written, { file: packFile(dir), entries: 2, removed: [] })
    assert.ok(codeCacheFor.startsWith(`Node ${process.version} with `), codeCacheFor)
    const [[tag, length]] = header(dir).codeCaches
    assert.deepEqual([tag, length > 0], [v8.cachedDataVersionTag(), true])
    await instance.close()
  })

  test('needs an application created with compileCache', async () => {
    await assert.rejects(precompile(enclave()), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    await assert.rejects(precompile({} as any), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  })

  test('the enclave precompile command builds the cache from an entry module', (t) => {
    const dir = temporaryDir(t)
    const entry = path.join(dir, 'entry.mjs')
    const factory = path.resolve(__dirname, '..', '..', 'src', 'index.ts')
    writeFileSync(entry, `import enclave from ${JSON.stringify(factory)}
export default async function build () {
  const app = enclave({ compileCache: { dir: ${JSON.stringify(path.join(dir, 'cache'))} } })
  app.get('/', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => 'ok')
  return app
}
`)
    const bin = path.resolve(__dirname, '..', '..', 'src', 'bin', 'enclave.ts')
    const run = spawnSync(process.execPath, ['--import', 'tsx', bin, 'precompile', entry, '--json'], { encoding: 'utf8' })
    assert.equal(run.status, 0, run.stderr)
    const printed = JSON.parse(run.stdout)
    assert.deepEqual([printed.file, printed.entries], [packFile(path.join(dir, 'cache')), 1])
    const usage = spawnSync(process.execPath, ['--import', 'tsx', bin, 'build'], { encoding: 'utf8' })
    assert.equal(usage.status, 2)
    assert.match(usage.stderr, /Usage: enclave precompile <entry>/)
  })
})
