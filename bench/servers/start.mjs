/**
 * Starts one benchmark server as its own process:
 *   node bench/servers/start.mjs <enclave|enclave5|fastify|fastify5|node|node-async> [scenario letters, e.g. a,b,c or "all"]
 * Prints `BENCH_READY <port>` on stdout once listening on 127.0.0.1, or `BENCH_UNAVAILABLE <reason>` and exits 2.
 * SIGTERM/SIGINT close the server and exit normally, so `--cpu-prof` profiles get written; see also SIGUSR2 below.
 */
import inspector from 'node:inspector'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildApp, ALL_SCENARIOS } from './app.mjs'
import { createNodeServer } from './node-http.mjs'
import { loadFactory, FrameworkUnavailableError } from './frameworks.mjs'

const [kind, set = 'all'] = process.argv.slice(2)
const scenarios = set === 'all' ? ALL_SCENARIOS : set.split(',')

async function listen () {
  if (kind === 'node' || kind === 'node-async') {
    const server = createNodeServer({ promiseTurn: kind === 'node-async' })
    await new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', resolve)
    })
    return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) }
  }
  const app = buildApp(loadFactory(kind), scenarios)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { port: app.server.address().port, close: () => app.close() }
}

/**
 * With BENCH_PROFILE_DIR set, SIGUSR2 starts the CPU profiler and the next SIGUSR2 writes
 * `<dir>/<kind>-<pid>-<n>.cpuprofile`: a profile of the steady state only, without start-up and warm-up.
 */
let session = null
let profiles = 0
function toggleProfiler () {
  if (session === null) {
    session = new inspector.Session()
    session.connect()
    session.post('Profiler.enable', () => session.post('Profiler.start'))
    return
  }
  const finished = session
  session = null
  finished.post('Profiler.stop', (error, result) => {
    if (!error) {
      const file = path.join(process.env.BENCH_PROFILE_DIR, `${kind}-${process.pid}-${++profiles}.cpuprofile`)
      writeFileSync(file, JSON.stringify(result.profile))
      process.stdout.write(`BENCH_PROFILE ${file}\n`)
    }
    finished.disconnect()
  })
}

try {
  const server = await listen()
  const stop = () => {
    // Keep-alive sockets from the load generator may hold close() open: do not wait for them for long.
    setTimeout(() => process.exit(0), 1000).unref()
    server.close().then(() => process.exit(0), () => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  if (process.env.BENCH_PROFILE_DIR) process.on('SIGUSR2', toggleProfiler)
  process.stdout.write(`BENCH_READY ${server.port}\n`)
} catch (error) {
  const reason = error instanceof FrameworkUnavailableError ? error.message : (error?.stack ?? String(error))
  process.stdout.write(`BENCH_UNAVAILABLE ${reason.split('\n')[0]}\n`)
  if (!(error instanceof FrameworkUnavailableError)) process.stderr.write(`${reason}\n`)
  process.exit(2)
}
