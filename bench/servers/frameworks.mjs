/**
 * Loads a framework factory by name. Enclave is loaded from the build output, so `npm run build` must run first;
 * when it is missing the error says so instead of crashing the whole suite.
 */
import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const ENCLAVE_ENTRY = path.join(repoRoot, 'dist', 'enclave.js')
/** Enclave's Fastify 5 level (`enclave-http/fastify5`): the same core, another level policy. */
export const ENCLAVE5_ENTRY = path.join(repoRoot, 'dist', 'fastify5.js')

export class FrameworkUnavailableError extends Error {}

/**
 * `baseline` is another build of Enclave, for A/B runs of a change (`--servers enclave,baseline`): the checkout
 * (or its entry file) named by BENCH_BASELINE, e.g. a `git worktree` of the commit before the change; its bundle
 * (dist/enclave.js), or for a build from before the bundle, dist/src/index.js.
 * @param {'enclave' | 'enclave5' | 'fastify' | 'fastify5' | 'baseline'} name
 */
export function loadFactory (name) {
  if (name === 'fastify') return require('fastify')
  if (name === 'fastify5') return require('fastify5')
  if (name === 'enclave') return loadEnclave(ENCLAVE_ENTRY)
  if (name === 'enclave5') return loadEnclave(ENCLAVE5_ENTRY)
  if (name === 'baseline') {
    const given = process.env.BENCH_BASELINE
    if (!given) throw new FrameworkUnavailableError('BENCH_BASELINE is not set (a checkout of Enclave, built)')
    if (given.endsWith('.js')) return loadEnclave(path.resolve(given))
    const bundle = path.resolve(given, 'dist', 'enclave.js')
    return loadEnclave(existsSync(bundle) ? bundle : path.resolve(given, 'dist', 'src', 'index.js'))
  }
  throw new FrameworkUnavailableError(`unknown framework "${name}"`)
}

function loadEnclave (entry) {
  if (!existsSync(entry)) {
    throw new FrameworkUnavailableError(`${path.relative(repoRoot, entry)} not found (run npm run build)`)
  }
  const exported = require(entry)
  const factory = typeof exported === 'function' ? exported : exported?.default
  if (typeof factory !== 'function') {
    throw new FrameworkUnavailableError(`${entry} does not export a factory function`)
  }
  return factory
}
