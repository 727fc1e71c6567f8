/**
 * The second half of `npm run build`: bundles the compiled modules (`dist/src`, from `tsc`) into the two files the
 * package runs, so that loading Enclave reads and compiles one file instead of resolving ~120 (57 → 35 ms on the
 * bench machine; docs/architecture.md):
 *   dist/enclave.js      the package's entry (`main`, `exports`), with its source map back to src/
 *   dist/enclave-cli.js  the `enclave` command, which loads dist/enclave.js rather than a second copy of Enclave
 *                        (an application made by one copy is opaque to another: its internals are keyed by symbols)
 * Dependencies stay outside the bundle (`packages: 'external'`): they load on first use (src/core/lazy-module.ts)
 * and are shared with the application's own copies.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(repoRoot, 'dist')
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' }

await build({
  ...common,
  entryPoints: [path.join(dist, 'src', 'index.js')],
  outfile: path.join(dist, 'enclave.js'),
  sourcemap: true
})

/** The command's one import of Enclave (`precompile`, which the entry exports too) becomes a require of the bundle. */
const precompileFromBundle = {
  name: 'precompile-from-bundle',
  setup (builder) {
    builder.onResolve({ filter: /^\.\.\/app\/precompile$/ }, () => ({ path: './enclave.js', external: true }))
  }
}

const cli = await build({
  ...common,
  entryPoints: [path.join(dist, 'src', 'bin', 'enclave.js')],
  outfile: path.join(dist, 'enclave-cli.js'),
  plugins: [precompileFromBundle],
  metafile: true
})
// anything else of Enclave bundled into the command would be a second copy, unable to read the application's state
const inputs = Object.keys(cli.metafile.inputs)
if (inputs.length !== 1) throw new Error(`enclave-cli.js must bundle only src/bin/enclave.js, not ${inputs.join(', ')}`)
