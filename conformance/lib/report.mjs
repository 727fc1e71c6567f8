/** The results as numbers per area and per file: JSON for tools, Markdown for people, a short table for the console. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { AREAS } from './selection.mjs'
import { DEFAULT_LEVEL } from './levels.mjs'

const percent = (passed, kept) => kept === 0 ? '–' : `${(Math.floor(passed / kept * 1000) / 10).toFixed(1)}%`

function addCounts (into, counts) {
  for (const [key, value] of Object.entries(counts)) into[key] = (into[key] ?? 0) + value
  return into
}

const emptyCounts = () => ({ files: 0, kept: 0, passed: 0, failed: 0, lost: 0, skipped: 0, excluded: 0, errors: 0 })

/** `{ version, target, seconds, areas, total, files, brokenFiles, types }`, the JSON written by --json. */
export function summarize (files, types, { self, seconds, version = DEFAULT_LEVEL.version }) {
  const areas = Object.fromEntries(AREAS.map((area) => [area, emptyCounts()]))
  const total = emptyCounts()
  for (const file of files) {
    addCounts(areas[file.area], { files: 1, ...file.counts })
    addCounts(total, { files: 1, ...file.counts })
  }
  return {
    version,
    target: self ? `fastify@${version} (--self)` : 'enclave',
    seconds: Math.round(seconds),
    areas,
    total,
    brokenFiles: files.filter((file) => file.status !== 'ok').map(({ file, status, why, counts, stderrTail }) => ({ file, status, why, lost: counts.lost, stderrTail })),
    files,
    types
  }
}

/** Type-test files checked (the report also lists Enclave declaration files that had errors). */
const typeTestFiles = (types) => types.files.filter((file) => file.file.startsWith('test/types/')).length

/** What the types area counts: tsd's assertion lines, or tstyche's assertions (expect calls and error directives). */
const typeUnits = (types) => types.checker === 'tstyche' ? 'assertions' : 'assertion lines'
const notChecked = (types) => types.lostLines ? `, ${types.lostLines} of the failing not checked` : ''

function areaRows (summary) {
  const rows = AREAS.filter((area) => summary.areas[area].files > 0).map((area) => [area, summary.areas[area]])
  if (summary.total.files > 0) rows.push(['**all**', summary.total])
  return rows
}

export function renderMarkdown (summary) {
  const lines = [
    `# Fastify ${summary.version}'s tests on ${summary.target}`,
    '',
    `${summary.total.files} files, ${summary.total.kept} kept tests (top-level tests of each file; ${summary.total.excluded} skipped as reading Fastify's private modules, ${summary.total.skipped} skipped by the tests themselves), ${summary.seconds} s.`,
    '',
    '| area | files | kept tests | passed | failed | of which lost | passed % |',
    '|---|---:|---:|---:|---:|---:|---:|'
  ]
  for (const [area, c] of areaRows(summary)) {
    lines.push(`| ${area} | ${c.files} | ${c.kept} | ${c.passed} | ${c.failed} | ${c.lost} | ${percent(c.passed, c.kept)} |`)
  }
  if (summary.types) {
    const t = summary.types
    lines.push('', `**types** (${t.checker}, ${typeTestFiles(t)} files): ${t.assertionLines} ${typeUnits(t)}, ${t.failedLines} failing ` +
      `(${percent(t.assertionLines - t.failedLines, t.assertionLines)} pass${notChecked(t)}), plus ${t.otherErrorLines} error lines outside assertions.`)
  }
  lines.push('', '## Files that end early (stopped, crashed or hung)', '')
  if (summary.brokenFiles.length === 0) lines.push('None.')
  for (const broken of summary.brokenFiles) lines.push(`- \`${broken.file}\` **${broken.status}**: ${broken.why}; ${broken.lost} tests lost`)
  lines.push('', '## Per file', '', '| file | area | kept | passed | failed | status |', '|---|---|---:|---:|---:|---|')
  for (const file of summary.files) {
    lines.push(`| \`${file.file}\` | ${file.area} | ${file.counts.kept} | ${file.counts.passed} | ${file.counts.failed} | ${file.status} |`)
  }
  if (summary.types) {
    lines.push('', '## Type tests per file', '', `| file | ${typeUnits(summary.types)} | failing | other error lines |`, '|---|---:|---:|---:|')
    for (const file of summary.types.files) lines.push(`| \`${file.file}\` | ${file.assertionLines} | ${file.failedLines.length} | ${file.otherErrorLines.length} |`)
  }
  return lines.join('\n') + '\n'
}

export function renderConsole (summary) {
  const lines = ['', `fastify@${summary.version}'s tests on ${summary.target} (${summary.seconds} s)`, '']
  lines.push(`${'area'.padEnd(14)} ${'files'.padStart(5)} ${'kept'.padStart(6)} ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'pass %'.padStart(7)}`)
  for (const [area, c] of areaRows(summary)) {
    lines.push(`${area.replace(/\*/g, '').padEnd(14)} ${String(c.files).padStart(5)} ${String(c.kept).padStart(6)} ${String(c.passed).padStart(6)} ${String(c.failed).padStart(6)} ${percent(c.passed, c.kept).padStart(7)}`)
  }
  if (summary.types) {
    const t = summary.types
    lines.push(`${'types'.padEnd(14)} ${String(typeTestFiles(t)).padStart(5)} ${String(t.assertionLines).padStart(6)} ${String(t.assertionLines - t.failedLines).padStart(6)} ${String(t.failedLines).padStart(6)} ${percent(t.assertionLines - t.failedLines, t.assertionLines).padStart(7)}  (${typeUnits(t)}${notChecked(t)}; ${t.otherErrorLines} error lines outside assertions)`)
  }
  for (const broken of summary.brokenFiles) lines.push(`${broken.status}: ${broken.file}: ${broken.why}; ${broken.lost} tests lost`)
  lines.push('')
  return lines.join('\n') + '\n'
}

export function writeText (file, text) {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  writeFileSync(file, text)
}

export function writeJson (file, summary) {
  writeText(file, JSON.stringify(summary, null, 1) + '\n')
}
