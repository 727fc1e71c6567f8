// The second half of `npm run typecheck` (after `npm run build`): compiles the typed applications against Enclave's
// built declarations as a user's install resolves them, with the TypeScript the repository builds with and with the
// oldest one Enclave supports (5.0.4, pinned below and fetched once into a cache folder by
// scripts/pinned-package.mjs: as a devDependency it would race the current TypeScript for `node_modules/.bin/tsc`),
// both with `skipLibCheck: false`.
//   test/types/app/  CommonJS, moduleResolution node10; `paths` map `fastify` and `enclave` to the package directory
//                    (so that the plugins' own .d.ts files reach Enclave too), read through its package.json
//   test/types/esm/  an ES module package under NodeNext; node_modules/fastify is a link to the package directory,
//                    made here, as `"fastify": "npm:enclave-http@..."` installs it (resolved through `exports`)
// TypeScript 5.0 to 5.3 read declarations/typescript-5.0.d.ts (package.json `typesVersions`, `types@<5.4`).
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pinnedPackage } from '../../scripts/pinned-package.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const apps = ['test/types/app', 'test/types/esm']
/** The oldest TypeScript Enclave's types support, as Fastify 4.29.1's do. */
const OLDEST_TYPESCRIPT = { name: 'typescript', version: '5.0.4', integrity: 'sha512-cW9T5W9xY37cc+jfEnaUvX91foxtHkza3Nw3wkoF4sSlKn0MONdkdEndig/qPBWXNkmplh3NzayQzCiHM4/hqw==' }
const compilers = [join(root, 'node_modules', 'typescript'), pinnedPackage(OLDEST_TYPESCRIPT)]

/** node_modules/fastify of the ES module app → the repository, as an alias install puts the package there. */
function linkPackage (app) {
  const modules = join(root, app, 'node_modules')
  const link = join(modules, 'fastify')
  const target = relative(modules, root)
  mkdirSync(modules, { recursive: true })
  if (existsSync(link) || isLink(link)) {
    if (isLink(link) && readlinkSync(link) === target) return
    unlinkSync(link)
  }
  symlinkSync(target, link, 'dir')
}

function isLink (file) {
  try { return lstatSync(file).isSymbolicLink() } catch { return false }
}

function version (compiler) {
  return JSON.parse(readFileSync(join(compiler, 'package.json'), 'utf8')).version
}

linkPackage('test/types/esm')
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
process.exitCode = failed ? 1 : 0
