import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { temporaryDir } from './helpers'

// These run against the compiled package (`npm test` builds first), the way users load it.
const root = path.join(__dirname, '..')

test('require("enclave-http") returns the factory, with .default and a named enclave export', () => {
  const out = execFileSync(process.execPath, ['-e', `
    const enclave = require('enclave-http')
    const app = enclave()
    console.log(JSON.stringify([typeof enclave, enclave.default === enclave, enclave.enclave === enclave,
      typeof app.get, typeof enclave.errorCodes.FST_ERR_NOT_FOUND]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), ['function', true, true, 'function', 'function'])
})

test('import enclave from "enclave-http" works from ES modules and serves a request', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import enclave, { enclave as named, fastify } from 'enclave-http'
    const app = enclave()
    app.get('/', async () => ({ hello: 'world' }))
    const res = await app.inject({ url: '/' })
    console.log(JSON.stringify([named === enclave, fastify === enclave, res.statusCode, res.json()]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), [true, true, 200, { hello: 'world' }])
})

test('precompile is exported, and the package has the enclave command', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import enclave, { precompile } from 'enclave-http'
    import { readFileSync } from 'node:fs'
    const { bin } = JSON.parse(readFileSync('package.json', 'utf8'))
    console.log(JSON.stringify([typeof precompile, enclave.precompile === precompile, bin.enclave]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), ['function', true, 'dist/enclave-cli.js'])
})

test('./fastify4 and ./fastify5 are the two API levels, with Fastify\'s export shape, sharing one copy of Enclave', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import main from 'enclave-http'
    import fastify4, { fastify as named4 } from 'enclave-http/fastify4'
    import fastify5, { fastify as named5, errorCodes, FASTIFY_API_VERSION } from 'enclave-http/fastify5'
    const { createRequire } = await import('node:module')
    const require = createRequire(import.meta.url)
    const app4 = fastify4()
    const app5 = fastify5()
    app5.get('/', async () => ({ version: app5.version }))
    const res = await app5.inject('/')
    console.log(JSON.stringify([fastify4 === main, named4 === fastify4, named5 === fastify5, fastify5 === fastify4,
      require('enclave-http/fastify5') === fastify5, errorCodes.FST_ERR_NOT_FOUND === main.errorCodes.FST_ERR_NOT_FOUND,
      new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE().message, FASTIFY_API_VERSION,
      app4.version, res.json(), fastify5.default === fastify5]))
  `], { cwd: root, encoding: 'utf8' })
  // errorCodes: the same classes, but for the messages Fastify 5 changed
  assert.deepEqual(JSON.parse(out), [true, true, true, false, true, true, 'Unsupported Media Type', '5.12.8', '4.29.1', { version: '5.12.8' }, true])
})

test('the package publishes the bundle, its command and the type declarations, not the unbundled modules', () => {
  const [{ files }] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ files: Array<{ path: string }> }>
  const published = new Set(files.map((file) => file.path))
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const oldTypeScript: string[] = Object.values(pkg.typesVersions).flatMap((paths) => Object.values(paths as Record<string, string[]>).flat())
  const entries = ['.', './fastify4', './fastify5'].flatMap((name) => Object.values(pkg.exports[name] as Record<string, string>))
  for (const file of [pkg.main, pkg.types, pkg.bin.enclave, ...entries, ...oldTypeScript]) {
    assert.ok(published.has(file.replace(/^\.\//, '')), `${file} is published`)
  }
  assert.deepEqual([...published].filter((file) => file.startsWith('dist/src/') && !file.endsWith('.d.ts')), [])
})

test('an application keeps its own pino 9: every release Fastify 4 accepts is one Enclave accepts, so npm installs one copy', () => {
  // With two copies, a logger the application made is typed by one and app.log by the other: unrelated types.
  const rangeOf = (manifest: string): string => JSON.parse(readFileSync(manifest, 'utf8')).dependencies.pino
  const fastify4 = rangeOf(path.join(root, 'node_modules', 'fastify', 'package.json'))
  const ours = rangeOf(path.join(root, 'package.json'))
  assert.ok(semver.subset(fastify4, ours), `Fastify 4's pino range ${fastify4} lies within Enclave's ${ours}`)
})

describe('the compile cache through the bundle', () => {
  const dist = path.join(root, 'dist')

  /** Runs `<folder>/enclave-cli.js precompile` on an app made by `<folder>/enclave.js` (the same copy, as installed). */
  function precompileWith (folder: string, cacheDir: string): { file: string, entries: number } {
    const entry = path.join(path.dirname(cacheDir), 'entry.mjs')
    writeFileSync(entry, `import enclave from ${JSON.stringify(path.join(folder, 'enclave.js'))}
export default function build () {
  const app = enclave({ compileCache: { dir: ${JSON.stringify(cacheDir)} } })
  app.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (request) => request.body)
  return app
}
`)
    return JSON.parse(execFileSync(process.execPath, [path.join(folder, 'enclave-cli.js'), 'precompile', entry, '--json'], { encoding: 'utf8' }))
  }

  test('the enclave command uses the bundle the application loads, and a later process finds the same pack', (t) => {
    const cache = path.join(temporaryDir(t), 'cache')
    assert.equal(require.resolve('enclave-http'), path.join(dist, 'enclave.js'))
    const first = precompileWith(dist, cache)
    const second = precompileWith(dist, cache)
    assert.deepEqual([first.entries, second.file], [1, first.file])
    assert.deepEqual(readdirSync(cache), [path.basename(first.file)])
  })

  test('a bundle with different code never reads the pack of another', (t) => {
    const dir = temporaryDir(t)
    const cache = path.join(dir, 'cache')
    // a copy of the package's files whose core bundle differs by one comment, finding the same dependencies
    const copy = path.join(dir, 'package')
    mkdirSync(copy)
    writeFileSync(path.join(copy, 'enclave-core.js'), readFileSync(path.join(dist, 'enclave-core.js'), 'utf8') + '\n// changed\n')
    for (const file of ['enclave.js', 'enclave-cli.js']) copyFileSync(path.join(dist, file), path.join(copy, file))
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'))
    const original = precompileWith(dist, cache)
    const changed = precompileWith(copy, cache)
    assert.notEqual(changed.file, original.file)
    assert.equal(changed.entries, 1)
  })
})
