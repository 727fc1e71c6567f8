/**
 * A plugin's jest or vitest tests (@fastify/request-context has jest tests beside its tap ones; several community
 * plugins have only jest or vitest suites): the tool runs them once, with its JSON report (vitest writes jest's
 * format), and each test file becomes one result like a tap file's, its tests the `it()`s by full name.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { countTests } from '../../lib/file-results.mjs'

const STATUS = { passed: 'pass', failed: 'fail', pending: 'skip', todo: 'skip', skipped: 'skip', disabled: 'skip' }

function fileFromReport (tree, suite) {
  const tests = suite.assertionResults.map((assertion) => {
    const test = { name: assertion.fullName, status: STATUS[assertion.status] ?? 'fail' }
    if (test.status === 'fail') test.failure = (assertion.failureMessages ?? []).join(' ').split('\n')[0].slice(0, 300)
    return test
  })
  const broken = suite.status === 'failed' && tests.length === 0
  return {
    file: path.relative(tree, suite.name).split(path.sep).join('/'),
    status: broken ? 'crashed' : 'ok',
    why: broken ? `the file failed before its first test: ${(suite.message ?? '').split('\n').find((line) => line.trim()) ?? ''}`.trim() : '',
    seconds: Math.round(((suite.endTime ?? 0) - (suite.startTime ?? 0)) / 100) / 10,
    counts: countTests(tests),
    tests
  }
}

/** How each tool is started for a JSON report in `report`; `options` is the plugin's `jest` or `vitest` entry. */
const TOOLS = {
  jest: (report, options) => [path.join('node_modules', 'jest', 'bin', 'jest.js'),
    ...(options.config ? ['--config', options.config] : []), ...(options.args ?? []), '--json', '--outputFile', report, '--coverage=false', '--runInBand', '--ci'],
  vitest: (report, options) => [path.join('node_modules', 'vitest', 'vitest.mjs'), 'run',
    ...(options.config ? ['--config', options.config] : []), ...(options.args ?? []), '--reporter=json', `--outputFile=${report}`, '--coverage.enabled=false']
}

/** A name pattern that runs every test but those named in `skips` (full names), which the tool reports skipped. */
export function allBut (skips) {
  const escaped = skips.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return ['--testNamePattern', `^(?!(?:${escaped.join('|')})$)`]
}

/**
 * The results of the plugin's `tool` suite (`jest` or `vitest`) in `tree`, one per test file; `skips`: full names
 * of tests not to run (skipped-tests.txt).
 */
export function runJsonReportSuite (tool, tree, plugin, { timeoutSeconds, env, skips = [] }) {
  const options = plugin[tool]
  const report = path.join(tree, `.${tool}-report.json`)
  const args = [...(options.nodeArgs ?? []), ...TOOLS[tool](report, options), ...(skips.length > 0 ? allBut(skips) : [])]
  const run = spawnSync(process.execPath, args, { cwd: tree, env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, encoding: 'utf8', timeout: timeoutSeconds * 1000, maxBuffer: 64 * 1024 * 1024 })
  let parsed
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'))
  } catch {
    throw new Error(`${plugin.name}: ${tool} wrote no report (exit ${run.status}${run.signal ? `, ${run.signal}` : ''}): ${(run.stderr ?? '').slice(-2000)}`)
  }
  rmSync(report, { force: true })
  return parsed.testResults.map((suite) => fileFromReport(tree, suite)).sort((a, b) => a.file.localeCompare(b.file))
}
