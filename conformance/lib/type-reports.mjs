/**
 * The report of the `types` area, whichever checker ran it (tsd for Fastify 4's tests, tstyche for Fastify 5's):
 * one entry per file, `{ file, assertionLines, failedLines, otherErrorLines }`, where each failing line is
 * `{ line, name, message }` and `name` is what conformance/expectations*.txt lists (`line N: <text>`, or
 * `error: <message>` for errors inside declarations, whose line numbers move with every build).
 */
import path from 'node:path'
import { repoRoot } from './paths.mjs'

/** The report name of errors found inside Enclave's own declarations. */
export const ENCLAVE_DECLARATIONS = '(enclave declarations)'
/** The report name of errors the checker reports without a place (a compiler option, say). */
export const TYPES_PROJECT = '(types project)'

export const oneLine = (text, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat
}

/** A failing line as the reports and the expectations file name it. */
export const namedLine = (line, text, message) => ({ line, name: `line ${line}: ${oneLine(text, 100)}`, message: oneLine(message, 400) })

/** `file` relative to `tree` with forward slashes, or as given when it lies outside the tree. */
export function treeRelative (tree, file) {
  const relative = path.relative(tree, file)
  return relative.startsWith('..') ? file : relative.split(path.sep).join('/')
}

/**
 * Errors that the checker reports inside declaration files (a test's module augmentation clashing with them, say),
 * `diagnostics` being `{ line, message }`: named by message.
 */
export function declarationReport (file, diagnostics) {
  // Under one name for all of Enclave's files, so that moving a declaration between files changes nothing here.
  const inEnclave = path.isAbsolute(file) && !path.relative(repoRoot, file).startsWith('..')
  const errors = new Map()
  for (const diagnostic of diagnostics) {
    const message = oneLine(diagnostic.message)
    if (!errors.has(message)) errors.set(message, { line: diagnostic.line, name: `error: ${message}`, message })
  }
  return { file: inEnclave ? ENCLAVE_DECLARATIONS : file, assertionLines: 0, failedLines: [], otherErrorLines: [...errors.values()] }
}

/** Merges the reports that share a name (Enclave's declaration files). */
function mergeReports (reports) {
  const byName = new Map()
  for (const report of reports) {
    const seen = byName.get(report.file)
    if (!seen) byName.set(report.file, report)
    else seen.otherErrorLines.push(...report.otherErrorLines.filter((line) => !seen.otherErrorLines.some((other) => other.name === line.name)))
  }
  return [...byName.values()]
}

/**
 * The area's result: `{ checker, files, assertionLines, failedLines, otherErrorLines, lostLines, seconds }` (the last
 * five are counts; lostLines, of the failed, those the checker never reached), from the per-file reports and the time
 * the check started.
 */
export function typesResult (checker, reports, started) {
  const files = mergeReports(reports)
  const sum = (key) => files.reduce((total, report) => total + (Array.isArray(report[key]) ? report[key].length : report[key] ?? 0), 0)
  return {
    checker,
    files,
    assertionLines: sum('assertionLines'),
    failedLines: sum('failedLines'),
    otherErrorLines: sum('otherErrorLines'),
    lostLines: sum('lostLines'),
    seconds: Math.round((Date.now() - started) / 100) / 10
  }
}
