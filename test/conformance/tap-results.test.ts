import { test } from 'node:test'
import assert from 'node:assert/strict'
// the conformance runners' TAP reading (plain JavaScript, typed here by use)
import { parseTap } from '../../conformance/lib/tap-results.mjs'

// tap appends `# time=…` to a test point; a test running under fake timers reports a negative time, which must not
// become part of the test's name (it would differ on every run).
test('a test point keeps its name whatever time tap reports with it, negative included', () => {
  const tap = [
    'TAP version 13',
    '# Subtest: interval reentrance',
    '    1..0',
    'ok 1 - interval reentrance # time=-47386104.384ms',
    '# Subtest: simple',
    '    1..0',
    'ok 2 - simple # time=12.5ms',
    'not ok 3 - a name with # time=in it',
    '1..3',
    ''
  ].join('\n')
  const { tests, complete } = parseTap(tap)
  assert.equal(complete, true)
  assert.deepEqual(tests.map((t) => [t.name, t.status]), [
    ['interval reentrance', 'pass'],
    ['simple', 'pass'],
    ['a name with # time=in it', 'fail']
  ])
})
