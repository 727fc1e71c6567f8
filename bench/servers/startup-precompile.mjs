/**
 * The entry point `enclave precompile` builds scenario f's compile cache from (bench/lib/startup-runs.mjs):
 *   BENCH_COMPILE_CACHE=<dir> BENCH_STARTUP_ROUTES=1000 node dist/enclave-cli.js precompile bench/servers/startup-precompile.mjs
 * The very application `startup.mjs` builds, with the same compile-cache directory.
 */
import { loadFactory } from './frameworks.mjs'
import { buildStartupApp } from './startup-app.mjs'

export default function startupApplication () {
  const dir = process.env.BENCH_COMPILE_CACHE
  if (!dir) throw new Error('BENCH_COMPILE_CACHE is not set')
  return buildStartupApp(loadFactory('enclave'), Number(process.env.BENCH_STARTUP_ROUTES ?? 1000), { compileCache: { dir } })
}
