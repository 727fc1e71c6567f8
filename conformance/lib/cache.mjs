/**
 * The cache outside the repository that holds Fastify's package: the tarball from `npm pack` (checked against
 * the integrity kept in conformance/fastify.json), its unpacked pristine copy, and the test dependencies
 * installed from conformance/deps/package-lock.json. Nothing here is ever written inside the repository.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { conformanceDir, log } from './paths.mjs'

const pinned = JSON.parse(readFileSync(path.join(conformanceDir, 'fastify.json'), 'utf8'))
export const FASTIFY_VERSION = pinned.version

/** `$ENCLAVE_CONFORMANCE_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/enclave-conformance`, one folder a version. */
export function cacheDir (env = process.env) {
  const root = env.ENCLAVE_CONFORMANCE_CACHE ||
    path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'enclave-conformance')
  return path.join(root, `fastify-${FASTIFY_VERSION}`)
}

function sri (file) {
  return 'sha512-' + createHash('sha512').update(readFileSync(file)).digest('base64')
}

export function npm (args, cwd) {
  // npm writes progress and notices to stderr; keep stdout for the caller and let errors surface whole.
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
}

/** The file name `npm pack` gives a package: `@scope/name` → `scope-name-<version>.tgz`. */
export function tarballName (name, version) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`
}

/**
 * `name@version`'s tarball in `dir`, fetched once with `npm pack`; a file whose integrity differs from `integrity`
 * is deleted and refused.
 */
export function fetchPackage (dir, name, version, integrity) {
  const tarball = path.join(dir, tarballName(name, version))
  if (!existsSync(tarball)) {
    log(`npm pack ${name}@${version} → ${dir}`)
    npm(['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], dir)
  }
  const actual = sri(tarball)
  if (actual !== integrity) {
    rmSync(tarball, { force: true })
    throw new Error(`${path.basename(tarball)}: integrity ${actual} differs from the pinned ${integrity}`)
  }
  return tarball
}

/** Fastify's tarball, checked against conformance/fastify.json. */
export function fetchTarball (dir) {
  return fetchPackage(dir, 'fastify', FASTIFY_VERSION, pinned.integrity)
}

/** A fresh copy of the package in `target` (the tarball's `package/` folder unpacked there). */
export function unpack (tarball, target) {
  rmSync(target, { recursive: true, force: true })
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
}

/** `npm ci` of conformance/deps into the cache, redone only when the lockfile changed. */
export function installDependencies (dir) {
  const depsDir = path.join(dir, 'deps')
  const source = path.join(conformanceDir, 'deps')
  const lock = readFileSync(path.join(source, 'package-lock.json'))
  const stamp = createHash('sha256').update(lock).digest('hex')
  const stampFile = path.join(depsDir, '.installed-lock-sha256')
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return path.join(depsDir, 'node_modules')
  rmSync(depsDir, { recursive: true, force: true })
  mkdirSync(depsDir, { recursive: true })
  for (const name of ['package.json', 'package-lock.json']) cpSync(path.join(source, name), path.join(depsDir, name))
  log(`npm ci of Fastify's test dependencies → ${depsDir}`)
  // No install scripts: none of these packages needs one, and the cache should not run code at install time.
  npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], depsDir)
  writeFileSync(stampFile, stamp)
  return path.join(depsDir, 'node_modules')
}
