/**
 * The `types` area at the Fastify 5 level: fastify@5's own type tests (test/types/*.ts) checked by tstyche, as
 * Fastify's `npm run test:types` does (its tstyche.json, not published, only sets `testFileMatch` to that), run in
 * this process through tstyche's API with no reporter: its events are the results.
 *
 * The units are the assertions: each `expect(…).type.…()` call, and each `// @ts-expect-error <message>` directive,
 * which tstyche checks too (an error must occur on the next line and contain the message). Both are named by their
 * line: `line N: <text of the line>`. An assertion that tstyche never reached is lost and counts as failed: tstyche
 * checks no assertion of a file with a type error outside every `test()` and assertion, nor of a `test()` with one
 * inside its body outside assertions. Those errors are the file's error lines (a directive whose error did not occur
 * shows as such an error, "Unused '@ts-expect-error' directive": it is counted as that directive's failure instead).
 * Errors tstyche finds in declaration files (it checks them all, skipLibCheck or not) are reported by message.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { log } from './paths.mjs'
import { TYPES_PROJECT, declarationReport, namedLine, treeRelative, typesResult } from './type-reports.mjs'

const TYPE_TESTS_DIR = 'test/types'
const LOST = 'not checked: tstyche checks no assertion of a file (or test) with a type error outside assertions (see its error lines)'

/** The events that settle an assertion without a diagnostic. */
const VERDICTS = {
  'expect:pass': { passed: true },
  'expect:skip': { skipped: true },
  'expect:fixme': { skipped: true },
  'suppressed:match': { passed: true },
  'suppressed:ignore': { skipped: true }
}

/** A tstyche diagnostic's text, with its related diagnostics (the types compared, the suppressed error…). */
function messageOf (diagnostic) {
  const text = [diagnostic.text].flat().join(' ')
  const related = (diagnostic.related ?? []).map(messageOf).filter(Boolean)
  return related.length > 0 ? `${text} ${related.join(' ')}` : text
}

/** 1-based line of `position` in `sourceFile` (a TypeScript source file or tstyche's JSON file). */
const lineAt = (sourceFile, position) => sourceFile.getLineAndCharacterOfPosition(position).line + 1

/**
 * Every assertion of a collected test tree, as `{ node, start, end, text }` (tstyche's ExpectNode, from `expect` to
 * the end of its matcher, or its directive record); `lines` are the file's.
 */
function assertionsOf (tree, lines) {
  const { sourceFile } = tree
  const found = []
  const visit = (nodes) => {
    for (const node of nodes) {
      if (node.brand === 'expect') {
        const start = lineAt(sourceFile, node.node.getStart(sourceFile))
        found.push({ node, start, end: lineAt(sourceFile, node.matcherNode.getEnd()), text: lines[start - 1].trim() })
      }
      visit(node.children)
    }
  }
  visit(tree.children)
  for (const suppressed of tree.suppressedErrors ?? []) {
    if (suppressed.ignore) continue
    const line = lineAt(sourceFile, suppressed.directive.start)
    found.push({ node: suppressed, start: line, end: line, text: lines[line - 1].trim() })
  }
  return found.sort((a, b) => a.start - b.start)
}

/** What tstyche reported about one test file. */
class FileOutcome {
  constructor (tree) {
    this.lines = tree.sourceFile.text.split('\n')
    this.assertions = assertionsOf(tree, this.lines)
    this.byNode = new Map(this.assertions.map((assertion) => [assertion.node, assertion]))
    /** assertion → { passed } or { failed: message } */
    this.verdicts = new Map()
    this.errors = []
  }

  settle (node, verdict) {
    const assertion = this.byNode.get(node)
    if (assertion && !this.verdicts.get(assertion)?.failed) this.verdicts.set(assertion, verdict)
  }

  /** An error outside assertions at `line`, unless it falls inside one (then that assertion fails). */
  error (line, message) {
    const inside = this.assertions.filter((assertion) => assertion.start <= line && line <= assertion.end).at(-1)
    if (inside) this.verdicts.set(inside, { failed: message })
    else this.errors.push(namedLine(line, this.lines[line - 1] ?? '', message))
  }

  report (file) {
    const failed = []
    let lostLines = 0
    for (const assertion of this.assertions) {
      const verdict = this.verdicts.get(assertion)
      if (verdict?.passed || verdict?.skipped) continue
      if (!verdict) lostLines++
      failed.push(namedLine(assertion.start, assertion.text, verdict?.failed ?? LOST))
    }
    const unique = (lines) => [...new Map(lines.map((line) => [line.name, line])).values()].sort((a, b) => a.line - b.line)
    return { file, assertionLines: this.assertions.length, failedLines: unique(failed), otherErrorLines: unique(this.errors), lostLines }
  }
}

