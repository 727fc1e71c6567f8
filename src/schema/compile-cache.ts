/**
 * The persistent compile cache (factory option `compileCache: { dir }`): the validators and serializers Enclave's
 * generators write, kept as code in one pack file per fingerprint, and loaded by the next start instead of being
 * generated and compiled again.
 *
 * - An entry is keyed by its kind, its compiler options and the schema's JSON, as they are (two schemas can never
 *   share an entry, and a start hashes nothing per schema); the pack's file name and
 *   header carry a fingerprint of everything the generated code depends on (Enclave's version and its generators'
 *   own code, the versions of Ajv, ajv-formats and fast-json-stringify). A changed schema has another key and a
 *   changed version another pack, so a stale entry is never loaded.
 * - A truncated, corrupt or foreign file is ignored (and rewritten once new entries are compiled). Writes go to a
 *   temporary file renamed over the pack: a reader sees the old pack or the new one, never half of one.
 * - The pack also holds V8's code caches for its code (bytecode), so a warm start neither parses nor compiles it: one
 *   per V8 version and flag set (compile-cache-pack.ts). A process whose own is missing compiles the code from
 *   source, and then writes the pack again with its code cache added.
 *
 * The directory holds code that runs in the application: it deserves the trust of `node_modules` (docs/security.md).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Script } from 'node:vm'
import { codes } from '../core/errors'
import { isPlainObject } from '../core/objects'
import { packFingerprint } from './compile-cache-fingerprint'
import { codeCachesWith, describeV8Setup, encodePack, ownCodeCache, readPack, type PackIndex } from './compile-cache-pack'
import { markPackUsed, packFile, pruneCacheDir, temporaryPackFile } from './compile-cache-housekeeping'

/** The option as given to the factory. */
export interface CompileCacheOptions {
  dir: string
}

/** A generated factory: `(runtime, argument) => compiled function`. */
export type GeneratedFactory = (runtime: unknown, argument: unknown) => unknown

interface Entry {
  key: string
  /** `function (rt, arg) { ... }`: the generator's source wrapped as a function expression. */
  code: string
}

/** What `flush` did. */
export interface FlushResult {
  file: string
  entries: number
  written: boolean
  /** Stale files of this cache the write removed: unused packs of other fingerprints, abandoned temporary files. */
  removed: string[]
}

/** Checks the factory option (fail-fast: a cache that cannot work should not be silently off). */
export function compileCacheFromOption (option: unknown): CompileCache | null {
  if (option === undefined || option === null || option === false) return null
  if (!isPlainObject(option) || typeof option.dir !== 'string' || option.dir === '') {
    throw new codes.FST_ERR_INIT_OPTS_INVALID('compileCache must be { dir: string } (a directory for generated code)')
  }
  return new CompileCache(path.resolve(option.dir))
}

export class CompileCache {
  readonly file: string
  /** Entries of the pack on disk, by key: their factories are evaluated when the pack is loaded. */
  #loaded: Map<string, GeneratedFactory> | null = null
  #loadedCode = new Map<string, string>()
  /** Entries this process used (loaded or new): what a pack written now holds. */
  readonly #used = new Map<string, Entry>()
  #script: Script | null = null
  #dirty = false
  #codeCacheMissing = false
  #pending: Promise<FlushResult> | null = null
  /** Stale files this cache's writes removed from the directory (compile-cache-housekeeping.ts). */
  readonly removed: string[] = []

  constructor (readonly dir: string) {
    this.file = packFile(dir, packFingerprint())
  }

  /**
   * The key of an entry: kind (`validator`, `serializer`, ...), options and the schema's JSON, verbatim. A digest
   * would be shorter, but hashing 2,000 schemas cost a warm start of 1,000 routes ~10 ms more than the longer keys
   * cost to read (bench/startup-phases.mjs).
   */
  static key (kind: string, options: string, json: string): string {
    return `${kind}\0${options}\0${json}`
  }

