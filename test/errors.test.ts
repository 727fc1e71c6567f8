import { test } from 'node:test'
import assert from 'node:assert/strict'
import { errorCodes as fastifyErrorCodes } from 'fastify'
// the registry behind `enclave.errorCodes` (test/package.test.ts checks the export itself)
import { codes } from '../src/core/errors'

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
