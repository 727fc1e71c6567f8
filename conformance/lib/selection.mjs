/**
 * Which of Fastify's test files run, in which area each counts, and which single tests are skipped — all read
 * from the committed lists beside the runner (excluded-files.txt, areas.txt, skipped-tests.txt).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { conformanceDir, log } from './paths.mjs'
import { readEntries, indexEntries } from './entry-lines.mjs'

export const AREAS = ['hooks', 'errors', 'reply', 'lifecycle', 'routing', 'encapsulation', 'security', 'schema', 'content', 'other']

/** Non-comment lines of a committed list, split on runs of spaces. */
function readColumns (name) {
  return readFileSync(path.join(conformanceDir, name), 'utf8').split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/))
}

/** Every file Fastify's .taprc runs: test/**\/*.test.js and .test.mjs, package-relative, sorted. */
function listTestFiles (tree, dir = 'test') {
  const files = []
  for (const entry of readdirSync(path.join(tree, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`
    if (entry.isDirectory()) files.push(...listTestFiles(tree, relative))
    else if (/\.test\.m?js$/.test(entry.name)) files.push(relative)
  }
  return files.sort()
}

export function loadAreas () {
  return new Map(readColumns('areas.txt').map(([file, area]) => {
    if (!AREAS.includes(area)) throw new Error(`areas.txt: unknown area "${area}" for ${file}`)
    return [file, area]
  }))
}

/** The kept files of `tree`, filtered by `--file` (a regular expression on the path), each `{ file, area }`. */
export function selectFiles (tree, filePattern) {
  const excluded = readColumns('excluded-files.txt').map(([entry]) => entry)
  const isExcluded = (file) => excluded.some((entry) => entry.endsWith('/') ? file.startsWith(entry) : file === entry)
  const areas = loadAreas()
  const kept = listTestFiles(tree).filter((file) => !isExcluded(file))
  for (const file of kept) if (!areas.has(file)) log(`warning: ${file} has no area in conformance/areas.txt; counted as other`)
  for (const file of areas.keys()) if (!kept.includes(file)) log(`warning: conformance/areas.txt names ${file}, which is not a kept test file`)
  const pattern = filePattern ? new RegExp(filePattern) : null
  return kept.filter((file) => !pattern || pattern.test(file)).map((file) => ({ file, area: areas.get(file) ?? 'other' }))
}

/** skipped-tests.txt: `file` → (`test name` → reason), for the preload. */
export function loadSkippedTests () {
  const byFile = indexEntries(readEntries(path.join(conformanceDir, 'skipped-tests.txt')))
  return (file) => Object.fromEntries([...(byFile.get(file) ?? new Map())].map(([name, entry]) => [name, entry.reason]))
}
