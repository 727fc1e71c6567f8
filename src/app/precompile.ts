/**
 * `precompile(app)`: builds the application's compile cache now, for a warm first start — at image-build time, say
 * (the `enclave precompile <entry>` command calls it). It readies the application, which generates every validator
 * and serializer it can, and writes the pack with exactly those entries and V8's code cache for them.
 */
import { codes } from '../core/errors'
import { kPluginContext } from '../core/symbols'
import { describeV8Setup } from '../schema/compile-cache-pack'
import type { Instance } from '../encapsulation/app-state'

/** What `precompile` wrote. */
export interface PrecompileResult {
  /** The pack file written. */
  file: string
  /** Generated validators and serializers it holds. */
  entries: number
  /** Stale files of the cache removed from the directory: packs of other fingerprints unused for a month, abandoned temporary files. */
  removed: string[]
  /** The Node version and flags the V8 code cache written serves: a service started with other flags needs a run under them too. */
  codeCacheFor: string
}

export async function precompile (app: Instance): Promise<PrecompileResult> {
  const cache = app?.[kPluginContext]?.schema.app.compileCache
  if (cache === undefined) throw new codes.FST_ERR_INIT_OPTS_INVALID('precompile() takes an application created by the factory')
  if (cache === null) throw new codes.FST_ERR_INIT_OPTS_INVALID('precompile() needs an application created with the compileCache: { dir } option')
  await app.ready()
  // a write scheduled at ready would only repeat this one
  await cache.settled()
  const { file, entries } = cache.flush()
  // the write scheduled at ready may have been the one that pruned the directory
  return { file, entries, removed: [...cache.removed], codeCacheFor: describeV8Setup() }
}
