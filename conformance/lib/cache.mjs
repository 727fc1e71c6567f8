/**
 * The cache outside the repository that holds Fastify's package: the tarball from `npm pack` (checked against
 * the integrity kept in the level's pin, conformance/fastify.json or fastify-5.json), its unpacked pristine copy, and
 * the test dependencies installed from the level's conformance/deps (or deps5) package-lock.json. Nothing here is ever written
 * inside the repository.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { conformanceDir, log } from './paths.mjs'
import { DEFAULT_LEVEL } from './levels.mjs'

/** `$ENCLAVE_CONFORMANCE_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/enclave-conformance`, one folder a version. */
export function cacheDir (env = process.env, level = DEFAULT_LEVEL) {
  const root = env.ENCLAVE_CONFORMANCE_CACHE ||
    path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'enclave-conformance')
  return path.join(root, `fastify-${level.version}`)
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

/** The level's Fastify tarball, checked against its pin (conformance/fastify.json for 4.29.1). */
export function fetchTarball (dir, level = DEFAULT_LEVEL) {
  return fetchPackage(dir, 'fastify', level.version, level.integrity)
}

/** A fresh copy of the package in `target` (the tarball's `package/` folder unpacked there). */
export function unpack (tarball, target) {
  rmSync(target, { recursive: true, force: true })
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
}

/** `npm ci` of the level's conformance/deps (deps5) into the cache, redone only when the lockfile changed. */
export function installDependencies (dir, level = DEFAULT_LEVEL) {
  const depsDir = path.join(dir, 'deps')
  const source = path.join(conformanceDir, level.deps)
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
