/**
 * The `types` area: Fastify's own type tests checked against the framework's declarations (through the tree's
 * fastify.d.ts and types/ shims), by the checker the level names (conformance/lib/levels.mjs). Fastify 4.29.1's
 * (test/types/*.test-d.ts) run here with tsd; Fastify 5's run with tstyche (tstyche-tests.mjs). With tsd the unit is
 * the assertion: each tsd call (expectType, expectError, …), named by the line it starts on. An assertion fails when a
 * diagnostic falls inside it; a diagnostic outside every assertion (an import of a type the framework lacks, say) is
 * an error line.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { log } from './paths.mjs'
import { runTstyche } from './tstyche-tests.mjs'
import { declarationReport, namedLine, treeRelative, typesResult } from './type-reports.mjs'

const ASSERTIONS = new Set(['expectType', 'expectNotType', 'expectAssignable', 'expectNotAssignable', 'expectError',
  'expectDeprecated', 'expectNotDeprecated', 'expectNever', 'printType', 'expectDocCommentIncludes'])
const TYPE_TESTS_DIR = 'test/types'

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
    if (!into.has(line)) into.set(line, namedLine(line, text, diagnostic.message))
  }
  const sorted = (map) => [...map.values()].sort((a, b) => a.line - b.line)
  return { file, assertionLines: assertionLines.size, failedLines: sorted(failed), otherErrorLines: sorted(other) }
}

/** Runs tsd on the type tests of `tree` (those matching `filePattern`); the area's result (type-reports.mjs), or null. */
async function runTsd (tree, filePattern, version) {
  const pattern = filePattern ? new RegExp(filePattern) : null
  const files = readdirSync(path.join(tree, TYPE_TESTS_DIR)).filter((name) => name.endsWith('.test-d.ts'))
    .map((name) => `${TYPE_TESTS_DIR}/${name}`).filter((file) => !pattern || pattern.test(file)).sort()
  if (files.length === 0) return null
  return checkWithTsd(tree, files, `fastify@${version}`)
}

/**
 * Checks `files` (paths relative to `tree`, the package whose types they test) with the tsd that `tree` resolves; the
 * result as runTsd's (a file in `files`' folders reported by line, others by message). `label` names them in the log line.
 */
export async function checkWithTsd (tree, files, label) {
  const requireInTree = createRequire(path.join(tree, 'package.json'))
  const tsd = requireInTree('tsd').default
  const ts = requireInTree('typescript')
  log(`type-checking ${files.length} type test files of ${label} with tsd`)
  const started = Date.now()
  const diagnostics = await tsd({ cwd: tree, testFiles: files })
  const byFile = new Map(files.map((file) => [file, []]))
  for (const diagnostic of diagnostics) {
    const file = treeRelative(tree, diagnostic.fileName)
    if (!byFile.has(file)) byFile.set(file, [])
    byFile.get(file).push(diagnostic)
  }
  const testDirs = new Set(files.map((file) => path.posix.dirname(file)))
  return typesResult('tsd', [...byFile].map(([file, found]) => [...testDirs].some((dir) => file.startsWith(`${dir}/`))
    ? fileReport(ts, tree, file, found)
    : declarationReport(file, found)), started)
}

/** Runs the type tests of `tree` with the checker of `level` (`level.types.checker`); the area's result, or null. */
export async function runTypeTests (tree, filePattern, level) {
  if (level.types.checker === 'tstyche') return runTstyche(tree, filePattern, level.version)
  return runTsd(tree, filePattern, level.version)
}
