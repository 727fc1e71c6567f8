/**
 * A plugin's jest tests (@fastify/request-context has both jest and tap suites): jest runs them once, in band, with
 * its JSON report, and each test file becomes one result like a tap file's, its tests the `it()`s by full name.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { countTests } from '../../lib/file-results.mjs'

const STATUS = { passed: 'pass', failed: 'fail', pending: 'skip', todo: 'skip', skipped: 'skip', disabled: 'skip' }

function fileFromJest (tree, suite) {
  const tests = suite.assertionResults.map((assertion) => {
    const test = { name: assertion.fullName, status: STATUS[assertion.status] ?? 'fail' }
    if (test.status === 'fail') test.failure = (assertion.failureMessages ?? []).join(' ').split('\n')[0].slice(0, 300)
    return test
  })
  const broken = suite.status === 'failed' && tests.length === 0
  return {
    file: path.relative(tree, suite.name).split(path.sep).join('/'),
    status: broken ? 'crashed' : 'ok',
    why: broken ? `the file failed before its first test: ${suite.message.split('\n').find((line) => line.trim()) ?? ''}`.trim() : '',
    seconds: Math.round((suite.endTime - suite.startTime) / 100) / 10,
    counts: countTests(tests),
    tests
  }
}

/** The results of `plugin.jest`'s suite in `tree`, one per test file. */
export function runJest (tree, plugin, { timeoutSeconds, env }) {
  const report = path.join(tree, '.jest-report.json')
  const jest = path.join(tree, 'node_modules', 'jest', 'bin', 'jest.js')
  const args = [jest, '--config', plugin.jest.config, '--json', '--outputFile', report, '--coverage=false', '--runInBand', '--ci']
  const run = spawnSync(process.execPath, args, { cwd: tree, env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutSeconds * 1000 })
  let parsed
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'))
  } catch {
    throw new Error(`${plugin.name}: jest wrote no report (exit ${run.status}${run.signal ? `, ${run.signal}` : ''}): ${run.stderr.slice(-2000)}`)
  }
  rmSync(report, { force: true })
  return parsed.testResults.map((suite) => fileFromJest(tree, suite)).sort((a, b) => a.file.localeCompare(b.file))
}
