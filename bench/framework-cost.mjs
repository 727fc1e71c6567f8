/**
 * What a framework itself costs per request, without sockets, the kernel or a load generator:
 *   node bench/framework-cost.mjs [--servers enclave,fastify5,node] [--scenarios a,b,c,d,e] [--requests 300000] [--repeats 5]
 * Each server's request listener is called in-process with real `http.IncomingMessage` / `ServerResponse` objects
 * over a socket that writes nowhere, so Node's header and body writing runs as in production and only the
 * syscalls are left out. The bare node:http server of the bench goes through the same harness: the difference
 * between it and a framework is the framework's own CPU time per request (routing, hooks, validation,
 * serialization, its promises). CPU time of this process only, median of the repeats; one process per server and
 * scenario, so one server's JIT state never leaks into another's numbers.
 *
 * The load tables of `npm run bench` measure what clients see; this one says which part of the difference between
 * two servers is the framework's code, which the load tables cannot separate from Node's own work and the noise of
 * a shared machine.
 */
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import { Duplex } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { CHECKS, SCENARIOS } from './lib/scenarios.mjs'
import { optionValue as option } from './lib/options.mjs'

const WARMUP_REQUESTS = 50_000
const CONNECTIONS = 64

/**
 * A socket that takes every write and drops it: Node's response writing runs in full, no bytes leave the process.
 * With `keep`, it keeps what was written (to check one response).
 */
class NullSocket extends Duplex {
  constructor (keep = false) {
    super()
    this.remoteAddress = '127.0.0.1'
    this.remotePort = 40000
    this.encrypted = false
    this.written = keep ? [] : null
  }

  _read () {}

  _write (chunk, encoding, callback) {
    this.written?.push(Buffer.from(chunk, encoding))
    callback()
  }

  _writev (chunks, callback) {
    for (const { chunk, encoding } of chunks) this.written?.push(Buffer.from(chunk, encoding))
    callback()
  }

  setTimeout () { return this }
}

async function listenerOf (kind, letter) {
  if (kind === 'node') {
    const { createNodeServer } = await import('./servers/node-http.mjs')
    return { listener: createNodeServer().listeners('request')[0], close: async () => {} }
  }
  const { buildApp } = await import('./servers/app.mjs')
  const { loadFactory } = await import('./servers/frameworks.mjs')
  const app = buildApp(loadFactory(kind), [letter])
  await app.ready()
  return { listener: app.server.listeners('request')[0], close: () => app.close() }
}

/** One request through the listener on `socket`; `onFinish` runs when its response has ended. */
function requestOnce (listener, scenario, socket, onFinish) {
  const req = new http.IncomingMessage(socket)
  req.method = scenario.method
  req.url = scenario.path
  req.httpVersion = '1.1'
  req.httpVersionMajor = 1
  req.httpVersionMinor = 1
  req.headers = { host: '127.0.0.1', ...scenario.headers }
  if (scenario.body !== undefined) {
    req.headers['content-length'] = String(Buffer.byteLength(scenario.body))
    req.push(scenario.body)
  }
  req.push(null)
  req.complete = true
  const res = new http.ServerResponse(req)
  res.assignSocket(socket)
  res.once('finish', () => {
    res.detachSocket(socket)
    onFinish()
  })
  listener(req, res)
}

/**
 * `requests` requests over `CONNECTIONS` sockets, one in flight on each (as keep-alive clients do): a socket's next
 * request starts when its response has finished.
 */
function run (listener, scenario, requests) {
  return new Promise((resolve) => {
    let started = 0
    let finished = 0
    const next = (socket) => {
      if (started === requests) return
      started++
      requestOnce(listener, scenario, socket, () => {
        if (++finished === requests) resolve()
        else next(socket)
      })
    }
    for (let i = 0; i < CONNECTIONS; i++) next(new NullSocket())
  })
}

/**
 * One request whose response is kept and compared with the bench's load check (status, and the JSON body): a server
 * that answers wrongly is not measured.
 */
async function checkResponse (listener, letter) {
  const socket = new NullSocket(true)
  await new Promise((resolve) => requestOnce(listener, SCENARIOS[letter], socket, resolve))
  const text = Buffer.concat(socket.written).toString()
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
  const body = text.slice(text.indexOf('\r\n\r\n') + 4)
  const check = CHECKS.find((c) => c.scenario === letter && c.load)
  const json = check.json ?? check.parityJson
  let parsed
  try {
    parsed = JSON.parse(body)
  } catch {
    parsed = undefined // not JSON: refused below
  }
  if (status !== check.status || !isDeepStrictEqual(parsed, json)) {
    throw new Error(`wrong response to scenario ${letter}: ${status} ${body.slice(0, 200)}`)
  }
}

/** The child: checks, then measures one server on one scenario and prints one JSON line. */
async function measureOne (kind, letter, requests) {
  const { listener, close } = await listenerOf(kind, letter)
  const scenario = SCENARIOS[letter]
  await checkResponse(listener, letter)
  await run(listener, scenario, WARMUP_REQUESTS)
  const before = process.cpuUsage()
  await run(listener, scenario, requests)
  const used = process.cpuUsage(before)
  await close()
  process.stdout.write(JSON.stringify({ kind, letter, cpuMicros: (used.user + used.system) / requests }) + '\n')
}

function median (values) {
  const sorted = [...values].sort((x, y) => x - y)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function measureInChild (kind, letter, requests) {
  const script = fileURLToPath(import.meta.url)
  const child = spawnSync(process.execPath, [script, '--child', kind, letter, String(requests)], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${kind} ${letter} failed:\n${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').pop()).cpuMicros
}

async function main () {
  const args = process.argv.slice(2)
  if (args[0] === '--child') return measureOne(args[1], args[2], Number(args[3]))
  const servers = option(args, 'servers', 'enclave,fastify5,node').split(',')
  const letters = option(args, 'scenarios', 'a,b,c,d,e').split(',')
  const requests = Number(option(args, 'requests', 200_000))
  const repeats = Number(option(args, 'repeats', 5))
  console.log('| scenario | ' + servers.map((s) => `${s} µs/req`).join(' | ') +
    (servers.includes('node') ? ' | ' + servers.filter((s) => s !== 'node').map((s) => `${s} − node`).join(' | ') : '') + ' |')
  console.log('|---|' + servers.map(() => '--:|').join('') + (servers.includes('node') ? servers.filter((s) => s !== 'node').map(() => '--:|').join('') : ''))
  for (const letter of letters) {
    const samples = Object.fromEntries(servers.map((s) => [s, []]))
    // alternate the servers so that a busy neighbour hits all of them alike
    for (let r = 0; r < repeats; r++) for (const kind of servers) samples[kind].push(measureInChild(kind, letter, requests))
    const medians = Object.fromEntries(servers.map((s) => [s, median(samples[s])]))
    const cells = servers.map((s) => medians[s].toFixed(2))
    if (servers.includes('node')) for (const s of servers) if (s !== 'node') cells.push((medians[s] - medians.node).toFixed(2))
    console.log(`| ${SCENARIOS[letter].title} | ${cells.join(' | ')} |`)
  }
}

await main()
