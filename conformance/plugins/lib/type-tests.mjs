/**
 * The plugins' own type tests, checked in a plugin's test tree (trees.mjs), where `fastify` resolves to the types of
 * the target (Enclave's declarations of the level, or the real fastify's). A plugin is checked by the checker its
 * package.json uses (tstyche: its `*.tst.ts` files, tstyche's default selection; tsd: its `*.test-d.ts` files), with
 * the same checker code as Fastify's own type tests (conformance/lib/tstyche-tests.mjs, type-tests.mjs).
 *
 * The plugin lists leave the checkers and type-only packages out of the installed test dependencies (the test files
 * do not load them), so the tree gets them here: the checkers, TypeScript and Node's types linked from the conformance
 * cache's Fastify test dependencies (tstyche and TypeScript 6 from Fastify 5's, tsd from Fastify 4's), and the
 * plugin's type-only dev dependencies (type providers, `@types/*`) installed apart, once, in the cache
 * (`<plugin>-<version>-types/`). A linked package whose declarations import `fastify` (@fastify/reply-from under
 * @fastify/http-proxy, the type providers…) is made a copy, so that it resolves the tree's `fastify`: TypeScript
 * resolves a linked package's imports from where the link points.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { createHash } from 'node:crypto'
import { cacheDir, npm } from '../../lib/cache.mjs'
import { LEVELS } from '../../lib/levels.mjs'
import { log } from '../../lib/paths.mjs'
import { checkWithTstyche } from '../../lib/tstyche-tests.mjs'
import { checkWithTsd } from '../../lib/type-tests.mjs'
import { listFiles } from './trees.mjs'

/** Each checker's test files, as its defaults select them in the plugins' packages. */
const CHECKERS = {
  tstyche: { files: /(^|\/)[^/]+\.tst\.ts$/, check: checkWithTstyche },
  tsd: { files: /(^|\/)[^/]+\.test-d\.ts$/, check: checkWithTsd }
}

/**
 * Found in the Fastify test dependencies of either level (this level's first): the checkers, TypeScript, Node's types,
 * and fastify-tsconfig (which @fastify/websocket's tsconfig.json extends).
 */
const TOOLS = ['tstyche', 'tsd', 'typescript', '@types/node', 'fastify-tsconfig']

/** The dev dependencies that only type tests use (Node's types come with the tools; test runners' are not needed). */
const TYPE_ONLY = /^(@types\/(?!node$|jest$|tap$)|typebox$|@sinclair\/typebox$|.*type-provider)/

/** The checker `manifest` (a plugin's package.json) runs its type tests with, or null. */
export function checkerOf (manifest) {
  const dev = manifest.devDependencies ?? {}
  return Object.keys(CHECKERS).find((name) => dev[name]) ?? null
}

/** The packages the files `files` of `tree` import by name (`@scope/name` or `name`, from `import … from '…'`). */
export function importedPackages (tree, files) {
  const names = new Set()
  for (const file of files) {
    for (const [, specifier] of readFileSync(path.join(tree, file), 'utf8').matchAll(/from\s+['"]([^'".][^'"]*)['"]/g)) {
      names.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'))
    }
  }
  return names
}

/** The package-relative paths of the type test files of `tree` that `checker` selects. */
export function typeTestFiles (tree, checker) {
  return listFiles(tree, CHECKERS[checker].files)
}

/**
 * For a plugin whose tarball has no tests: the type test files of its git release tag that `checker` selects, written
 * into `tree` (the run's test folders come from there too).
 */
export function unpackGitTypeTests (plugin, gitDir, tree, checker) {
  const { tag } = plugin.testsFrom
  const names = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', tag], { encoding: 'utf8' }).split('\n')
  for (const name of names.filter((file) => CHECKERS[checker].files.test(file))) {
    mkdirSync(path.dirname(path.join(tree, name)), { recursive: true })
    writeFileSync(path.join(tree, name), execFileSync('git', ['--git-dir', gitDir, 'show', `${tag}:${name}`]))
  }
}

/** `add(name, source)` for each package of the node_modules folder `from` (each of a scope folder's). */
function linkEach (from, into, add, scope = '') {
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.') || entry === 'fastify') continue
    if (entry.startsWith('@') && !scope) linkEach(path.join(from, entry), into, add, entry)
    else add(scope ? `${scope}/${entry}` : entry, path.join(from, entry))
  }
}

