/**
 * A flame graph of one server under one scenario without pipelining, the way real clients load it:
 *   node bench/flamegraph.mjs <enclave|enclave5|fastify5|fastify|node|node-async> <a|b|c|d|e> [--seconds 5] [--out docs/flamegraphs]
 * Starts the server on the server core with `--perf-basic-prof` (so `perf` can name its JavaScript frames), checks
 * it, warms it up with wrk (100 keep-alive connections, one request in flight each) on the load core, then records
 * `perf record -g` of the server process over one wrk slice. Writes `<out>/<server>-<scenario>.svg` (bench/lib/flamegraph.mjs;
 * the main thread's samples) and prints the shares of its samples by category, as a Markdown table row.
 * Needs `perf` (Debian: linux-perf; installed when missing and running as root) and `perf_event_paranoid` ≤ 1 or root.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startCheckedServer } from './lib/check.mjs'
import { SCENARIOS } from './lib/scenarios.mjs'
import { ensureWrk, runWrkSlice, writeScript, wrkScript } from './lib/wrk.mjs'
import { CATEGORIES, categoryShares, foldPerfScript, renderFlameGraph } from './lib/flamegraph.mjs'
import { optionValue as option } from './lib/options.mjs'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const KINDS = ['enclave', 'enclave5', 'fastify5', 'fastify', 'node', 'node-async']
const NAMES = { enclave: 'Enclave', enclave5: 'Enclave (v5 level)', fastify5: 'Fastify 5', fastify: 'Fastify 4', node: 'bare node:http', 'node-async': 'bare node:http, one promise turn' }

function ensurePerf () {
  const probe = () => spawnSync('perf', ['--version'], { encoding: 'utf8' }).status === 0
  if (probe()) return true
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) return false
  console.error('perf not found: installing the Debian package (apt-get install linux-perf)')
  const options = { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }
  if (spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'linux-perf'], options).status !== 0) {
    spawnSync('apt-get', ['update'], options)
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'linux-perf'], options)
  }
  return probe()
}

/** `perf record` of process `pid` until `stop()`; resolves once perf has written its file. */
function recordPerf (pid, file) {
  const child = spawn('perf', ['record', '-F', '1999', '-g', '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
  const done = new Promise((resolve, reject) => child.once('close', (code) => code === 0 || code === null ? resolve() : reject(new Error(`perf record failed: ${stderr.trim()}`))))
  return { stop: () => { child.kill('SIGINT'); return done } }
}

async function main () {
  const args = process.argv.slice(2)
  const [kind, letter] = args
  if (!KINDS.includes(kind) || SCENARIOS[letter] === undefined) {
    console.error(`Usage: node bench/flamegraph.mjs <${KINDS.join('|')}> <a|b|c|d|e> [--seconds 5] [--out docs/flamegraphs]`)
    return 2
  }
  const seconds = Number(option(args, 'seconds', 5))
  const out = path.resolve(option(args, 'out', path.join(repoRoot, 'docs', 'flamegraphs')))
  if (!ensurePerf()) {
    console.error('perf is not available: install it (Debian: apt-get install linux-perf)')
    return 2
  }
  const wrk = ensureWrk('wrk', (line) => console.error(line))
  if (wrk.unavailable) {
    console.error(wrk.unavailable)
    return 2
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'enclave-flamegraph-'))
  // --perf-basic-prof also turns on V8's log, which would land in the current directory
  const nodeArgs = ['--perf-basic-prof', `--logfile=${path.join(work, 'v8.log')}`, '--no-logfile-per-isolate']
  try {
    const { server, check } = await startCheckedServer(kind, letter, { nodeArgs })
    try {
      await drawFlameGraph({ kind, letter, server, check, wrk, work, seconds, out })
    } finally {
      await server.stop()
      // the symbol map V8 writes for perf (always under /tmp), read by `perf script`
      rmSync(`/tmp/perf-${server.pid}.map`, { force: true })
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return 0
}

/** Records the checked server under wrk with perf, then writes its flame graph and prints its category shares. */
async function drawFlameGraph ({ kind, letter, server, check, wrk, work, seconds, out }) {
  const script = writeScript(wrkScript(SCENARIOS[letter], check.loadBodies[letter]))
  const slice = { wrk: wrk.command, scriptFile: script.file, connections: 100, threads: 1 }
  try {
    await runWrkSlice(server, SCENARIOS[letter], { ...slice, duration: 3 })
    const data = path.join(work, 'perf.data')
    const perf = recordPerf(server.pid, data)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const load = await runWrkSlice(server, SCENARIOS[letter], { ...slice, duration: seconds })
    await perf.stop()
    if (load.errors > 0 || load.mismatches > 0) throw new Error(`${load.errors} errors and ${load.mismatches} wrong responses under load`)
    const text = spawnSync('perf', ['script', '-i', data, '-F', 'comm,pid,tid,ip,sym,dso', '--no-inline'], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout
    const folded = foldPerfScript(text, { tid: server.pid })
    const subtitle = `${SCENARIOS[letter].title}; wrk, 100 connections, no pipelining: ${Math.round(load.rps)} req/s under perf; ` +
      `${folded.samples} samples of the main thread at 1,999 Hz over ${seconds} s`
    mkdirSync(out, { recursive: true })
    const file = path.join(out, `${kind}-${letter}.svg`)
    writeFileSync(file, renderFlameGraph(folded, { title: `${NAMES[kind]}, scenario ${letter}`, subtitle }))
    const shares = categoryShares(folded)
    console.log(`${path.relative(process.cwd(), file)}: ${subtitle}`)
    console.log(`| ${NAMES[kind]} | ${Object.keys(CATEGORIES).map((key) => `${(shares[key] * 100).toFixed(1)}%`).join(' | ')} |`)
  } finally {
    script.remove()
  }
}

main().then((code) => { process.exitCode = code }, (error) => {
  console.error(error)
  process.exitCode = 2
})