/** Collects tstyche's events into per-file outcomes and declaration errors; `problems` are the run's own failures. */
class Collector {
  constructor (tree) {
    this.tree = tree
    this.outcomes = new Map()
    this.declarations = new Map()
    this.problems = []
    this.current = null
  }

  on ([event, payload]) {
    if (event === 'collect:end') this.collected(payload.tree)
    else if (Object.hasOwn(VERDICTS, event)) this.current?.settle(payload.result.expect ?? payload.result.suppressed, VERDICTS[event])
    else if (event === 'expect:fail' || event === 'expect:error' || event === 'suppressed:error') {
      const node = payload.result.expect ?? payload.result.suppressed
      this.current?.settle(node, { failed: payload.diagnostics.map(messageOf).join(' ') })
    } else if (/^(file|test|collect|directive|project):error$/.test(event)) this.errors(payload.diagnostics)
    else if (event.endsWith(':error')) this.problems.push(`${event}: ${payload.diagnostics.map(messageOf).join(' ')}`)
  }

  collected (tree) {
    this.current = new FileOutcome(tree)
    this.outcomes.set(treeRelative(this.tree, tree.sourceFile.fileName), this.current)
  }

  errors (diagnostics) {
    for (const diagnostic of diagnostics) {
      if (diagnostic.category !== 'error') continue
      const message = messageOf(diagnostic)
      const origin = diagnostic.origin
      // An error with no place (a compiler option, say) is the project's.
      const file = origin ? treeRelative(this.tree, origin.sourceFile.fileName) : TYPES_PROJECT
      const line = origin ? lineAt(origin.sourceFile, origin.start) : 0
      const outcome = this.outcomes.get(file)
      if (outcome) outcome.error(line, message)
      else {
        if (!this.declarations.has(file)) this.declarations.set(file, [])
        this.declarations.get(file).push({ line, message })
      }
    }
  }
}

/** The test files of `tree` that tstyche checks, as Fastify's config selects them, narrowed by `filePattern`. */
function testFiles (tree, filePattern) {
  const pattern = filePattern ? new RegExp(filePattern) : null
  return readdirSync(path.join(tree, TYPE_TESTS_DIR)).filter((name) => /\.ts$/.test(name))
    .map((name) => `${TYPE_TESTS_DIR}/${name}`).filter((file) => !pattern || pattern.test(file)).sort()
}

/** Runs tstyche on the type tests of `tree` (those matching `filePattern`); the area's result (type-reports.mjs), or null. */
export async function runTstyche (tree, filePattern, version) {
  const files = testFiles(tree, filePattern)
  if (files.length === 0) return null
  return checkWithTstyche(tree, files, `fastify@${version}`, [`${TYPE_TESTS_DIR}/*.ts`])
}

/**
 * Checks `files` (paths relative to `tree`) with the tstyche and TypeScript that `tree` resolves, `testFileMatch`
 * being tstyche's option of that name; the result as runTstyche's. `label` names what is checked in the log line.
 */
export async function checkWithTstyche (tree, files, label, testFileMatch = files) {
  const requireInTree = createRequire(path.join(tree, 'package.json'))
  const tstyche = await import(pathToFileURL(requireInTree.resolve('tstyche/api')).href)
  const typescript = JSON.parse(readFileSync(requireInTree.resolve('typescript/package.json'), 'utf8')).version
  log(`type-checking ${files.length} type test files of ${label} with tstyche ${tstyche.Runner.version} (TypeScript ${typescript})`)
  const started = Date.now()
  const collector = new Collector(tree)
  const events = new tstyche.EventEmitter()
  events.addHandler(collector)
  try {
    const config = tstyche.Config.resolve({
      configFileOptions: { testFileMatch },
      commandLineOptions: { root: tree, reporters: [], quiet: true }
    })
    await new tstyche.Runner(config).run(files.map((file) => path.join(tree, file)))
  } finally {
    events.removeHandler(collector)
  }
  if (collector.problems.length > 0) throw new Error(`tstyche could not run the type tests:\n${collector.problems.join('\n')}`)
  const reports = files.map((file) => collector.outcomes.get(file)?.report(file) ??
    { file, assertionLines: 0, failedLines: [], otherErrorLines: [{ line: 0, name: 'not checked', message: 'tstyche collected no test tree (a syntax error?)' }] })
  for (const [file, diagnostics] of collector.declarations) reports.push(declarationReport(file, diagnostics))
  return typesResult('tstyche', reports, started)
}
