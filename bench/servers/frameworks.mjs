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
export const ENCLAVE_ENTRY = path.join(repoRoot, 'dist', 'src', 'index.js')

export class FrameworkUnavailableError extends Error {}

/** @param {'enclave' | 'fastify'} name */
export function loadFactory (name) {
  if (name === 'fastify') return require('fastify')
  if (name !== 'enclave') throw new FrameworkUnavailableError(`unknown framework "${name}"`)
  if (!existsSync(ENCLAVE_ENTRY)) {
    throw new FrameworkUnavailableError(`${path.relative(repoRoot, ENCLAVE_ENTRY)} not found (run npm run build)`)
  }
  const exported = require(ENCLAVE_ENTRY)
  const factory = typeof exported === 'function' ? exported : exported?.default
  if (typeof factory !== 'function') {
    throw new FrameworkUnavailableError(`${ENCLAVE_ENTRY} does not export a factory function`)
  }
  return factory
}
