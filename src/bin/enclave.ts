#!/usr/bin/env node
/**
 * The `enclave` command.
 *
 *   enclave precompile <entry> [--json]
 *
 * Loads `<entry>` (CommonJS or ES module) whose default export (or `app` export) is an Enclave application created
 * with `compileCache: { dir }`, or a function (maybe async) returning one, without listening; builds its compile
 * cache (`precompile`), closes it, and prints what it wrote. Run it at image-build time, with the same code,
 * dependencies, Node version and Node flags as the running application: see docs/compile-cache.md.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
// the one import of Enclave's code: the build turns it into a require of the package's bundle (scripts/bundle.mjs),
// the copy of Enclave the application loads
import { precompile } from '../app/precompile'
import type { Instance } from '../encapsulation/app-state'

const usage = 'Usage: enclave precompile <entry> [--json]\n  <entry> exports (default or `app`) an application created with compileCache: { dir }, or a function returning one'

// TypeScript compiles `import()` to `require()` under CommonJS, which cannot load an ES module entry
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>

async function loadApplication (entry: string): Promise<Instance> {
  const loaded = await importModule(pathToFileURL(path.resolve(entry)).href)
  let exported: unknown = loaded.app ?? loaded.default
  // a CommonJS module's `module.exports` is the namespace's default; its own `app` export is a property of it
  if (typeof exported === 'object' && exported !== null && 'app' in exported && !('ready' in exported)) exported = (exported as { app: unknown }).app
  if (typeof exported === 'function' && !('ready' in exported)) exported = await (exported as () => unknown)()
  if (typeof exported !== 'object' && typeof exported !== 'function') throw new Error(`${entry} exports no application`)
  if (exported === null || typeof (exported as { ready?: unknown }).ready !== 'function') throw new Error(`${entry} exports no application`)
  return exported as Instance
}

async function main (args: string[]): Promise<number> {
  const [command, entry] = args.filter((arg) => !arg.startsWith('--'))
  if (command !== 'precompile' || entry === undefined) {
    process.stderr.write(`${usage}\n`)
    return 2
  }
  const app = await loadApplication(entry)
  const started = process.hrtime.bigint()
  const result = await precompile(app)
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  await app.close()
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ ...result, ms })}\n`)
  else {
    process.stdout.write(`enclave precompile: ${result.entries} generated validators and serializers written to ${result.file} in ${Math.round(ms)} ms\n`)
    // V8 uses a code cache only under the flags it was made with (docs/compile-cache.md)
    process.stdout.write(`enclave precompile: V8 code cache made for ${result.codeCacheFor}; a service started with other flags needs a run under them too\n`)
    if (result.removed.length > 0) process.stdout.write(`enclave precompile: removed stale cache files: ${result.removed.join(', ')}\n`)
  }
  return 0
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code }, (err: unknown) => {
  process.stderr.write(`enclave precompile failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exitCode = 1
})
