/**
 * The test trees: a fresh unpacked copy of Fastify's package whose `fastify.js` and `fastify.d.ts` are one-line
 * shims re-exporting the framework under test (Enclave's build, or the untouched Fastify for `--self`), so that
 * `require('..')`, `require('../fastify')`, `import '../../fastify.js'` and `require('fastify')` all load it. The
 * type tests also import `../../types/<concern>` (paths published in Fastify's package): each of those declaration
 * files becomes a shim too, re-exporting the target's types (Enclave exports all of its public types from its entry).
 * Fastify's `lib/` stays in the copy: a test that reads it reads Fastify's private modules, not the framework's.
 */
import { cpSync, existsSync, readdirSync, readFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { unpack } from './cache.mjs'
import { enclaveEntry, enclaveTypes, enclaveTypesModule } from './paths.mjs'

function dependsOn (packageDir, name) {
  const file = path.join(packageDir, 'package.json')
  if (!existsSync(file)) return false
  const manifest = JSON.parse(readFileSync(file, 'utf8'))
  return Boolean(manifest.dependencies?.[name] || manifest.peerDependencies?.[name])
}

/**
 * `node_modules/<entry>` → the installed dependencies, one link each (a `fastify` among them is left out: the caller
 * links its own). `shared` (name → folder) replaces a dependency with the framework's own copy, as npm's
 * de-duplication would in an application: the packages that depend on it are copied into the tree, so that they
 * resolve it there. With `scopes`, each package of a scope folder (`@scope/`) is judged on its own; otherwise the
 * scope folder is linked whole.
 */
export function linkDependencies (tree, dependencies, { shared = {}, scopes = false } = {}) {
  const modules = path.join(tree, 'node_modules')
  mkdirSync(modules, { recursive: true })
  linkEntries(dependencies, modules, shared, scopes)
  for (const [name, folder] of Object.entries(shared)) symlinkSync(folder, path.join(modules, name))
  return modules
}

function linkEntries (from, to, shared, scopes) {
  for (const entry of readdirSync(from)) {
    if (entry === 'fastify' || entry.startsWith('.package-lock') || Object.hasOwn(shared, entry)) continue
    const source = path.join(from, entry)
    if (scopes && entry.startsWith('@')) {
      mkdirSync(path.join(to, entry))
      linkEntries(source, path.join(to, entry), shared, false)
      continue
    }
    const copy = Object.keys(shared).some((name) => dependsOn(source, name))
    if (copy) cpSync(source, path.join(to, entry), { recursive: true })
    else symlinkSync(source, path.join(to, entry))
  }
}

function relativeSpecifier (from, to) {
  const specifier = path.relative(from, to).split(path.sep).join('/')
  return specifier.startsWith('.') ? specifier : `./${specifier}`
}

/** The type shim. Both targets' entries use `export =`, which only `import x = require()` can re-export. */
function typesShim (tree, target) {
  return `import fastify = require('${relativeSpecifier(tree, target.types.replace(/\.d\.ts$/, ''))}')\nexport = fastify\n`
}

/**
 * `types/<concern>.d.ts` → the target's declarations of that concern (Fastify), or the ES module of all its public
 * types (Enclave's `typesModule`: `export *` cannot re-export an `export =` entry).
 */
function shimTypeFolder (tree, target) {
  const folder = path.join(tree, 'types')
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.d.ts'))) {
    const source = target.typesFolder ? path.join(target.typesFolder, name) : target.typesModule
    writeFileSync(path.join(folder, name), `export * from '${relativeSpecifier(folder, source.replace(/\.d\.ts$/, ''))}'\n`)
  }
}

/**
 * Unpacks `tarball` into `tree` and points its entry at `target` ({ main, types, typesFolder? or typesModule?,
 * shared? }).
 * `module.exports = require(...)` is the form Node's CommonJS lexer follows, so ESM named imports work too.
 */
export function prepareTestTree (tarball, tree, dependencies, target) {
  unpack(tarball, tree)
  linkDependencies(tree, dependencies, { shared: target.shared })
  symlinkSync('..', path.join(tree, 'node_modules', 'fastify'))
  writeFileSync(path.join(tree, 'fastify.js'), entryShim(tree, target))
  writeFileSync(path.join(tree, 'fastify.d.ts'), typesShim(tree, target))
  shimTypeFolder(tree, target)
  return tree
}

/**
 * The tree's `fastify.js`. With `target.compileCache` (`--compile-cache`), every application created without a
 * `compileCache` option of its own gets one: a temporary directory per test process (removed when it exits), so that
 * Fastify's tests run through Enclave's compile cache (first starts write packs, later applications of the same file
 * load them). Named exports are assigned one by one, a form Node's CommonJS lexer also follows.
 */
function entryShim (tree, target) {
  const main = relativeSpecifier(tree, target.main)
  if (!target.compileCache) return `'use strict'\nmodule.exports = require('${main}')\n`
  const factoryNames = ['default', 'fastify', 'enclave']
  const named = Object.keys(createRequire(import.meta.url)(target.main)).filter((name) => !factoryNames.includes(name))
  return `'use strict'
const enclave = require('${main}')
const { mkdtempSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
let dir
function withCompileCache (options) {
  const plain = options === undefined || (options !== null && typeof options === 'object' && !Array.isArray(options))
  if (!plain || (options !== undefined && 'compileCache' in options)) return enclave(options)
  if (dir === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'enclave-conformance-cache-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  }
  return enclave({ ...options, compileCache: { dir } })
}
module.exports = withCompileCache
${factoryNames.map((name) => `module.exports.${name} = withCompileCache`).join('\n')}
${named.map((name) => `module.exports.${name} = enclave.${name}`).join('\n')}
`
}

/** The untouched package used as `--self`'s target, its dependencies linked the same way. */
export function preparePristine (tarball, dir, dependencies) {
  unpack(tarball, dir)
  symlinkSync(dependencies, path.join(dir, 'node_modules'))
  return {
    main: path.join(dir, 'fastify.js'),
    types: path.join(dir, 'fastify.d.ts'),
    typesFolder: path.join(dir, 'types')
  }
}

/**
 * Enclave's build as a target (`compileCache`: see `entryShim`; `types`: a level's, the declarations entry and the
 * module of all its types). Where a test and Enclave both use a package, an application gets one copy of it (npm
 * de-duplicates ranges that overlap), so the Enclave tree resolves Enclave's:
 * `ajv`, whose plugins (ajv-errors, ajv-formats…) build code with the `ajv` they resolve, and `pino`, whose `Logger`
 * a type test expects `app.log` to be (two copies would be two unrelated types). Fastify's tree keeps the ones it uses.
 */
export function enclaveTarget ({ compileCache = false, entry = enclaveEntry, types = { declarations: enclaveTypes, module: enclaveTypesModule } } = {}) {
  const enclaveCopy = (name) => path.dirname(createRequire(entry).resolve(`${name}/package.json`))
  const shared = { ajv: enclaveCopy('ajv'), pino: enclaveCopy('pino') }
  return { main: entry, types: types.declarations, typesModule: types.module, shared, compileCache }
}
