/** Where the runner lives, where Enclave's build is, and the one logging function (stderr, so stdout stays clean). */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const conformanceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repoRoot = path.resolve(conformanceDir, '..')
export const enclaveEntry = path.join(repoRoot, 'dist', 'enclave.js')
/** The built entry of Enclave's Fastify `major` API level (`enclave-http/fastify5`, …). */
export const enclaveEntryOf = (major) => path.join(repoRoot, 'dist', `fastify${major}.js`)
/** The package's types entry (`export =`, as Fastify's), and the module of all its types that tsc emits from src/. */
export const enclaveTypes = path.join(repoRoot, 'declarations', 'enclave.d.ts')
export const enclaveTypesModule = path.join(repoRoot, 'dist', 'src', 'index.d.ts')
/** The declarations package.json publishes for the entry `subpath` (`.`, `./fastify5`): its `types` condition. */
export function publishedTypesOf (subpath) {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
  return path.join(repoRoot, manifest.exports[subpath].types)
}
/**
 * This checkout, in the names of the test trees made in the cache: two checkouts (git worktrees) sharing the cache
 * never run each other's build or remove a tree in use.
 */
export const checkoutId = createHash('sha256').update(repoRoot).digest('hex').slice(0, 8)

export const log = (message) => process.stderr.write(`${message}\n`)
