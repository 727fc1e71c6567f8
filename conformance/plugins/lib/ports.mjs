/**
 * Fixed ports a plugin's tests listen on (`ports` in plugins.json). @fastify/under-pressure's "event loop delay" test
 * listens on port 3000; if anything else on the machine holds it then, the test never gets its answer, its file stops
 * and every test after it is lost, on Enclave and on the real fastify alike. Before such a plugin runs, the runner
 * waits for its ports to be free and, if one is not, names the process that holds it, so that a failure there reads
 * as what it is: the machine's, not the framework's.
 */
import net from 'node:net'
import { readFileSync, readdirSync, readlinkSync } from 'node:fs'

/** Whether `port` can be listened on now (on every interface, as `listen({ port })` does). */
function portFree (port) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** The socket inodes listening on `port`, from /proc/net/tcp and tcp6 (Linux); none elsewhere. */
function listeningInodes (port) {
  const inodes = new Set()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text
    try { text = readFileSync(table, 'utf8') } catch { continue }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      const local = fields[1]
      if (!local || fields[3] !== '0A') continue // 0A: LISTEN
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(fields[9])
    }
  }
  return inodes
}

/** `pid command line` of each process holding one of `inodes`, as far as /proc lets this user see. */
function holders (inodes) {
  const found = []
  let pids = []
  try { pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)) } catch { return found }
  for (const pid of pids) {
    let fds = []
    try { fds = readdirSync(`/proc/${pid}/fd`) } catch { continue }
    const holds = fds.some((fd) => {
      try { return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]) } catch { return false }
    })
    if (!holds) continue
    let command = '?'
    try { command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() } catch { /* gone since */ }
    found.push(`${pid} ${command}`)
  }
  return found
}

/** Who holds `port`, in words, for the log. */
export function describeHolder (port) {
  const inodes = listeningInodes(port)
  const named = inodes.size > 0 ? holders(inodes) : []
  return named.length > 0 ? `held by ${named.join('; ')}` : 'held by a process this user cannot see'
}

/**
 * Waits until every port in `ports` is free, up to `waitSeconds`; resolves to the ports still held then (empty when
 * all are free), after logging who holds them.
 */
export async function waitForPorts (ports, { waitSeconds = 60, log, sleepMs = 500 } = {}) {
  const deadline = Date.now() + waitSeconds * 1000
  let held = []
  for (;;) {
    held = []
    for (const port of ports) if (!(await portFree(port))) held.push(port)
    if (held.length === 0 || Date.now() >= deadline) break
    await new Promise((resolve) => setTimeout(resolve, sleepMs))
  }
  for (const port of held) log(`  port ${port}, which these tests listen on, is in use (${describeHolder(port)}): the tests that listen on it will fail on any framework`)
  return held
}
