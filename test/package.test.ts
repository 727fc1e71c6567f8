import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import path from 'node:path'

// These run against the compiled package (`npm test` builds first), the way users load it.
const root = path.join(__dirname, '..')

test('require("enclave") returns the factory, with .default and a named enclave export', () => {
  const out = execFileSync(process.execPath, ['-e', `
    const enclave = require('enclave')
    const app = enclave()
    console.log(JSON.stringify([typeof enclave, enclave.default === enclave, enclave.enclave === enclave,
      typeof app.get, typeof enclave.errorCodes.FST_ERR_NOT_FOUND]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), ['function', true, true, 'function', 'function'])
})

test('import enclave from "enclave" works from ES modules and serves a request', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import enclave, { enclave as named, fastify } from 'enclave'
    const app = enclave()
    app.get('/', async () => ({ hello: 'world' }))
    const res = await app.inject({ url: '/' })
    console.log(JSON.stringify([named === enclave, fastify === enclave, res.statusCode, res.json()]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), [true, true, 200, { hello: 'world' }])
})

test('precompile is exported, and the package has the enclave command', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    import enclave, { precompile } from 'enclave'
    import { readFileSync } from 'node:fs'
    const { bin } = JSON.parse(readFileSync('package.json', 'utf8'))
    console.log(JSON.stringify([typeof precompile, enclave.precompile === precompile, bin.enclave]))
  `], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), ['function', true, 'dist/src/bin/enclave.js'])
})
