/**
 * The results per plugin, the official and the community plugins in separate tables: a console table, a Markdown
 * summary and the JSON written by --json. A flaky test (flaky-tests.txt) is counted apart, neither passed nor failed.
 */
import { writeJson, writeText } from '../../lib/report.mjs'

const percent = (passed, kept) => kept === 0 ? '–' : `${(Math.floor(passed / kept * 1000) / 10).toFixed(1)}%`

const emptyCounts = () => ({ files: 0, kept: 0, passed: 0, failed: 0, flaky: 0, lost: 0, skipped: 0, excluded: 0, errors: 0 })
const GROUP_TITLES = { official: 'the official plugins', community: 'the community plugins' }

function addCounts (into, counts) {
  for (const [key, value] of Object.entries(counts)) into[key] = (into[key] ?? 0) + value
  return into
}

function summarizeRuns (runs) {
  const total = emptyCounts()
  const plugins = runs.map((run) => {
    const counts = emptyCounts()
    for (const file of run.files) addCounts(counts, { files: 1, ...file.counts })
    addCounts(total, counts)
    return { name: run.name, version: run.version, group: run.group, notRun: run.notRun, counts }
  })
  const files = runs.flatMap((run) => run.files)
  return {
    plugins,
    total,
    brokenFiles: files.filter((file) => file.status !== 'ok').map(({ file, status, why, counts }) => ({ file, status, why, lost: counts.lost })),
    rerunFiles: files.filter((file) => file.rerunBecause).map(({ file, rerunBecause }) => ({ file, rerunBecause })),
    flakyTests: files.flatMap((file) => file.tests.filter((test) => test.status === 'flaky').map((test) => ({ file: file.file, name: test.name, outcome: test.outcome, evidence: test.evidence }))),
    files
  }
}

/**
 * `{ target, seconds, plugins, total, files, brokenFiles, rerunFiles, flakyTests, groups }`. Each plugin run is
 * `{ name, version, group, files, notRun? }`; `files` (every file's result, named `<plugin>/<path>`) is what the
 * expectations gate reads; `groups` the same summary for the official plugins and for the community ones (those
 * that ran), each `{ name, ... }`.
 */
export function summarize (runs, { self, seconds, version }) {
  const groups = ['official', 'community']
    .filter((name) => runs.some((run) => run.group === name))
    .map((name) => ({ name, ...summarizeRuns(runs.filter((run) => run.group === name)) }))
  return { target: self ? `fastify@${version} (--self)` : 'enclave', seconds: Math.round(seconds), ...summarizeRuns(runs), groups }
}

const rowOf = (plugin) => plugin.notRun
  ? [plugin.name, plugin.version, '', '', '', '', `not run: ${plugin.notRun}`]
  : [plugin.name, plugin.version, plugin.counts.files, plugin.counts.kept, plugin.counts.passed, plugin.counts.failed, plugin.counts.flaky, percent(plugin.counts.passed, plugin.counts.kept)]

const totalRow = (total) => [total.files, total.kept, total.passed, total.failed, total.flaky, percent(total.passed, total.kept)]

export function renderMarkdown (summary) {
  const lines = [`# Plugins' own tests on ${summary.target}`, '', `${summary.seconds} s in all.`]
  for (const group of summary.groups) {
    lines.push('', `## ${GROUP_TITLES[group.name]}`, '',
      `${group.plugins.length} plugins, ${group.total.files} files, ${group.total.kept} kept tests (top-level tests of each file), ${group.total.flaky} flaky (not counted).`,
      '',
      '| plugin | version | files | kept tests | passed | failed | flaky | passed % |',
      '|---|---|---:|---:|---:|---:|---:|---:|')
    for (const plugin of group.plugins) lines.push(`| ${rowOf(plugin).join(' | ')} |`)
    lines.push(`| **all** | | ${totalRow(group.total).join(' | ')} |`)
  }
  lines.push('', '## Files that end early (stopped, crashed or hung)', '')
  if (summary.brokenFiles.length === 0) lines.push('None.')
  for (const broken of summary.brokenFiles) lines.push(`- \`${broken.file}\` **${broken.status}**: ${broken.why}; ${broken.lost} tests lost`)
  for (const rerun of summary.rerunFiles) lines.push(`- \`${rerun.file}\` stopped in the flaky test "${rerun.rerunBecause}" and was run once more; the second run is the one counted`)
  lines.push('', '## Flaky tests (flaky-tests.txt: outcome this run, evidence)', '')
  if (summary.flakyTests.length === 0) lines.push('None ran.')
  for (const flaky of summary.flakyTests) lines.push(`- \`${flaky.file}\` "${flaky.name}": ${flaky.outcome} (${flaky.evidence})`)
  return lines.join('\n') + '\n'
}

export function renderConsole (summary) {
  const lines = []
  const widths = [34, 8, 5, 6, 6, 6, 5, 7]
  const row = (cells) => cells.map((cell, index) => index < 2 ? String(cell).padEnd(widths[index]) : String(cell).padStart(widths[index])).join(' ')
  for (const group of summary.groups) {
    lines.push('', `${GROUP_TITLES[group.name]}' tests on ${summary.target}`, '')
    lines.push(row(['plugin', 'version', 'files', 'kept', 'passed', 'failed', 'flaky', 'pass %']))
    for (const plugin of group.plugins) lines.push(row(rowOf(plugin)))
    lines.push(row(['all', '', ...totalRow(group.total)]))
  }
  lines.push('', `${summary.seconds} s in all`)
  for (const broken of summary.brokenFiles) lines.push(`${broken.status}: ${broken.file}: ${broken.why}; ${broken.lost} tests lost`)
  for (const rerun of summary.rerunFiles) lines.push(`rerun: ${rerun.file}: stopped in the flaky test "${rerun.rerunBecause}"; the second run is the one counted`)
  for (const flaky of summary.flakyTests) lines.push(`flaky: ${flaky.file} :: ${flaky.name}: ${flaky.outcome} this run (${flaky.evidence})`)
  lines.push('')
  return lines.join('\n') + '\n'
}

export { writeJson, writeText }
