/**
 * The pack's V8 code caches: V8 accepts one only in a process of the same V8 version and flags, so a pack keeps one
 * per flag set. Processes started with other flags are real child processes here, since a process's flags are fixed
 * when it starts. The flag sets are `--stack-size` values, which change V8's tag on every Node line tested
 * (`--max-old-space-size`, as services often use, changes it on Node 20 and 22, not on 24).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import v8 from 'node:v8'
import { crc32InJavaScript } from '../../src/core/crc32'
import { encodePack, readPack, thisRuntime } from '../../src/schema/compile-cache-pack'
import { packFingerprint } from '../../src/schema/compile-cache-fingerprint'
import { enclave, temporaryDir } from '../helpers'

const factory = path.resolve(__dirname, '..', '..', 'src', 'index.ts')

/** Starts an application of one schema route from `dir`'s cache, readies it and closes it (which waits for a write). */
const appScript = `import enclave from ${JSON.stringify(factory)}
const [dir, maxLength] = process.argv.slice(2)
const app = enclave({ compileCache: { dir } })
app.post('/', { schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength: Number(maxLength) } } } } }, async () => 'ok')
await app.ready()
await app.close()
`

function setUp (t: { after: (fn: () => void) => void }): { dir: string, start: (flags: string[], maxLength?: number) => void } {
  const root = temporaryDir(t)
  const script = path.join(root, 'start.mts')
  writeFileSync(script, appScript)
  const dir = path.join(root, 'cache')
  return {
    dir,
    start (flags, maxLength = 8) {
      const run = spawnSync(process.execPath, [...flags, '--import', 'tsx', script, dir, String(maxLength)], { encoding: 'utf8' })
      assert.equal(run.status, 0, run.stderr)
    }
  }
}

function pack (dir: string): { file: string, bytes: Buffer, tags: number[], codeCaches: Array<[number, number, number, string]> } {
  const [name] = readdirSync(dir).filter((file) => file.endsWith('.pack'))
  const file = path.join(dir, name)
  const bytes = readFileSync(file)
  const header = JSON.parse(bytes.toString('utf8', 0, bytes.indexOf(0x0a)))
  return { file, bytes, tags: header.codeCaches.map(([tag]: [number]) => tag), codeCaches: header.codeCaches }
}

/** An application of one schema route from `dir`'s cache, in this process: readied and closed (a write awaited). */
async function startHere (dir: string, maxLength: number): Promise<void> {
  const app = enclave({ compileCache: { dir } })
  app.post('/', { schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength } } } } }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/', payload: { name: 'x'.repeat(maxLength + 1) } })
  assert.equal(res.statusCode, 400)
  await app.close()
}

/** The V8 version tag of a process started with `flags`. */
function tagUnder (flags: string[]): number {
  const run = spawnSync(process.execPath, [...flags, '-p', 'require("node:v8").cachedDataVersionTag()'], { encoding: 'utf8' })
  return Number(run.stdout)
}

test('a pack keeps a V8 code cache per flag set, so that processes of other flags stop rewriting it', (t) => {
  const { dir, start } = setUp(t)
  const plain: string[] = []
  const large = ['--stack-size=960']
  start(plain)
  assert.deepEqual(pack(dir).tags, [tagUnder(plain)])
  // a start under other flags finds no code cache of its own: it compiles from source, then adds its own
  start(large)
  const both = pack(dir)
  assert.deepEqual(both.tags, [tagUnder(large), tagUnder(plain)])
  // from then on, starts of either flag set use their code cache: nothing to write
  start(plain)
  start(large)
  assert.deepEqual(pack(dir).bytes, both.bytes)
})

test('a pack holds the code caches of four flag sets at most, the latest written first', (t) => {
  const { dir, start } = setUp(t)
  const flagSets = [961, 962, 963, 964, 965].map((size) => [`--stack-size=${size}`])
  for (const flags of flagSets) start(flags)
  assert.deepEqual(pack(dir).tags, flagSets.slice(1).reverse().map(tagUnder))
})

