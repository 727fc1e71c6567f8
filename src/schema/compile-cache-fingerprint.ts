/**
 * The fingerprint of everything code in the compile cache depends on: the pack format, Enclave's version, the code
 * of its generators (so that a changed generator never reuses old output, even under the same version number), and
 * the versions of Ajv, ajv-formats and fast-json-stringify, whose behaviour the generated code reproduces and whose
 * standalone code the cache also keeps.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { enclaveVersion } from '../core/version'
import { PACK_FORMAT } from './compile-cache-pack'

/**
 * The code that writes or wraps cached entries, relative to this folder: Enclave's generators, and the wrapping of
 * Ajv's and fast-json-stringify's standalone code (with the coercion fix `ajv-compiler` applies to Ajv's).
 */
const generatorFiles = [
  'validation/validator-generator',
  'validation/validator-subset',
  'validation/generated-validator',
  'validation/ajv-compiler',
  'validation/ajv-standalone',
  'serialization/serializer-compiler',
  'serialization/serializer-compilers',
  'cached-module',
  'compile-cache',
  'compile-cache-pack'
]
const reproduced = ['ajv', 'ajv-formats', 'fast-json-stringify']

let fingerprint: string | undefined

/** Hex SHA-256; computed once per process (reads the generators' files, ~0.1 ms, or the bundle, ~0.3 ms). */
export function packFingerprint (): string {
  fingerprint ??= computeFingerprint()
  return fingerprint
}

function computeFingerprint (): string {
  const hash = createHash('sha256')
  hash.update(`${PACK_FORMAT}\0enclave ${enclaveVersion}\0`)
  for (const name of reproduced) hash.update(`${name} ${packageVersion(name)}\0`)
  for (const file of codeFiles()) {
    try {
      hash.update(readFileSync(file))
    } catch {
      // code that cannot be read cannot tell stale entries from fresh ones: this process's cache never matches
      hash.update(randomBytes(16))
    }
  }
  return hash.digest('hex')
}

/**
 * The files holding the generators' code: the modules beside this one (`.js` in the build, `.ts` when run from
 * source), or, when they are not there, the one file this code is in — the package's bundle (scripts/bundle.mjs),
 * or an application's own bundle with Enclave inside, hashed whole.
 */
function codeFiles (): string[] {
  const extension = path.extname(__filename)
  const modules = generatorFiles.map((file) => path.join(__dirname, file + extension))
  return existsSync(modules[0]) ? modules : [__filename]
}

function packageVersion (name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version
  } catch {
    return 'unknown'
  }
}