  /** The cached factory for `key`, or undefined. The first lookup loads the pack. */
  get (key: string): GeneratedFactory | undefined {
    this.#loaded ??= this.#load()
    const factory = this.#loaded.get(key)
    if (factory !== undefined && !this.#used.has(key)) this.#used.set(key, { key, code: this.#loadedCode.get(key)! })
    return factory
  }

  /**
   * Whether the pack holds the fact `key`: that a check passed under this fingerprint (a schema Ajv's meta-schema
   * accepted, say), so that a warm start need not make it again. A fact is an entry without code (`addFact`).
   */
  hasFact (key: string): boolean {
    return this.get(key) !== undefined
  }

  /** Records the fact `key`, for `hasFact` in later starts. */
  addFact (key: string): void {
    this.put(key, '', 'return true')
  }

  /** Records a newly generated entry (`body` is the body of a function of `params`), to be written by `flush`. */
  put (key: string, params: string, body: string): void {
    if (this.#used.has(key)) return
    this.#used.set(key, { key, code: `function (${params}) {\n${body}\n}` })
    this.#dirty = true
  }

  /** Whether a pack should be written: new entries, or a pack loaded without (usable) V8 code cache. */
  get needsFlush (): boolean {
    return this.#dirty || this.#codeCacheMissing
  }

  /** Writes the pack in the background, once the application is ready (at most one write at a time). */
  scheduleFlush (): void {
    if (!this.needsFlush || this.#pending !== null) return
    this.#pending = new Promise<FlushResult>((resolve) => setImmediate(() => resolve(this.#flushQuietly())))
      .finally(() => { this.#pending = null })
  }

  /** Waits for a scheduled write (when the application closes). */
  async settled (): Promise<void> {
    await this.#pending
  }

  /**
   * Writes the pack now: the entries this process used, sources and V8 code cache. `precompile` calls it; a write
   * after ready goes through `scheduleFlush`. Throws when the directory cannot be written.
   */
  flush (): FlushResult {
    const entries = [...this.#used.values()].sort((a, b) => (a.key < b.key ? -1 : 1))
    // the source is an array of the factories; the index gives each one's key, and its code by position, to write it
    // again with the entries of a later start
    const index: PackIndex = []
    let source = '([\n'
    for (const entry of entries) {
      index.push([entry.key, source.length, source.length + entry.code.length])
      source += entry.code + ',\n'
    }
    source += '])'
    const codeCaches = codeCachesWith(this.#codeCacheFor(source, entries), source, readPack(this.file, packFingerprint()))
    const data = encodePack(packFingerprint(), { source, index, codeCaches })
    mkdirSync(this.dir, { recursive: true })
    const temporary = temporaryPackFile(this.file)
    try {
      writeFileSync(temporary, data)
      renameSync(temporary, this.file)
    } catch (err) {
      rmSync(temporary, { force: true })
      throw err
    }
    this.#dirty = false
    this.#codeCacheMissing = false
    const removed = pruneCacheDir(this.file)
    this.removed.push(...removed)
    return { file: this.file, entries: entries.length, written: true, removed }
  }

  /**
   * A write after ready must never take the application down: a read-only directory only means no cache, which the
   * process is told once (a warning), since every later start then pays what this one did.
   */
  #flushQuietly (): FlushResult {
    try {
      return this.flush()
    } catch (err) {
      warnUnwritten(this.file, err, this.#dirty)
      return { file: this.file, entries: this.#used.size, written: false, removed: [] }
    }
  }

  /**
   * V8's code cache of the pack's source. When the source is the pack loaded at start (nothing new), the loaded
   * script has every factory compiled already. Otherwise the new source is compiled and each factory run once, so
   * that the functions they return (compiled with them) are in the cache too.
   */
  #codeCacheFor (source: string, entries: Entry[]): Buffer {
    let script = this.#script
    if (script === null || this.#dirty || entries.length !== this.#loadedCode.size) {
      script = new Script(source, { filename: this.file })
      const factories = script.runInThisContext() as GeneratedFactory[]
      for (const factory of factories) {
        try {
          factory(undefined, undefined)
        } catch {
          // a factory needs its runtime to run to the end; compiling is what mattered
        }
      }
    }
    return script.createCachedData()
  }

  /** Reads and checks the pack; anything wrong with it means an empty cache (the next write replaces it). */
  #load (): Map<string, GeneratedFactory> {
    const loaded = new Map<string, GeneratedFactory>()
    const pack = readPack(this.file, packFingerprint(), 'own')
    if (pack === null) return loaded
    try {
      const codeCache = ownCodeCache(pack)
      const script = new Script(pack.source, { filename: this.file, cachedData: codeCache })
      this.#codeCacheMissing = codeCache === undefined || script.cachedDataRejected === true
      const factories: unknown = script.runInThisContext()
      if (!Array.isArray(factories) || factories.length !== pack.index.length || !factories.every((f) => typeof f === 'function')) return loaded
      this.#script = script
      pack.index.forEach(([key, start, end], i) => {
        loaded.set(key, factories[i] as GeneratedFactory)
        this.#loadedCode.set(key, pack.source.slice(start, end))
      })
      markPackUsed(this.file)
      return loaded
    } catch {
      return loaded
    }
  }
}

const warned = new Set<string>()

/** The warning for a pack this process could not write: new entries, or only its own V8 code cache, missing. */
function warnUnwritten (file: string, err: unknown, newEntries: boolean): void {
  if (warned.has(file)) return
  warned.add(file)
  const reason = err instanceof Error ? err.message : String(err)
  const message = newEntries
    ? `Enclave's compile cache could not write ${file} (${reason}): what this start compiled, the next compiles again. ` +
      'Build the cache with `enclave precompile` where its directory is writable.'
    : `Enclave's compile cache ${file} has no V8 code cache for ${describeV8Setup()}, ` +
      `and could not add one (${reason}): its code is compiled from source at every start. Run \`enclave precompile\` ` +
      'with the Node version and flags (NODE_OPTIONS) the service runs with.'
  process.emitWarning(message, { type: 'EnclaveWarning', code: 'ENCLAVE_COMPILE_CACHE_NOT_WRITTEN' })
}
