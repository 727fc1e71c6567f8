/**
 * The compile cache's file, a pack: one JSON header line, the code (a JavaScript array of factories), then V8's code
 * caches (bytecode) for that code, one per V8 version tag.
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
 * The header holds the SHA-256 and length of the code and of each code cache: a truncated, corrupt or foreign file
 * decodes to nothing, as if absent, and a damaged code cache is never handed to V8 (which checks its version and
 * flags, not its bytes). Each code cache also names the runtime that made it (Node's and V8's versions, the CPU
 * architecture): the tag is V8's own promise, and a cache made by another Node is not handed to V8 even when the
 * two tags happen to agree.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cachedDataVersionTag } from 'node:v8'
import { isPlainObject } from '../core/objects'

const FORMAT = 'enclave-compile-cache'
const MAX_CODE_CACHES = 4

/** Each entry's key and where its factory's code lies in the source. */
export type PackIndex = Array<[key: string, start: number, end: number]>

/** A V8 code cache of a pack's source: the version tag of the processes that can use it, and its SHA-256. */
export interface CodeCache {
  tag: number
  /** The runtime that made it (`thisRuntime`). */
  runtime: string
  data: Buffer
  hash: string
}

export interface Pack {
  source: string
  index: PackIndex
  codeCaches: CodeCache[]
}

/** The bytes of a pack. */
export function encodePack (fingerprint: string, { source, index, codeCaches }: Pack): Buffer {
  const sourceBytes = Buffer.from(source)
  const header = JSON.stringify({
    format: FORMAT,
    fingerprint,
    sourceLength: sourceBytes.length,
    sourceHash: sha256(sourceBytes),
    codeCaches: codeCaches.map(({ tag, runtime, data, hash }) => [tag, data.length, hash, runtime]),
    index
  })
  return Buffer.concat([Buffer.from(header + '\n'), sourceBytes, ...codeCaches.map(({ data }) => data)])
}

/** The pack in `file`, or null when there is none or it is not a complete, intact pack of this fingerprint. */
export function readPack (file: string, fingerprint: string): Pack | null {
  let data: Buffer
  try {
    data = readFileSync(file)
  } catch {
    return null
  }
  return decodePack(data, fingerprint)
}

function decodePack (data: Buffer, fingerprint: string): Pack | null {
  const newline = data.indexOf(0x0a)
  if (newline === -1) return null
  let header: Record<string, unknown>
  try {
    header = JSON.parse(data.toString('utf8', 0, newline))
  } catch {
    return null
  }
  if (!isPlainObject(header) || header.format !== FORMAT || header.fingerprint !== fingerprint) return null
  const { sourceLength, sourceHash, codeCaches, index } = header
  if (!Number.isSafeInteger(sourceLength) || !isIndex(index) || !isCodeCacheList(codeCaches)) return null
  const start = newline + 1
  let end = start + (sourceLength as number)
  const sourceBytes = data.subarray(start, end)
  const caches = codeCaches.map(([tag, length, hash, runtime]) => ({ tag, runtime, data: data.subarray(end, (end += length)), hash }))
  if (end !== data.length || sha256(sourceBytes) !== sourceHash) return null
  return { source: sourceBytes.toString('utf8'), index, codeCaches: caches }
}

/** The code cache this process can use, if the pack has an intact one. */
export function ownCodeCache (pack: Pack): Buffer | undefined {
  const own = pack.codeCaches.find(isOwn)
  return own !== undefined && isIntact(own) ? own.data : undefined
}

/** Node's and V8's versions and the CPU architecture of this process: who may use a code cache it makes. */
export const thisRuntime = `node ${process.version} v8 ${process.versions.v8} ${process.arch}`

function isOwn (cache: CodeCache): boolean {
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
  return [{ tag: cachedDataVersionTag(), runtime: thisRuntime, data: own, hash: sha256(own) }, ...others].slice(0, MAX_CODE_CACHES)
}

function isIntact (cache: CodeCache): boolean {
  return sha256(cache.data) === cache.hash
}

/** What this process's V8 version tag depends on, in words: Node's version and the flags it was started with. */
export function describeV8Setup (): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim()
  return `Node ${process.version} with ${flags === '' ? 'no flags' : `the flags "${flags}"`}`
}

function sha256 (data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function isIndex (value: unknown): value is PackIndex {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && typeof item[0] === 'string' &&
    Number.isSafeInteger(item[1]) && Number.isSafeInteger(item[2]))
}

function isCodeCacheList (value: unknown): value is Array<[number, number, string, string]> {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && Number.isSafeInteger(item[0]) &&
    Number.isSafeInteger(item[1]) && item[1] >= 0 && typeof item[2] === 'string' && typeof item[3] === 'string')
}
