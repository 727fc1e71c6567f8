/**
 * The compile cache's file, a pack: one JSON header line, the entries' keys, the code (a JavaScript array of
 * factories), then V8's code caches (bytecode) for that code, one per V8 version tag, each at an offset that is a
 * multiple of 8 (V8 copies a code cache it is given at any other address before reading it: ~3 ms at 1,000 routes).
 *
 * V8 accepts a code cache only in a process of the same tag (`v8.cachedDataVersionTag()`: V8's version, the flags the
 * process runs with, the CPU's features), and a flag as common as `--max-old-space-size` changes it on Node 20 and 22
 * (on 24, `--stack-size` or `--jitless` do). With a single
 * code cache, a pack built by `enclave precompile` without the service's flags would be compiled from source at every
 * start of the service (at 1,000 routes its `ready()` took 288 ms instead of 115), and two processes of different
 * flags sharing a directory would each rewrite the pack for their own. So a pack keeps the code caches of up to four
 * tags, the latest written first; a process whose tag has none compiles the code from source, and its write adds
 * one to those made for the same code.
 *
 * The header holds the length and CRC-32 of the keys and code (a CRC-32 that covers the header's index of them too),
 * and of each code cache: a truncated, corrupt or foreign file decodes to nothing, as if absent, and a damaged code
 * cache is never handed to V8 (which checks its version and flags, not its bytes). Each code cache also names the
 * runtime that made it (Node's and V8's versions, the CPU architecture): the tag is V8's own promise, and a cache
 * made by another Node is not handed to V8 even when the two tags happen to agree.
 *
 * The keys are not in the header but in raw text after it, their lengths in the header: a key holds a schema's JSON,
 * which JSON.parse would read back escape by escape (at 1,000 routes, a 590 kB header took ~6 ms to parse; the raw
 * keys are one decode and 2,000 slices). Text that is all ASCII, as generated code and JSON usually are, is decoded
 * as Latin-1, the quicker decoder that reads ASCII just as well.
 */
import { isAscii } from 'node:buffer'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { cachedDataVersionTag } from 'node:v8'
import { crc32 } from '../core/crc32'
import { isPlainObject } from '../core/objects'

/** The pack's format, in its header and in its fingerprint (compile-cache-fingerprint.ts): the one place to bump. */
export const PACK_FORMAT = 'enclave-compile-cache 6'
const MAX_CODE_CACHES = 4
/** A code cache's offset in the file is a multiple of this. */
const CODE_CACHE_ALIGNMENT = 8
/** The first read of a pack, for its header (about 40 kB at 1,000 routes); a longer header is read in larger chunks. */
const HEADER_CHUNK = 64 * 1024

/** Each entry's key and where its factory's code lies in the source. */
export type PackIndex = Array<[key: string, start: number, end: number]>

/** A V8 code cache of a pack's source: the version tag of the processes that can use it, and its CRC-32. */
export interface CodeCache {
  tag: number
  /** The runtime that made it (`thisRuntime`). */
  runtime: string
  data: Buffer
  checksum: number
}

export interface Pack {
  source: string
  index: PackIndex
  codeCaches: CodeCache[]
}

/** The bytes of a pack. */
export function encodePack (fingerprint: string, { source, index, codeCaches }: Pack): Buffer {
  const text = Buffer.from(index.map(([key]) => key).join('') + source)
  // per entry: its key's length, and its code's start and end in the source
  const flatIndex = index.flatMap(([key, start, end]) => [key.length, start, end])
  const headerFields = {
    format: PACK_FORMAT,
    fingerprint,
    textLength: text.length,
    textChecksum: textChecksum(flatIndex, text),
    sourceLength: source.length,
    index: flatIndex,
    codeCaches: codeCaches.map(({ tag, runtime, data, checksum }) => [tag, data.length, checksum, runtime])
  }
  const header = Buffer.from(JSON.stringify(headerFields) + '\n')
  const parts: Uint8Array[] = [header, text]
  let offset = header.length + text.length
  for (const { data } of codeCaches) {
    const padding = alignedOffset(offset) - offset
    if (padding > 0) parts.push(Buffer.alloc(padding))
    parts.push(data)
    offset += padding + data.length
  }
  return Buffer.concat(parts, offset)
}

/** The CRC-32 of the index (as the header writes it) and the text: a damaged offset would otherwise go unnoticed. */
function textChecksum (flatIndex: number[], text: Uint8Array): number {
  return crc32(text, crc32(Buffer.from(JSON.stringify(flatIndex))))
}

function alignedOffset (offset: number): number {
  return Math.ceil(offset / CODE_CACHE_ALIGNMENT) * CODE_CACHE_ALIGNMENT
}

/**
 * The pack in `file`, or null when there is none or it is not a complete, intact pack of this fingerprint. With
 * `codeCaches: 'own'` (a start), only the code cache this process can use is read, into the memory the text was read
 * into: fresh memory is the dearest part of reading a pack (a 4 MB code cache read into pages the text has already
 * used costs a fraction of reading it into new ones), and the other code caches matter only to a rewrite, which
 * reads the file again with `'all'`.
 */
