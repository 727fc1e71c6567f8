/**
 * What keeps a compile-cache directory from growing without end: each upgrade of Enclave, Ajv, ajv-formats or
 * fast-json-stringify writes a pack of another fingerprint, and the old one would otherwise stay forever.
 *
 * - A pack is marked as used (its modification time refreshed) when a start loads it, so "unused" means no start read
 *   it, however long ago it was written.
 * - When a pack is written, packs of other fingerprints unused for {@link UNUSED_PACK_MS} are removed, and so are
 *   temporary files a writer killed mid-write left behind ({@link ABANDONED_WRITE_MS}). Only file names this cache
 *   writes are considered; a removed pack only means a cold start for whichever version still wanted it.
 *
 * Everything here is best effort: a read-only or shared directory never fails the application.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs'
import path from 'node:path'

/** A month: long enough that a version still deployed somewhere is started (and so marked used) in between. */
export const UNUSED_PACK_MS = 30 * 24 * 60 * 60 * 1000
/** A write renames its temporary file within seconds; one an hour old belongs to a process that died. */
export const ABANDONED_WRITE_MS = 60 * 60 * 1000

const packName = /^enclave-compile-cache-[0-9a-f]{16}\.pack$/
const temporaryName = /^enclave-compile-cache-[0-9a-f]{16}\.pack\.\d+\.[0-9a-f]{12}\.tmp$/

/** The pack of a fingerprint in `dir` (a name `pruneCacheDir` recognises). */
export function packFile (dir: string, fingerprint: string): string {
  return path.join(dir, `enclave-compile-cache-${fingerprint.slice(0, 16)}.pack`)
}

/** The temporary file a write of `pack` goes to before it is renamed over it (a name `pruneCacheDir` recognises). */
export function temporaryPackFile (pack: string): string {
  return `${pack}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
}

/** Marks `file` as used now (fails quietly on a read-only directory: nothing there is ever pruned either). */
export function markPackUsed (file: string): void {
  try {
    const now = new Date()
    utimesSync(file, now, now)
  } catch {
    // read-only cache: nothing to record
  }
}

/** Removes stale packs of other fingerprints and abandoned temporary files from the directory of `current`. */
export function pruneCacheDir (current: string, now = Date.now()): string[] {
  const dir = path.dirname(current)
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const maxAge = packName.test(name) ? UNUSED_PACK_MS : temporaryName.test(name) ? ABANDONED_WRITE_MS : undefined
    const file = path.join(dir, name)
    if (maxAge === undefined || file === current || !olderThan(file, now - maxAge)) continue
    try {
      rmSync(file, { force: true })
      removed.push(name)
    } catch {
      // another process removed it, or the directory became read-only: harmless
    }
  }
  return removed
}

function olderThan (file: string, limit: number): boolean {
  try {
    return statSync(file).mtimeMs < limit
  } catch {
    return false
  }
}
