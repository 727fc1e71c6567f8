/** Where the runner lives, where Enclave's build is, and the one logging function (stderr, so stdout stays clean). */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const conformanceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repoRoot = path.resolve(conformanceDir, '..')
export const enclaveEntry = path.join(repoRoot, 'dist', 'src', 'index.js')
export const enclaveTypes = path.join(repoRoot, 'dist', 'src', 'index.d.ts')

export const log = (message) => process.stderr.write(`${message}\n`)