export function readPack (file: string, fingerprint: string, codeCaches: 'own' | 'all' = 'all'): Pack | null {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return null
  }
  try {
    return decodePack(fd, fingerprint, codeCaches)
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** Fills `target` with the file's bytes from `position` on (false when the file ends first). */
function readAt (fd: number, target: Buffer, position: number): boolean {
  let done = 0
  while (done < target.length) {
    const read = readSync(fd, target, done, target.length - done, position + done)
    if (read === 0) return false
    done += read
  }
  return true
}

/** The header line (without its newline), read in growing chunks; null when the file has none. */
function readHeader (fd: number, size: number): Buffer | null {
  let chunk = Buffer.allocUnsafe(Math.min(size, HEADER_CHUNK))
  for (;;) {
    if (!readAt(fd, chunk, 0)) return null
    const newline = chunk.indexOf(0x0a)
    if (newline !== -1) return chunk.subarray(0, newline)
    if (chunk.length === size) return null
    chunk = Buffer.allocUnsafe(Math.min(size, chunk.length * 4))
  }
}

function decodePack (fd: number, fingerprint: string, which: 'own' | 'all'): Pack | null {
  const size = fstatSync(fd).size
  const headerBytes = readHeader(fd, size)
  if (headerBytes === null) return null
  let header: Record<string, unknown>
  try {
    header = JSON.parse(headerBytes.toString('utf8'))
  } catch {
    return null
  }
  if (!isPlainObject(header) || header.format !== PACK_FORMAT || header.fingerprint !== fingerprint) return null
  const { textLength, sourceLength, index, codeCaches } = header
  if (!isLength(textLength) || !isLength(sourceLength) || !isCodeCacheList(codeCaches) || !isIndexData(index)) return null
  const textStart = headerBytes.length + 1
  let end = textStart + textLength
  const layout = codeCaches.map(([tag, length, checksum, runtime]) => {
    const offset = alignedOffset(end)
    end = offset + length
    return { tag, runtime, checksum, offset, length }
  })
  if (end !== size) return null
  const wanted = which === 'all' ? layout : layout.filter(isOwn).slice(0, 1)
  // the text, then (for a start) the one code cache, in the same memory
  const shared = Buffer.allocUnsafeSlow(Math.max(textLength, ...wanted.map(({ length }) => length)))
  const textBytes = shared.subarray(0, textLength)
  if (!readAt(fd, textBytes, textStart) || textChecksum(index, textBytes) !== header.textChecksum) return null
  const text = textBytes.toString(isAscii(textBytes) ? 'latin1' : 'utf8')
  const keysLength = text.length - sourceLength
  const entries = entriesOf(index, text, keysLength)
  if (entries === null) return null
  const caches: CodeCache[] = []
  for (const { tag, runtime, checksum, offset, length } of wanted) {
    const data = which === 'all' ? Buffer.allocUnsafeSlow(length) : shared.subarray(0, length)
    if (!readAt(fd, data, offset)) return null
    caches.push({ tag, runtime, data, checksum })
  }
  return { source: text.slice(keysLength), index: entries, codeCaches: caches }
}

/** The entries of a flat index (key length, code start, code end, …) over the text: the keys, then the source. */
function entriesOf (index: number[], text: string, keysLength: number): PackIndex | null {
  const entries: PackIndex = []
  let keyStart = 0
  for (let i = 0; i < index.length; i += 3) {
    const keyEnd = keyStart + index[i]
    entries.push([text.slice(keyStart, keyEnd), index[i + 1], index[i + 2]])
    keyStart = keyEnd
  }
  return keyStart === keysLength ? entries : null
}

/** The code cache this process can use, if the pack has an intact one. */
export function ownCodeCache (pack: Pack): Buffer | undefined {
  const own = pack.codeCaches.find(isOwn)
  return own !== undefined && isIntact(own) ? own.data : undefined
}

/** Node's and V8's versions and the CPU architecture of this process: who may use a code cache it makes. */
export const thisRuntime = `node ${process.version} v8 ${process.versions.v8} ${process.arch}`

function isOwn (cache: Pick<CodeCache, 'tag' | 'runtime'>): boolean {
  return cache.tag === cachedDataVersionTag() && cache.runtime === thisRuntime
}

/**
 * The code caches of a new pack of `source`: this process's (`own`) first, then those the pack on disk (`previous`)
 * holds for the very same source under other tags, at most four in all.
 */
export function codeCachesWith (own: Buffer, source: string, previous: Pack | null): CodeCache[] {
  const others = previous !== null && previous.source === source
    ? previous.codeCaches.filter((cache) => !isOwn(cache) && isIntact(cache))
    : []
  return [{ tag: cachedDataVersionTag(), runtime: thisRuntime, data: own, checksum: crc32(own) }, ...others].slice(0, MAX_CODE_CACHES)
}

function isIntact (cache: CodeCache): boolean {
  return crc32(cache.data) === cache.checksum
}

/** What this process's V8 version tag depends on, in words: Node's version and the flags it was started with. */
export function describeV8Setup (): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim()
  return `Node ${process.version} with ${flags === '' ? 'no flags' : `the flags "${flags}"`}`
}

function isLength (value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

/** Three lengths or offsets per entry. */
function isIndexData (value: unknown): value is number[] {
  return Array.isArray(value) && value.length % 3 === 0 && value.every(isLength)
}

function isCodeCacheList (value: unknown): value is Array<[number, number, number, string]> {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && Number.isSafeInteger(item[0]) &&
    isLength(item[1]) && isLength(item[2]) && typeof item[3] === 'string')
}
