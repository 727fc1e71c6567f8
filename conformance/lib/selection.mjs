/**
 * Which of Fastify's test files run, in which area each counts, and which single tests are skipped — all read
 * from the level's committed lists beside the runner (excluded-files.txt, areas.txt, skipped-tests.txt for 4.29.1;
 * the same names with `-5` for 5.12.8).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { conformanceDir, log } from './paths.mjs'
import { readEntries, indexEntries } from './entry-lines.mjs'
import { DEFAULT_LEVEL } from './levels.mjs'

export const AREAS = ['hooks', 'errors', 'reply', 'lifecycle', 'routing', 'encapsulation', 'security', 'schema', 'content', 'other']

/** Non-comment lines of a committed list, split on runs of spaces. */
function readColumns (name) {
  return readFileSync(path.join(conformanceDir, name), 'utf8').split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/))
}

/** Every file Fastify's runner runs (4's .taprc, 5's .borp.yaml): test/**\/*.test.js and .test.mjs, sorted. */
function listTestFiles (tree, dir = 'test') {
  const files = []
  for (const entry of readdirSync(path.join(tree, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`
    if (entry.isDirectory()) files.push(...listTestFiles(tree, relative))
    else if (/\.test\.m?js$/.test(entry.name)) files.push(relative)
  }
  return files.sort()
}

export function loadAreas (level = DEFAULT_LEVEL) {
  return new Map(readColumns(level.areas).map(([file, area]) => {
    if (!AREAS.includes(area)) throw new Error(`${level.areas}: unknown area "${area}" for ${file}`)
    return [file, area]
  }))
}

/** The kept files of `tree`, filtered by `--file` (a regular expression on the path), each `{ file, area }`. */
export function selectFiles (tree, filePattern, level = DEFAULT_LEVEL) {
  const excluded = readColumns(level.excluded).map(([entry]) => entry)
  const isExcluded = (file) => excluded.some((entry) => entry.endsWith('/') ? file.startsWith(entry) : file === entry)
  const areas = loadAreas(level)
  const kept = listTestFiles(tree).filter((file) => !isExcluded(file))
  for (const file of kept) if (!areas.has(file)) log(`warning: ${file} has no area in conformance/${level.areas}; counted as other`)
  for (const file of areas.keys()) if (!kept.includes(file)) log(`warning: conformance/${level.areas} names ${file}, which is not a kept test file`)
  const pattern = filePattern ? new RegExp(filePattern) : null
  return kept.filter((file) => !pattern || pattern.test(file)).map((file) => ({ file, area: areas.get(file) ?? 'other' }))
}

/** The level's skipped-tests list: `file` → (`test name` → reason), for the preload. */
export function loadSkippedTests (level = DEFAULT_LEVEL) {
  const byFile = indexEntries(readEntries(path.join(conformanceDir, level.skipped)))
  return (file) => Object.fromEntries([...(byFile.get(file) ?? new Map())].map(([name, entry]) => [name, entry.reason]))
}