/**
 * Installs, once, the dev dependencies of the plugin (`manifest`, its package.json) that its test install
 * (`installed.modules`) lacks and its type tests need — the type-only ones, and those of `imported` (the packages its
 * type test files import: @fastify/session's name connect-redis) — with their peers, into `dir`; their node_modules
 * folder, or null when there are none.
 */
export function installTypeDependencies (manifest, installed, dir, { dependenciesBefore }, imported = new Set()) {
  const wanted = Object.entries(manifest.devDependencies ?? {})
    .filter(([name]) => (TYPE_ONLY.test(name) || imported.has(name)) && !existsSync(path.join(installed.modules, name))).sort(([a], [b]) => a.localeCompare(b))
  if (wanted.length === 0) return null
  const packageJson = JSON.stringify({ name: 'enclave-plugin-type-tests', version: '0.0.0', private: true, dependencies: Object.fromEntries(wanted) }, null, 2) + '\n'
  const stamp = createHash('sha256').update(packageJson).update(dependenciesBefore).digest('hex')
  const stampFile = path.join(dir, '.installed-sha256')
  const modules = path.join(dir, 'node_modules')
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return modules
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), packageJson)
  log(`npm install of ${manifest.name}@${manifest.version}'s type-only dev dependencies → ${dir}`)
  // Peers installed (a type provider's `typebox`); no install scripts.
  npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `--before=${dependenciesBefore}`], dir)
  writeFileSync(stampFile, stamp)
  return modules
}

/**
 * Links (or copies) into `tree`'s node_modules what its type tests need and its installed dependencies lack: the
 * tools, and the packages of `typeModules` (installTypeDependencies' folder, or null).
 */
export function linkTypeTools (tree, level, typeModules) {
  const modules = path.join(tree, 'node_modules')
  const fastifyLevels = [level.fastify, ...Object.values(LEVELS).filter((other) => other !== level.fastify)]
  const depsDirs = fastifyLevels.map((fastify) => path.join(cacheDir(process.env, fastify), 'deps', 'node_modules'))
  const add = (name, source) => {
    const target = path.join(modules, name)
    if (existsSync(target) || !existsSync(source)) return
    mkdirSync(path.dirname(target), { recursive: true })
    symlinkSync(source, target)
  }
  for (const name of TOOLS) {
    const source = depsDirs.map((dir) => path.join(dir, name)).find((dir) => existsSync(dir))
    if (source) add(name, source)
  }
  if (typeModules) linkEach(typeModules, modules, add)
  copyFastifyTypedLinks(modules)
}

const IMPORTS_FASTIFY = /(from|import\(|require\(|declare module)\s*['"]fastify['"]/

/** Whether a declaration file under `dir` (its own node_modules left out, `depth` folders down) names `fastify`. */
function declaresForFastify (dir, depth = 3) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory() && entry.name !== 'node_modules' && depth > 0 && declaresForFastify(file, depth - 1)) return true
    if (entry.isFile() && /\.d\.[cm]?ts$/.test(entry.name) && IMPORTS_FASTIFY.test(readFileSync(file, 'utf8'))) return true
  }
  return false
}

/**
 * Replaces each link in `modules` (scope folders included) to a package whose declarations import `fastify` by a copy;
 * the checkers and TypeScript are left linked.
 */
function copyFastifyTypedLinks (modules, modulesRoot = modules) {
  for (const entry of readdirSync(modules)) {
    const linked = path.join(modules, entry)
    if (entry.startsWith('@') && !lstatSync(linked).isSymbolicLink()) copyFastifyTypedLinks(linked, modulesRoot)
    if (entry === 'fastify' || TOOLS.includes(linked.slice(modulesRoot.length + 1)) || !lstatSync(linked).isSymbolicLink() || !existsSync(path.join(linked, 'package.json'))) continue
    if (!declaresForFastify(linked)) continue
    const source = realpathSync(linked)
    rmSync(linked)
    cpSync(source, linked, { recursive: true, dereference: true })
  }
}

/** Checks `files` of `tree` with `checker`; the result of conformance/lib/type-reports.mjs's typesResult. */
export function checkTypeTests (tree, files, checker, label) {
  return CHECKERS[checker].check(tree, files, label)
}

/** The package.json of the plugin in `tree`. */
export function readTreeManifest (tree) {
  return JSON.parse(readFileSync(path.join(tree, 'package.json'), 'utf8'))
}
