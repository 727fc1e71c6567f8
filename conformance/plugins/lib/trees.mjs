/**
 * The folders the plugins' tests run in. The `fastify` they load is a copy of Fastify's package made by the main
 * runner's prepareTestTree: its entry re-exports the framework under test (Enclave's build, or for `--self` an
 * untouched Fastify), and its `lib/` stays Fastify's, so a test that reads `fastify/lib/...` reads private modules the
 * target never sees. Each plugin runs in a fresh unpacked copy of its package, whose node_modules links its installed
 * dependencies and `fastify`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { cacheDir, fetchTarball, installDependencies, unpack } from '../../lib/cache.mjs'
import { enclaveTarget, linkDependencies, prepareTestTree, preparePristine } from '../../lib/shim.mjs'
import { unpackGitTests } from './install.mjs'
import { checkoutId } from '../../lib/paths.mjs'

/**
 * `<conformance cache>/fastify-<version>/plugins`: beside the level's Fastify tarball and test dependencies, which the
 * `fastify` copies reuse; each level's plugins installed apart.
 */
export function pluginsCacheDir (level) {
  return path.join(cacheDir(process.env, level.fastify), 'plugins')
}

/**
 * Where the plugins' test trees are made: a short path, because some tests listen on a Unix socket named after their
 * own file (`${__filename}.socket`), and a socket's path may not exceed 107 bytes.
 */
export function testTreesDir (level) {
  return path.join(os.tmpdir(), `enclave-plugin-tests-${checkoutId}${level.treesSuffix}`)
}

/**
 * The `fastify` package for `target` ('enclave' or 'self') at `level`, made fresh: the level's pinned fastify for
 * 'self', Enclave's entry of that level otherwise; `compileCache`: see enclaveTarget.
 */
export function prepareFastify (target, level, { compileCache = false } = {}) {
  const dir = cacheDir(process.env, level.fastify)
  const tarball = fetchTarball(dir, level.fastify)
  const dependencies = installDependencies(dir, level.fastify)
  const framework = target === 'self'
    ? preparePristine(tarball, path.join(pluginsCacheDir(level), `fastify-pristine-${checkoutId}`), dependencies)
    : enclaveTarget({ compileCache, entry: level.fastify.entry, types: level.fastify.types })
  const name = `fastify-${target}${compileCache ? '-compile-cache' : ''}-${checkoutId}`
  return prepareTestTree(tarball, path.join(pluginsCacheDir(level), name), dependencies, framework)
}

/**
 * A fresh copy of `plugin` in `tree`: its tarball, the tests of its git tag when its tarball has none, what the
 * tarball could not hold (`restore`), and node_modules → its dependencies and `fastify` → `fastifyTree`. A dependency
 * that names `fastify` is copied into the tree so that it resolves the same one.
 */
export function preparePluginTree (plugin, installed, gitDir, fastifyTree, tree) {
  unpack(installed.tarball, tree)
  if (gitDir) unpackGitTests(plugin, gitDir, tree)
  restore(plugin.restore ?? {}, tree)
  const modules = linkDependencies(tree, installed.modules, { shared: { fastify: fastifyTree }, scopes: true })
  hoistFrameworkDependencies(fastifyTree, modules)
  return tree
}

/**
 * The framework's own dependencies that the plugin's do not include, linked beside them: npm hoists a dev dependency's
 * dependencies, so a test may load `pino` because `fastify` depends on it. They resolve as the framework's do.
 */
function hoistFrameworkDependencies (fastifyTree, modules) {
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(fastifyTree, 'package.json'), 'utf8'))
  for (const name of Object.keys(dependencies)) {
    const linked = path.join(modules, name)
    if (existsSync(linked)) continue
    mkdirSync(path.dirname(linked), { recursive: true })
    symlinkSync(path.join(fastifyTree, 'node_modules', name), linked)
  }
}

/** The empty folders and symbolic links of the plugin's repository that its npm tarball could not hold. */
function restore ({ directories = [], symlinks = {} }, tree) {
  for (const directory of directories) mkdirSync(path.join(tree, directory), { recursive: true })
  for (const [link, target] of Object.entries(symlinks)) {
    mkdirSync(path.dirname(path.join(tree, link)), { recursive: true })
    symlinkSync(target, path.join(tree, link))
  }
}

/** The package-relative paths under `tree` (node_modules left out) that match `pattern`, sorted. */
export function listFiles (tree, pattern, dir = '') {
  const files = []
  for (const entry of readdirSync(path.join(tree, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue
    const relative = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) files.push(...listFiles(tree, pattern, relative))
    else if (pattern.test(relative)) files.push(relative)
  }
  return files.sort()
}
