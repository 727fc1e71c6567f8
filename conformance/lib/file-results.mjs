/**
 * One test file's outcome from its process and its TAP: the top-level tests with their status, how the file ended
 * (ok; crashed: Node died; stopped: Node exited normally with a test unfinished, nothing left to wait for; hung:
 * killed at the time limit), and the tests it never reached, counted as lost (failed). Tap names the tests still queued
 * when a file ends early; a file whose process dies before tap can say so loses the tests that the `--self` run of
 * the same file had (`expectedNames`).
 */
import { parseTap } from './tap-results.mjs'

/** The statuses that count as kept tests; the rest (skip, excluded, filtered) are not counted. */
export const KEPT = new Set(['pass', 'fail', 'lost'])

function howItEnded (run, parsed, tests) {
  if (run.timedOut) return { status: 'hung', why: 'still running at the time limit; killed' }
  if (run.signal) return { status: 'crashed', why: `killed by ${run.signal}` }
  if (run.exitCode !== 0 && run.exitCode !== 1) return { status: 'crashed', why: `exited with code ${run.exitCode}` }
  // tap says "test unfinished" when Node's event loop emptied under a running test: nothing was left to call it back.
  const unfinished = tests.find((test) => test.unfinished)
  if (unfinished) return { status: 'stopped', why: `Node exited during "${unfinished.name}": its event loop emptied while the test waited` }
  if (run.exitCode !== 0 && tests.length === 0) {
    // tap's implicit plan is then 1..0, which looks complete: the stderr says what threw while the file loaded.
    const thrown = run.stderrTail.split('\n').find((line) => /^\w*Error\b|Error:/.test(line)) ?? `exit code ${run.exitCode}`
    return { status: 'crashed', why: `the file failed before its first test: ${thrown.trim()}` }
  }
  if (!parsed.complete) return { status: 'crashed', why: 'the process exited before tap wrote its final plan' }
  if (tests.some((test) => test.status === 'lost')) return { status: 'crashed', why: 'the file ended with tests still queued' }
  return { status: 'ok', why: '' }
}

/** Adds as lost the names of `expectedNames` (a --self run's kept tests) that this run never reported. */
function addUnreported (tests, expectedNames, grep) {
  const seen = new Map()
  for (const test of tests) seen.set(test.name, (seen.get(test.name) ?? 0) + 1)
  const pattern = grep ? new RegExp(grep) : null
  for (const name of expectedNames) {
    if (pattern && !pattern.test(name)) continue
    if ((seen.get(name) ?? 0) > 0) seen.set(name, seen.get(name) - 1)
    else tests.push({ name, status: 'lost' })
  }
}

export function countTests (tests) {
  const counts = { kept: 0, passed: 0, failed: 0, lost: 0, skipped: 0, excluded: 0, errors: 0 }
  const field = { pass: 'passed', fail: 'failed', lost: 'lost', skip: 'skipped', excluded: 'excluded', error: 'errors' }
  for (const test of tests) {
    if (KEPT.has(test.status)) counts.kept++
    if (field[test.status]) counts[field[test.status]]++
    if (test.status === 'lost') counts.failed++
  }
  return counts
}

/**
 * `{ file, area, status, why, seconds, exitCode, signal, counts, tests, stderrTail? }`. `expectedNamesFor(file)`
 * (absent for --self) is consulted only for a file that did not end normally, and may return null when no --self
 * list is known.
 */
export async function fileResult (run, area, { expectedNamesFor, grep }) {
  const parsed = parseTap(run.stdout)
  const tests = parsed.tests.filter((test) => test.status !== 'filtered')
  const ending = howItEnded(run, parsed, tests)
  if (ending.status !== 'ok' && expectedNamesFor) {
    const expected = await expectedNamesFor(run.file)
    if (expected) addUnreported(tests, expected, grep)
    else ending.why += ' (no --self list of its tests: tests it never reached are not counted)'
  }
  const result = {
    file: run.file,
    area,
    status: ending.status,
    why: ending.why,
    seconds: Math.round(run.seconds * 10) / 10,
    exitCode: run.exitCode,
    signal: run.signal,
    counts: countTests(tests),
    tests
  }
  if (ending.status !== 'ok') result.stderrTail = run.stderrTail
  return result
}
