import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { errorCodes as fastifyErrorCodes } from 'fastify'
// the registry behind `enclave.errorCodes` (test/package.test.ts checks the export itself)
import { codes } from '../../src/core/errors'

// Users and plugins match on these (`err.code`, `instanceof errorCodes.X`, messages in logs and tests): every code
// of the Fastify 4 installed as a devDependency must exist with the same message, status code and base class.
test('every Fastify 4 error code exists in errorCodes with the same message, statusCode, name and base class', () => {
  const differences: string[] = []
  for (const [code, FastifyErrorClass] of Object.entries(fastifyErrorCodes as Record<string, any>)) {
    const EnclaveErrorClass = (codes as Record<string, any>)[code]
    if (EnclaveErrorClass === undefined) {
      differences.push(`${code}: missing`)
      continue
    }
    const theirs = new FastifyErrorClass('A', 'B', 'C')
    const ours = new EnclaveErrorClass('A', 'B', 'C')
    for (const key of ['code', 'message', 'statusCode', 'name']) {
      if (theirs[key] !== ours[key]) differences.push(`${code}.${key}: ${JSON.stringify(ours[key])}, Fastify ${JSON.stringify(theirs[key])}`)
    }
    for (const Base of [TypeError, RangeError]) {
      if ((theirs instanceof Base) !== (ours instanceof Base)) differences.push(`${code}: instanceof ${Base.name} differs`)
    }
  }
  assert.deepEqual(differences, [])
})

const root = path.join(__dirname, '..', '..')

/** The codes docs/errors.md lists, by section: "Thrown" and "Kept only for parity". */
function documentedCodes (): { thrown: string[], parity: string[] } {
  const text = readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8')
  const parityStart = text.indexOf('## Kept only for parity')
  assert.notEqual(parityStart, -1, 'docs/errors.md has a "Kept only for parity" section')
  const codesIn = (part: string): string[] => [...part.matchAll(/^\| `(FST_ERR_[A-Z0-9_]+)` \|/gm)].map((m) => m[1])
  return { thrown: codesIn(text.slice(0, parityStart)), parity: codesIn(text.slice(parityStart)) }
}

/** Every `codes.FST_ERR_X` written in src/, which is how the implementation throws (or reports) a code. */
function codesUsedInSource (): Set<string> {
  const used = new Set<string>()
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(file)
      else if (file.endsWith('.ts') && !file.endsWith(path.join('core', 'errors.ts'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(/codes\.(FST_ERR_[A-Z0-9_]+)/g)) used.add(match[1])
      }
    }
  }
  visit(path.join(root, 'src'))
  return used
}

test('docs/errors.md lists every code of the registry exactly once, and nothing else', () => {
  const { thrown, parity } = documentedCodes()
  const listed = [...thrown, ...parity]
  assert.deepEqual(listed.filter((code, i) => listed.indexOf(code) !== i), [], 'listed twice')
  assert.deepEqual(Object.keys(codes).filter((code) => !listed.includes(code)), [], 'in the registry, not documented')
  assert.deepEqual(listed.filter((code) => !(code in codes)), [], 'documented, not in the registry')
})

test('every code documented as thrown is thrown in src/, and no code kept for parity is', () => {
  const { thrown, parity } = documentedCodes()
  const used = codesUsedInSource()
  assert.deepEqual(thrown.filter((code) => !used.has(code)), [], 'documented as thrown but never used: move it to "Kept only for parity"')
  assert.deepEqual(parity.filter((code) => used.has(code)), [], 'used in src/ but documented as kept for parity: move it to "Thrown"')
})

test('the status code docs/errors.md gives each code is the registry\'s', () => {
  const text = readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8')
  const wrong: string[] = []
  for (const [, code, status] of text.matchAll(/^\| `(FST_ERR_[A-Z0-9_]+)` \| (\d+) \|/gm)) {
    const actual = new (codes as Record<string, any>)[code]().statusCode
    if (actual !== Number(status)) wrong.push(`${code}: documented ${status}, is ${actual}`)
  }
  assert.deepEqual(wrong, [])
})
