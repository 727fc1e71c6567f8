/** The results per plugin: a console table, a Markdown summary and the JSON written by --json. */
import { writeJson, writeText } from '../../lib/report.mjs'

const percent = (passed, kept) => kept === 0 ? '–' : `${(Math.floor(passed / kept * 1000) / 10).toFixed(1)}%`

const emptyCounts = () => ({ files: 0, kept: 0, passed: 0, failed: 0, lost: 0, skipped: 0, excluded: 0, errors: 0 })

function addCounts (into, counts) {
  for (const [key, value] of Object.entries(counts)) into[key] = (into[key] ?? 0) + value
  return into
}

/**
 * `{ target, seconds, plugins, total, files, brokenFiles }`. Each plugin run is `{ name, version, files, notRun? }`;
 * `files` (every file's result, named `<plugin>/<path>`) is what the expectations gate reads.
 */
export function summarize (runs, { self, seconds }) {
  const total = emptyCounts()
  const plugins = runs.map((run) => {
    const counts = emptyCounts()
    for (const file of run.files) addCounts(counts, { files: 1, ...file.counts })
    addCounts(total, counts)
    return { name: run.name, version: run.version, notRun: run.notRun, counts }
  })
  const files = runs.flatMap((run) => run.files)
  return {
    target: self ? 'fastify@4.29.1 (--self)' : 'enclave',
    seconds: Math.round(seconds),
    plugins,
    total,
    brokenFiles: files.filter((file) => file.status !== 'ok').map(({ file, status, why, counts }) => ({ file, status, why, lost: counts.lost })),
    files
  }
}

const rowOf = (plugin) => plugin.notRun
  ? [plugin.name, plugin.version, '', '', '', '', `not run: ${plugin.notRun}`]
  : [plugin.name, plugin.version, plugin.counts.files, plugin.counts.kept, plugin.counts.passed, plugin.counts.failed, percent(plugin.counts.passed, plugin.counts.kept)]

export function renderMarkdown (summary) {
  const lines = [
    `# The official plugins' own tests on ${summary.target}`,
    '',
    `${summary.plugins.length} plugins, ${summary.total.files} files, ${summary.total.kept} kept tests (top-level tests of each file), ${summary.seconds} s.`,
    '',
    '| plugin | version | files | kept tests | passed | failed | passed % |',
    '|---|---|---:|---:|---:|---:|---:|'
  ]
  for (const plugin of summary.plugins) lines.push(`| ${rowOf(plugin).join(' | ')} |`)
  lines.push(`| **all** | | ${summary.total.files} | ${summary.total.kept} | ${summary.total.passed} | ${summary.total.failed} | ${percent(summary.total.passed, summary.total.kept)} |`)
  lines.push('', '## Files that end early (stopped, crashed or hung)', '')
  if (summary.brokenFiles.length === 0) lines.push('None.')
  for (const broken of summary.brokenFiles) lines.push(`- \`${broken.file}\` **${broken.status}**: ${broken.why}; ${broken.lost} tests lost`)
  return lines.join('\n') + '\n'
}

export function renderConsole (summary) {
  const lines = ['', `the official plugins' tests on ${summary.target} (${summary.seconds} s)`, '']
  const widths = [26, 8, 5, 6, 6, 6, 7]
  const row = (cells) => cells.map((cell, index) => index < 2 ? String(cell).padEnd(widths[index]) : String(cell).padStart(widths[index])).join(' ')
  lines.push(row(['plugin', 'version', 'files', 'kept', 'passed', 'failed', 'pass %']))
  for (const plugin of summary.plugins) lines.push(row(rowOf(plugin)))
  lines.push(row(['all', '', summary.total.files, summary.total.kept, summary.total.passed, summary.total.failed, percent(summary.total.passed, summary.total.kept)]))
  for (const broken of summary.brokenFiles) lines.push(`${broken.status}: ${broken.file}: ${broken.why}; ${broken.lost} tests lost`)
  lines.push('')
  return lines.join('\n') + '\n'
}

export { writeJson, writeText }
