/**
 * CPU profile of one server under one load scenario:
 *   node bench/profile.mjs <enclave|fastify|fastify5|node> <a|b|c|d|e|f> [--duration 10] [--pipelining 10] [--routes 1000] [--dir /tmp/prof] [--top 20]
 * a–e: starts the server, checks it, warms it up with the scenario's request (same settings as the suite), then
 * profiles one slice of load (steady state only). f: profiles one whole start-up run (`--cpu-prof`). Then prints
 * the top functions by self time.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { runNodeScript, pinSelf, LOAD_CORE } from './lib/processes.mjs'
import { startCheckedServer } from './lib/check.mjs'
import { closeIdleSockets } from './lib/http-client.mjs'
import { runSlice } from './lib/load.mjs'
import { SCENARIOS } from './lib/scenarios.mjs'
import { summarizeProfile, renderProfileSummary } from './profile-summary.mjs'
import { optionValue as option } from './lib/options.mjs'

const WARMUP_SECONDS = 3
const startupScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'servers', 'startup.mjs')

async function main () {
  const args = process.argv.slice(2)
  const [kind, letter] = args
  if (!['enclave', 'fastify', 'fastify5', 'node'].includes(kind) || !(SCENARIOS[letter] || letter === 'f')) {
    console.error('Usage: node bench/profile.mjs <enclave|fastify|fastify5|node> <a|b|c|d|e|f> [--duration 10] [--pipelining 10] [--routes 1000] [--dir /tmp/prof] [--top 20]')
    return 2
  }
  const duration = Number(option(args, 'duration', 10))
  const pipelining = Number(option(args, 'pipelining', 10))
  const dir = path.resolve(option(args, 'dir', '/tmp/prof'))
  const top = Number(option(args, 'top', 20))
  mkdirSync(dir, { recursive: true })
  pinSelf(LOAD_CORE)

  const startedAt = Date.now()
  if (letter === 'f') {
    const routes = option(args, 'routes', '1000')
    const result = await runNodeScript(['--cpu-prof', `--cpu-prof-dir=${dir}`, startupScript, kind, routes], 'STARTUP_RESULT ')
    console.log(`${kind}, start-up with ${routes} routes: ready ${Math.round(result.readyMs)} ms, ` +
      `first pass ${Math.round(result.firstPassMs)} ms (under the profiler)`)
  } else {
    const failed = await profileLoad(kind, letter, { duration, pipelining }, dir)
    if (failed) return failed
  }
  return printNewestProfile(dir, startedAt, top)
}

/** Profiles the steady state only: warm-up first, then SIGUSR2 around one load slice (see servers/start.mjs). */
async function profileLoad (kind, letter, { duration, pipelining }, dir) {
  process.env.BENCH_PROFILE_DIR = dir
  const { server, check } = await startCheckedServer(kind, letter)
  try {
    const options = { duration: WARMUP_SECONDS, connections: 100, pipelining, expectBody: check.loadBodies[letter] }
    await runSlice(server, SCENARIOS[letter], options)
    process.kill(server.pid, 'SIGUSR2')
    await sleep(100)
    const slice = await runSlice(server, SCENARIOS[letter], { ...options, duration })
    process.kill(server.pid, 'SIGUSR2')
    await waitForFile(dir, `${kind}-${server.pid}-`)
    console.log(`${kind}, scenario ${letter}: ${Math.round(slice.rps)} req/s under the profiler ` +
      `(cpu: server ${Math.round(slice.serverCpu * 100)}%, other processes ${Math.round(slice.otherCpu * 100)}%)`)
  } finally {
    await server.stop()
    closeIdleSockets()
  }
  return 0
}

async function waitForFile (dir, prefix) {
  for (let i = 0; i < 100; i++) {
    if (readdirSync(dir).some((name) => name.startsWith(prefix))) return
    await sleep(100)
  }
}

function printNewestProfile (dir, startedAt, top) {
  const profiles = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).mtimeMs >= startedAt)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  if (profiles.length === 0) {
    console.error(`no profile written to ${dir}`)
    return 1
  }
  console.log(`profile: ${profiles[0]}\n`)
  console.log(renderProfileSummary(summarizeProfile(JSON.parse(readFileSync(profiles[0], 'utf8'))), top))
  return 0
}

main().then((code) => { process.exitCode = code }, (error) => {
  console.error(error)
  process.exitCode = 2
})
