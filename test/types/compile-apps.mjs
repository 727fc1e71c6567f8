// The second half of `npm run typecheck` (after `npm run build`): compiles the typed applications against Enclave's
// built declarations as a user's install resolves them, with the TypeScript the repository builds with and with the
// oldest one Enclave supports (5.0.4, pinned below and fetched once into a cache folder by
// scripts/pinned-package.mjs: as a devDependency it would race the current TypeScript for `node_modules/.bin/tsc`),
// both with `skipLibCheck: false`.
//   test/types/app/  CommonJS, moduleResolution node10; `paths` map `fastify` and `enclave` to the package directory
//                    (so that the plugins' own .d.ts files reach Enclave too), read through its package.json
//   test/types/esm/  an ES module package under NodeNext; node_modules/fastify is a link to the package directory,
//                    made here, as `"fastify": "npm:enclave-http@..."` installs it (resolved through `exports`)
//   test/types/level5/ Enclave's own type tests of the Fastify 5 level, laid out as app5 (fastify 5 itself as
//                    `real-fastify`), with skipLibCheck on (app5 checks the declarations)
//   test/types/app5/ a Fastify 5 application (ES module, NodeNext) on the Fastify 5 level: node_modules made here as
//                    `"fastify": "npm:enclave-http-fastify5@..."` and the current plugins install it (links to
//                    packages/fastify5, the repository as enclave-http, and the plugins' Fastify 5 releases, which
//                    the repository has as devDependencies under aliases); then a copy of it whose FastifyJWT
//                    augmentation is removed must fail to compile, or the app would not be checking the plugins' types
// TypeScript 5.0 to 5.3 read declarations/typescript-5.0.d.ts (package.json `typesVersions`, `types@<5.4`).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pinnedPackage } from '../../scripts/pinned-package.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const apps = ['test/types/app', 'test/types/esm', 'test/types/app5', 'test/types/level5']
/** The oldest TypeScript Enclave's types support, as Fastify 4.29.1's do. */
const OLDEST_TYPESCRIPT = { name: 'typescript', version: '5.0.4', integrity: 'sha512-cW9T5W9xY37cc+jfEnaUvX91foxtHkza3Nw3wkoF4sSlKn0MONdkdEndig/qPBWXNkmplh3NzayQzCiHM4/hqw==' }
const compilers = [join(root, 'node_modules', 'typescript'), pinnedPackage(OLDEST_TYPESCRIPT)]

/** `app`'s node_modules/<name> → `target` (relative to the repository), as an install would put the package there. */
function linkPackage (app, name, target) {
  const link = join(root, app, 'node_modules', name)
  const relativeTarget = relative(dirname(link), join(root, target))
  mkdirSync(dirname(link), { recursive: true })
  if (existsSync(link) || isLink(link)) {
    if (isLink(link) && readlinkSync(link) === relativeTarget) return
    unlinkSync(link)
  }
  symlinkSync(relativeTarget, link, 'dir')
}

/** The packages of the Fastify 5 application, by the names it imports them under. */
const app5Packages = {
  fastify: 'packages/fastify5',
  'enclave-http': '.',
  'fastify-plugin': 'node_modules/fastify-plugin5',
  '@fastify/cookie': 'node_modules/@fastify5/cookie',
  '@fastify/jwt': 'node_modules/@fastify5/jwt',
  '@fastify/type-provider-typebox': 'node_modules/@fastify5/type-provider-typebox'
}

/** The packages of the Fastify 5 level's type tests: Enclave's Fastify 5 entry as `fastify`, fastify 5 itself apart. */
const level5Packages = {
  fastify: 'packages/fastify5',
  'enclave-http': '.',
  'real-fastify': 'node_modules/fastify5',
  // what a Fastify 5 program installs beside it: @fastify/error 4, at another path than Enclave's copy of it
  '@fastify/error': 'node_modules/fastify-error-4',
  '@fastify/type-provider-json-schema-to-ts': 'node_modules/@fastify5/type-provider-json-schema-to-ts'
}

/**
 * A copy of app5 with its FastifyJWT augmentation taken out must fail (`request.user.role` is then unknown), so the
 * application really reads @fastify/jwt's types through Enclave's. The copy sits beside the app, at the same depth, so that its links (relative) resolve alike.
 */
function mutatedApp5Fails (compiler) {
  const copy = join(root, 'test/types/.app5-mutated')
  rmSync(copy, { recursive: true, force: true })
  cpSync(join(root, 'test/types/app5'), copy, { recursive: true, filter: (from) => !from.includes('node_modules') })
  const auth = join(copy, 'plugins/auth.ts')
  const source = readFileSync(auth, 'utf8')
  const mutated = source.replace(/declare module '@fastify\/jwt' \{[\s\S]*?\n\}\n/, '')
  if (mutated === source) throw new Error('app5 mutation: the FastifyJWT augmentation was not found in plugins/auth.ts')
  writeFileSync(auth, mutated)
  cpSync(join(root, 'test/types/app5/node_modules'), join(copy, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  try {
    execFileSync(process.execPath, [join(compiler, 'bin', 'tsc'), '-p', join(copy, 'tsconfig.json')], { cwd: root, encoding: 'utf8' })
    return false
  } catch (err) {
    return /Property 'role' does not exist/.test(err.stdout ?? '')
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

function isLink (file) {
  try { return lstatSync(file).isSymbolicLink() } catch { return false }
}

function version (compiler) {
  return JSON.parse(readFileSync(join(compiler, 'package.json'), 'utf8')).version
}

linkPackage('test/types/esm', 'fastify', '.')
for (const [name, target] of Object.entries(app5Packages)) linkPackage('test/types/app5', name, target)
for (const [name, target] of Object.entries(level5Packages)) linkPackage('test/types/level5', name, target)
let failed = false
for (const compiler of compilers) {
  for (const app of apps) {
    const label = `${app} with TypeScript ${version(compiler)}`
    try {
      execFileSync(process.execPath, [join(compiler, 'bin', 'tsc'), '-p', join(root, app, 'tsconfig.json')], { cwd: root, encoding: 'utf8' })
      console.log(`ok: ${label}`)
    } catch (err) {
      failed = true
      console.error(`FAILED: ${label}\n${err.stdout ?? ''}${err.stderr ?? ''}`)
    }
  }
}
if (mutatedApp5Fails(compilers[0])) console.log('ok: test/types/app5 without its FastifyJWT augmentation fails to compile')
else {
  failed = true
  console.error('FAILED: test/types/app5 without its FastifyJWT augmentation still compiles (or fails for another reason)')
}
process.exitCode = failed ? 1 : 0