test('new code drops the code caches made for the old code', async (t) => {
  const { dir, start } = setUp(t)
  start(['--stack-size=960'])
  start([])
  assert.equal(pack(dir).tags.length, 2)
  // this process's start with another schema: another source, of which only its own code cache is known
  await startHere(dir, 9)
  assert.deepEqual(pack(dir).tags, [v8.cachedDataVersionTag()])
})

test('a damaged code cache is never given to V8: the code compiles from source and the pack gets a good one', async (t) => {
  const { dir } = setUp(t)
  await startHere(dir, 5)
  const { file, bytes, codeCaches: [[, length]] } = pack(dir)
  // a flipped byte inside the code cache (the last part of the file): lengths and the code's own checksum still agree
  const damaged = Buffer.from(bytes)
  damaged[bytes.length - Math.floor(length / 2)] ^= 0xff
  writeFileSync(file, damaged)
  await startHere(dir, 5)
  const rewritten = pack(dir)
  assert.notDeepEqual(rewritten.bytes, damaged)
  const [[tag, newLength, checksum]] = rewritten.codeCaches
  assert.equal(tag, v8.cachedDataVersionTag())
  assert.equal(crc32InJavaScript(rewritten.bytes.subarray(rewritten.bytes.length - newLength)), checksum)
})

test('a code cache made by another Node is never handed to V8, even under the same tag: the code compiles from source', async (t) => {
  const { dir } = setUp(t)
  await startHere(dir, 6)
  const { file, codeCaches: [[, , , runtime]] } = pack(dir)
  assert.equal(runtime, `node ${process.version} v8 ${process.versions.v8} ${process.arch}`)
  // the same pack as another Node would have written it with a tag equal to this process's
  const written = readPack(file, packFingerprint())
  assert.ok(written !== null)
  written.codeCaches[0].runtime = 'node v0.0.1 v8 1.0 x64'
  writeFileSync(file, encodePack(packFingerprint(), written))
  await startHere(dir, 6)
  // the start found no code cache of its own, so it wrote one, first, and kept the other runtime's after it
  assert.deepEqual(pack(dir).codeCaches.map(([, , , made]) => made), [runtime, 'node v0.0.1 v8 1.0 x64'])
})

test('a pack reads back whole however long its header, and a start reads only its own code cache', (t) => {
  const dir = temporaryDir(t)
  const file = path.join(dir, 'large.pack')
  // 5,000 entries make a header of more than 64 kB, longer than the first read of a pack
  const codes = Array.from({ length: 5000 }, (_, i) => `function () { return ${i} }`)
  const index: Array<[string, number, number]> = []
  let source = '(['
  for (const [i, code] of codes.entries()) {
    index.push([`validator baseline {"maxLength":${i}}`, source.length, source.length + code.length])
    source += code + ','
  }
  source += '])'
  const cache = (seed: number): Buffer => Buffer.from(Array.from({ length: 4099 }, (_, i) => (i * seed) & 0xff))
  const own = { tag: v8.cachedDataVersionTag(), runtime: thisRuntime, data: cache(7), checksum: crc32InJavaScript(cache(7)) }
  const other = { tag: own.tag + 1, runtime: thisRuntime, data: cache(13), checksum: crc32InJavaScript(cache(13)) }
  const bytes = encodePack(packFingerprint(), { source, index, codeCaches: [other, own] })
  writeFileSync(file, bytes)
  assert.ok(bytes.indexOf(0x0a) > 64 * 1024)

  assert.deepEqual(readPack(file, packFingerprint()), { source, index, codeCaches: [other, own] })
  assert.deepEqual(readPack(file, packFingerprint(), 'own'), { source, index, codeCaches: [own] })
  // a truncated pack, or one of another fingerprint, reads as none
  writeFileSync(file, bytes.subarray(0, bytes.length - 1))
  assert.equal(readPack(file, packFingerprint(), 'own'), null)
  writeFileSync(file, bytes)
  assert.equal(readPack(file, 'another fingerprint', 'own'), null)
  assert.equal(readPack(path.join(dir, 'absent.pack'), packFingerprint()), null)
})
