import { test } from 'node:test'
import assert from 'node:assert/strict'
// the plugin runner's jest/vitest name pattern (plain JavaScript, typed here by use)
import { allBut } from '../../conformance/plugins/lib/jest.mjs'

// A jest or vitest suite runs once for all its files, so the tests skipped on both targets (skipped-tests*.txt) are
// left out by one name pattern over full names: it must leave out exactly those names, whatever characters they hold.
test('the suite name pattern leaves out exactly the skipped full names, special characters included', () => {
  const skipped = ['transformer generates types for OAS 3.1.0 correctly', 'handles (a|b)? [x] $1 \\d+ {2} ^start *']
  const [flag, pattern] = allBut(skipped)
  assert.equal(flag, '--testNamePattern')
  const matches = (name: string): boolean => new RegExp(pattern).test(name)
  for (const name of skipped) assert.equal(matches(name), false, name)
  for (const name of ['transformer generates types for OAS 3.1.0 correctly too', 'transformer generates types for OAS 3x1x0 correctly', 'handles a', 'other']) {
    assert.equal(matches(name), true, name)
  }
})
