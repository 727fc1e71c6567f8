/**
 * Reads one test file's TAP output (tap-parser) into its top-level test points: the unit the runner counts.
 * A failing point keeps the first failing assertion beneath it, so a report can say what broke.
 */
import { Parser } from 'tap-parser'

/** The skip reason the preload writes for a test on the skip list. */
export const CONFORMANCE_SKIP_PREFIX = 'conformance: '
/** What tap reports for the tests still queued when a file ends early (exit, crash or kill). */
const LEFT_IN_QUEUE = /^child test left in queue: t\.\w+ (.*)$/s

function describeFailure (assert) {
  const diag = assert.diag || {}
  const parts = [assert.name || '(unnamed assertion)']
  const difference = diag.diff ? firstDifference(diag.diff) : null
  if (difference) parts.push(difference)
  else if ('found' in diag || 'wanted' in diag) parts.push(`wanted ${oneLine(diag.wanted)}, found ${oneLine(diag.found)}`)
  else if ('expected' in diag || 'actual' in diag) parts.push(`wanted ${oneLine(diag.expected)}, found ${oneLine(diag.actual)}`)
  else if (diag.message && diag.message !== assert.name) parts.push(oneLine(diag.message))
  else if (diag.error) parts.push(oneLine(diag.error)) // node:test's TAP reporter
  else if (diag.code) parts.push(`code ${diag.code}`)
  if (diag.signal) parts.push(`signal ${diag.signal}`)
  if (diag.at) parts.push(`at ${diag.at.file ?? ''}:${diag.at.line ?? ''}`)
  else if (diag.location && !String(diag.location).includes('/preload/')) parts.push(`at ${String(diag.location).replace(/^.*?\/(test\/)/, '$1')}`)
  return parts.join(' — ')
}

/** `wanted X, found Y` from tap's unified diff (`-` lines are expected, `+` lines actual). */
function firstDifference (diff) {
  const lines = String(diff).split('\n')
  const wanted = lines.find((line) => line.startsWith('-') && !line.startsWith('---'))
  const found = lines.find((line) => line.startsWith('+') && !line.startsWith('+++'))
  if (wanted === undefined && found === undefined) return null
  return `wanted ${oneLine(wanted?.slice(1).trim() ?? '(nothing)')}, found ${oneLine(found?.slice(1).trim() ?? '(nothing)')}`
}

function oneLine (value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (text === undefined) return 'undefined'
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 160 ? flat.slice(0, 157) + '…' : flat
}

/** The first failing leaf assertion under a subtest's parser, depth first. */
function watchFirstFailure (parser, found) {
  parser.on('child', (child) => watchFirstFailure(child, found))
  parser.on('assert', (assert) => {
    if (!assert.ok && assert.name === 'test unfinished') found.unfinished = true
    if (!assert.ok && !assert.todo && !assert.skip && found.message === undefined && !assert.name?.startsWith('# Subtest')) {
      found.message = describeFailure(assert)
    }
  })
}

function skipReason (assert) {
  return typeof assert.skip === 'string' ? assert.skip : assert.skip ? 'skipped' : ''
}

/**
 * A test point's name without the `# time=…` tap appends to it. tap-parser takes that off itself, but only for a
 * time it can read as a duration: a test whose clock is faked (sinon) reports a negative time, which then stayed in
 * the name, a different name every run (@fastify/under-pressure's "interval reentrance").
 */
export function testName (name) {
  return name.replace(/ # time=-?\d+(?:\.\d+)?m?s$/, '')
}

/**
 * `{ tests, plan, complete }`: tests in output order, each `{ name, status, reason?, failure? }` with status one
 * of pass, fail (`unfinished` when tap saw Node exit under it), lost (never run: the file ended first), skip (tap's own skip or todo), excluded (our skip list)
 * filtered (--grep) and error (an exception tap caught outside any test: reported, not counted).
 */
export function parseTap (text) {
  const parser = new Parser({ strict: false })
  const tests = []
  let pending = {}
  let final = null
  const errorNames = new Set()
  parser.on('child', (child) => {
    pending = { subtest: true }
    watchFirstFailure(child, pending)
  })
  parser.on('assert', (assert) => {
    const test = { name: testName(assert.name ?? ''), status: assert.ok ? 'pass' : 'fail' }
    const reason = skipReason(assert)
    const leftInQueue = LEFT_IN_QUEUE.exec(test.name)
    if (leftInQueue && !assert.ok) {
      test.name = leftInQueue[1]
      test.status = 'lost'
    } else if (reason.startsWith(CONFORMANCE_SKIP_PREFIX)) {
      test.status = 'excluded'
      test.reason = reason.slice(CONFORMANCE_SKIP_PREFIX.length)
    } else if (reason.startsWith('filter: ') || reason === 'test name does not match pattern') { // tap's, node:test's --grep
      test.status = 'filtered'
    } else if (assert.skip || assert.todo) {
      test.status = 'skip'
      test.reason = reason || (typeof assert.todo === 'string' ? `todo: ${assert.todo}` : 'todo')
    } else if (!assert.ok && !pending.subtest && (assert.diag?.tapCaught || errorNames.has(assert.name))) {
      // An exception thrown outside any test (a late callback of a test that already ended): tap reports it at the
      // top level, but it is not a test; the failing test that left the callback behind is counted already.
      // (The same error again, its details cut off when Node died, has no diagnostics left to tell.)
      test.status = 'error'
      test.failure = describeFailure(assert)
      errorNames.add(assert.name)
    } else if (!assert.ok) {
      test.failure = pending.message ?? describeFailure(assert)
      if (pending.unfinished) test.unfinished = true
    }
    pending = {}
    tests.push(test)
  })
  parser.on('complete', (results) => { final = results })
  parser.end(text)
  const plan = final?.plan?.end !== undefined && final.plan.end !== null ? final.plan : null
  return { tests, plan, complete: plan !== null && tests.length === plan.end - plan.start + 1 }
}
