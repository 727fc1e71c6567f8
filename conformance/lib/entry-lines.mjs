/**
 * The line format of the committed lists (skipped-tests.txt, expectations.txt): `file :: test name :: reason`,
 * one entry a line, `#` comments and blank lines ignored. A name may itself contain ' :: ': the file is the first
 * field and the reason the last.
 */
import { readFileSync } from 'node:fs'

export const SEPARATOR = ' :: '

/** `[{ file, name, reason, line }]`; `line` is the 1-based line number, for messages and rewrites. */
export function readEntries (path) {
  const entries = []
  readFileSync(path, 'utf8').split('\n').forEach((text, index) => {
    if (text.trim() === '' || text.startsWith('#')) return
    const fields = text.split(SEPARATOR)
    if (fields.length < 3) throw new Error(`${path}:${index + 1}: expected "file${SEPARATOR}test name${SEPARATOR}reason"`)
    entries.push({ file: fields[0].trim(), name: fields.slice(1, -1).join(SEPARATOR), reason: fields.at(-1).trim(), line: index + 1 })
  })
  return entries
}

export function formatEntry (file, name, reason) {
  return [file, name, reason].join(SEPARATOR)
}

/**
 * Whether an entry holds under the running Node: one whose reason starts with `node>=N:` names what a Node line's
 * own behaviour changed (the test fails on the real framework there too), and holds only under Node N or later.
 */
export function holdsOnThisNode (entry) {
  const match = /^node>=(\d+):/.exec(entry.reason)
  return match === null || Number(process.versions.node.split('.')[0]) >= Number(match[1])
}

/** `file` → (`name` → entry). */
export function indexEntries (entries) {
  const byFile = new Map()
  for (const entry of entries) {
    if (!byFile.has(entry.file)) byFile.set(entry.file, new Map())
    byFile.get(entry.file).set(entry.name, entry)
  }
  return byFile
}
