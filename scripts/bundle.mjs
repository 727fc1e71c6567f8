/**
 * The second half of `npm run build`: bundles the compiled modules (`dist/src`, from `tsc`) into the files the
 * package runs, so that loading Enclave reads and compiles one file instead of resolving ~120 (57 → 35 ms on the
 * bench machine; docs/architecture.md):
 *   dist/enclave-core.js all of Enclave (src/levels.ts: the module of each API level), with its source map to src/
 *   dist/enclave.js      the package's main entry (`main`, `exports['.']`): the Fastify 4 level's module
 *   dist/fastify4.js     `exports['./fastify4']`, the same module
 *   dist/fastify5.js     `exports['./fastify5']`, the Fastify 5 level's module
 *   dist/enclave-cli.js  the `enclave` command, which loads dist/enclave.js rather than a second copy of Enclave
 *                        (an application made by one copy is opaque to another: its internals are keyed by symbols)
 * Dependencies stay outside the bundle (`packages: 'external'`): they load on first use (src/core/lazy-module.ts)
 * and are shared with the application's own copies.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(repoRoot, 'dist')
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' }

/** An entry's imports of the core (`./levels`) and of the main entry become requires of their bundles. */
const coreFromBundle = {
  name: 'core-from-bundle',
  setup (builder) {
    builder.onResolve({ filter: /^\.\/levels$/ }, () => ({ path: './enclave-core.js', external: true }))
  }
}

await build({
  ...common,
  entryPoints: [path.join(dist, 'src', 'levels.js')],
  outfile: path.join(dist, 'enclave-core.js'),
  sourcemap: true
})

for (const [source, outfile] of [['index.js', 'enclave.js'], ['fastify5.js', 'fastify5.js']]) {
  const entry = await build({
    ...common,
    entryPoints: [path.join(dist, 'src', source)],
    outfile: path.join(dist, outfile),
    plugins: [coreFromBundle],
    metafile: true
  })
  // an entry that bundled more than itself would carry a second copy of Enclave
  const inputs = Object.keys(entry.metafile.inputs)
  if (inputs.length !== 1) throw new Error(`${outfile} must bundle only src/${source}, not ${inputs.join(', ')}`)
}
// `./fastify4` is the main entry itself; this form is one Node's ES module loader reads the named exports through
writeFileSync(path.join(dist, 'fastify4.js'), "'use strict'\n// enclave-http/fastify4: the Fastify 4 level, which is the main entry (src/fastify4.ts)\nmodule.exports = require('./enclave.js')\n")

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
