/**
 * The no-regression gate. conformance/expectations.txt lists what is known to fail on Enclave, one
 * `file :: test name :: reason` a line: failing or lost tests, failing type-test lines, and files that crash or
 * stop early or hang (`[crashed]`, `[stopped]`, `[hung]` as the name). A failure not listed is a regression; a listed test that now passes is
 * reported, and `--update-expectations` deletes its line. The tool never adds a line: the file only shrinks.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { conformanceDir, log } from './paths.mjs'
import { readEntries, formatEntry, SEPARATOR } from './entry-lines.mjs'
import { ENCLAVE_DECLARATIONS, TYPES_PROJECT } from './type-reports.mjs'

export const EXPECTATIONS_FILE = path.join(conformanceDir, 'expectations.txt')

const key = (file, name) => `${file}${SEPARATOR}${name}`

/** Every failure of the run as `{ file, name, detail }`, and every (file, name) the run saw. */
function collectOutcomes (summary) {
  const failures = []
  const seen = new Map()
  for (const result of summary.files) {
    for (const test of result.tests) {
      // Several tests may share a name (top-level assertions, copied tests): any failure among them wins.
      const id = key(result.file, test.name)
      if (seen.get(id) !== 'fail' && seen.get(id) !== 'lost') seen.set(id, test.status)
      if (test.status === 'fail' || test.status === 'lost') {
        failures.push({ file: result.file, name: test.name, detail: test.status === 'lost' ? `lost: the file ${result.status}` : test.failure })
      }
    }
    for (const status of ['crashed', 'stopped', 'hung']) seen.set(key(result.file, `[${status}]`), result.status === status ? 'fail' : 'pass')
    if (result.status !== 'ok') failures.push({ file: result.file, name: `[${result.status}]`, detail: result.why })
  }
  for (const report of summary.types?.files ?? []) {
    for (const line of [...report.failedLines, ...report.otherErrorLines]) {
      failures.push({ file: report.file, name: line.name, detail: line.message })
      seen.set(key(report.file, line.name), 'fail')
    }
  }
  return { failures, seen }
}

/**
 * How the run judged an entry: 'fail' (still failing), 'pass', 'unknown' (its file ran but the name never showed
 * up, or was skipped) or null (not judged: its file did not run, or --grep hid it).
 */
function judge (entry, { seen, testFiles, typeFiles, typesComplete, grep }) {
  const status = seen.get(key(entry.file, entry.name))
  if (status === 'fail' || status === 'lost') return 'fail'
  const wholeRun = entry.file === ENCLAVE_DECLARATIONS || entry.file === TYPES_PROJECT
  if (entry.file.startsWith('test/types/') || wholeRun) {
    // The type reports list only what fails: a checked line without a diagnostic passes.
    return typeFiles.has(entry.file) || (typesComplete && wholeRun) ? 'pass' : null
  }
  if (!testFiles.has(entry.file)) return null
  if (status === 'pass') return 'pass'
  return grep ? null : 'unknown'
}

/**
 * `{ file, ok, regressions, nowPassing, stale, expectedFailures }` (`file`: the list checked): regressions are failures not listed; nowPassing the
 * listed ones that passed; stale the listed ones whose file ran without such a test.
 */
export function checkExpectations (summary, { filePattern, grep }, expectationsFile = EXPECTATIONS_FILE) {
  const entries = readEntries(expectationsFile)
  const listed = new Set(entries.map((entry) => key(entry.file, entry.name)))
  const { failures, seen } = collectOutcomes(summary)
  const context = {
    seen,
    grep,
    testFiles: new Set(summary.files.map((result) => result.file)),
    typeFiles: new Set((summary.types?.files ?? []).map((report) => report.file)),
    typesComplete: Boolean(summary.types) && !filePattern
  }
  const nowPassing = []
  const stale = []
  for (const entry of entries) {
    const verdict = judge(entry, context)
    if (verdict === 'pass') nowPassing.push(entry)
    else if (verdict === 'unknown') stale.push({ ...entry, status: seen.get(key(entry.file, entry.name)) ?? 'not in the file' })
  }
  const regressions = failures.filter((failure) => !listed.has(key(failure.file, failure.name)))
  return { file: expectationsFile, ok: regressions.length === 0, regressions, nowPassing, stale, expectedFailures: failures.length - regressions.length }
}

export function printGate (gate) {
  const out = (line) => process.stdout.write(line + '\n')
  const listName = path.relative(path.dirname(conformanceDir), gate.file)
  if (gate.regressions.length > 0) {
    out(`${gate.regressions.length} failure(s) not in ${listName} (regressions, or new tests to triage):`)
    for (const failure of gate.regressions) out(`  ${formatEntry(failure.file, failure.name, `untriaged: ${failure.detail ?? ''}`)}`)
  }
  if (gate.nowPassing.length > 0) {
    out(`${gate.nowPassing.length} listed in ${listName} now pass (remove them with --update-expectations):`)
    for (const entry of gate.nowPassing) out(`  ${formatEntry(entry.file, entry.name, entry.reason)}`)
  }
  if (gate.stale.length > 0) {
    out(`${gate.stale.length} listed in ${listName} were not seen failing (${[...new Set(gate.stale.map((entry) => entry.status))].join(', ')}):`)
    for (const entry of gate.stale) out(`  ${formatEntry(entry.file, entry.name, entry.reason)}`)
  }
  out(`expectations: ${gate.expectedFailures} known failures, ${gate.regressions.length} not listed, ${gate.nowPassing.length} listed now passing — ${gate.ok ? 'OK' : 'REGRESSION'}`)
}

/** Deletes the lines of entries that now pass or no longer exist; never adds one. */
export function updateExpectations (gate) {
  const drop = new Set([...gate.nowPassing, ...gate.stale].map((entry) => entry.line))
  if (drop.size === 0) return
  const lines = readFileSync(gate.file, 'utf8').split('\n')
  writeFileSync(gate.file, lines.filter((_, index) => !drop.has(index + 1)).join('\n'))
  log(`${path.relative(path.dirname(conformanceDir), gate.file)}: removed ${drop.size} line(s)`)
}
