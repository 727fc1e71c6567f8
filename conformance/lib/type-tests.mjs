/**
 * The `types` area: Fastify's own type tests (test/types/*.test-d.ts) checked by tsd against the framework's
 * declarations (through the tree's fastify.d.ts and types/ shims). The unit is the assertion: each tsd call
 * (expectType, expectError, …), named by the line it starts on. An assertion fails when a diagnostic falls inside
 * it; a diagnostic outside every assertion (an import of a type the framework lacks, say) is an error line.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { log, repoRoot } from './paths.mjs'

const ASSERTIONS = new Set(['expectType', 'expectNotType', 'expectAssignable', 'expectNotAssignable', 'expectError',
  'expectDeprecated', 'expectNotDeprecated', 'expectNever', 'printType', 'expectDocCommentIncludes'])
const TYPE_TESTS_DIR = 'test/types'
/** The report name of errors found inside Enclave's own declarations. */
export const ENCLAVE_DECLARATIONS = '(enclave declarations)'

const oneLine = (text, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat
}

/** Each assertion call of a file: `{ start, end, text }` with 1-based lines, in source order. */
function findAssertions (ts, file, source) {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ASSERTIONS.has(node.expression.text)) {
      const line = (position) => sourceFile.getLineAndCharacterOfPosition(position).line + 1
      found.push({ start: line(node.getStart(sourceFile)), end: line(node.getEnd()), text: node.getText(sourceFile).split('\n')[0] })
    }
    ts.forEachChild(node, visit)
  }
  visit(sourceFile)
  return found
}

/** The innermost assertion spanning `line`. */
function assertionAt (assertions, line) {
  let best = null
  for (const assertion of assertions) {
    if (assertion.start <= line && line <= assertion.end && (!best || assertion.start >= best.start)) best = assertion
  }
  return best
}

function fileReport (ts, tree, file, diagnostics) {
  const source = readFileSync(path.join(tree, file), 'utf8')
  const lines = source.split('\n')
  const assertions = findAssertions(ts, file, source)
  const assertionLines = new Set(assertions.map((assertion) => assertion.start))
  const failed = new Map()
  const other = new Map()
  for (const diagnostic of diagnostics) {
    const assertion = assertionAt(assertions, diagnostic.line)
    const into = assertion ? failed : other
    const line = assertion ? assertion.start : diagnostic.line
    const text = assertion ? assertion.text : lines[line - 1] ?? ''
    if (!into.has(line)) into.set(line, { line, name: `line ${line}: ${oneLine(text, 100)}`, message: oneLine(diagnostic.message, 400) })
  }
  const sorted = (map) => [...map.values()].sort((a, b) => a.line - b.line)
  return { file, assertionLines: assertionLines.size, failedLines: sorted(failed), otherErrorLines: sorted(other) }
}

/**
 * Errors that tsd reports inside the framework's own declarations (a test's module augmentation clashing with
 * them, say): named by message, since their line numbers move with every build.
 */
function declarationReport (file, diagnostics) {
  // Under one name for all of Enclave's files, so that moving a declaration between files changes nothing here.
  const inEnclave = !path.relative(repoRoot, path.resolve(file)).startsWith('..')
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

/** Runs tsd in `tree`; `{ files, assertionLines, failedLines, otherErrorLines, seconds }` (the last three are counts). */
export async function runTypeTests (tree, filePattern) {
  const requireInTree = createRequire(path.join(tree, 'package.json'))
  const tsd = requireInTree('tsd').default
  const ts = requireInTree('typescript')
  const pattern = filePattern ? new RegExp(filePattern) : null
  const files = readdirSync(path.join(tree, TYPE_TESTS_DIR)).filter((name) => name.endsWith('.test-d.ts'))
    .map((name) => `${TYPE_TESTS_DIR}/${name}`).filter((file) => !pattern || pattern.test(file)).sort()
  if (files.length === 0) return null
  log(`type-checking ${files.length} type test files of fastify@4.29.1 with tsd`)
  const started = Date.now()
  const diagnostics = await tsd({ cwd: tree, testFiles: files })
  const byFile = new Map(files.map((file) => [file, []]))
  for (const diagnostic of diagnostics) {
    const relative = path.relative(tree, diagnostic.fileName)
    const file = relative.startsWith('..') ? diagnostic.fileName : relative.split(path.sep).join('/')
    if (!byFile.has(file)) byFile.set(file, [])
    byFile.get(file).push(diagnostic)
  }
  const reports = mergeReports([...byFile].map(([file, found]) => file.startsWith(`${TYPE_TESTS_DIR}/`)
    ? fileReport(ts, tree, file, found)
    : declarationReport(file, found)))
  const sum = (key) => reports.reduce((total, report) => total + (typeof report[key] === 'number' ? report[key] : report[key].length), 0)
  return {
    files: reports,
    assertionLines: sum('assertionLines'),
    failedLines: sum('failedLines'),
    otherErrorLines: sum('otherErrorLines'),
    seconds: Math.round((Date.now() - started) / 100) / 10
  }
}
