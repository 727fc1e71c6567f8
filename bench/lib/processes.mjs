/**
 * Child processes of the suite: benchmark servers pinned to the server core, CPU affinity of the load generator,
 * CPU-time accounting from /proc, and a description of the machine.
 */
import { spawn, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const SERVER_CORE = 0
export const LOAD_CORE = 1

function hasTaskset () {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Pinning needs two cores and `taskset` (util-linux). */
export const canPin = os.cpus().length >= 2 && hasTaskset()

/** Pins every thread of this process (the load generator) to `core`; children inherit it unless re-pinned. */
export function pinSelf (core) {
  if (!canPin) return false
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' })
  return true
}

/** `[command, args]` that run `command args` on `core` when pinning is possible (taskset execs it: same pid). */
export function onCore (core, command, args) {
  return canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
}

/** `node <args>` on the server core when pinning is possible. */
function spawnNode (args, options = {}) {
  const [command, fullArgs] = onCore(SERVER_CORE, process.execPath, args)
  return spawn(command, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
}

/**
 * Starts `bench/servers/start.mjs` and waits for its ready line.
 * @returns {Promise<{ kind: string, port?: number, pid?: number, unavailable?: string, stop: () => Promise<void> }>}
 */
export function startServer (kind, scenarios, { nodeArgs = [], timeoutMs = 60_000 } = {}) {
  const child = spawnNode([...nodeArgs, path.join(benchDir, 'servers', 'start.mjs'), kind, scenarios.join(',')])
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      resolve({ kind, unavailable: `no ready line after ${timeoutMs} ms`, stop })
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk
      const ready = /^BENCH_READY (\d+)$/m.exec(stdout)
      const unavailable = /^BENCH_UNAVAILABLE (.*)$/m.exec(stdout)
      if (ready === null && unavailable === null) return
      clearTimeout(timer)
      resolve(ready
        ? { kind, port: Number(ready[1]), pid: child.pid, stop }
        : { kind, unavailable: unavailable[1], stop })
    })
    exited.then(({ code, signal }) => {
      clearTimeout(timer)
      const lastLine = stderr.trim().split('\n').slice(-3).join(' | ')
      resolve({ kind, unavailable: `exited (${signal ?? code}) before ready: ${lastLine}`, stop })
    })
  })
}

/**
 * Runs a node script on the server core and resolves with the JSON printed after `prefix` on stdout.
 * @returns {Promise<object>}
 */
export function runNodeScript (args, prefix, { timeoutMs = 120_000, env } = {}) {
  const child = spawnNode(args, env === undefined ? {} : { env })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      const line = stdout.split('\n').find((text) => text.startsWith(prefix))
      if (line !== undefined) return resolve(JSON.parse(line.slice(prefix.length)))
      const detail = (stdout + stderr).trim().split('\n').slice(-3).join(' | ')
      reject(new Error(`${args.join(' ')} exited (${signal ?? code}) without a result: ${detail}`))
    })
  })
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/**
 * CPU seconds used so far by `pid`, split into user time (JavaScript, V8, Node's parser) and system time (the
 * kernel: socket reads and writes, loopback TCP), Linux only; `null` elsewhere.
 */
export function cpuTimes (pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // After "pid (comm) ", field 14 (utime) and 15 (stime) are at indexes 11 and 12.
    return { user: Number(fields[11]) / clockTicks, system: Number(fields[12]) / clockTicks }
  } catch {
    return null
  }
}

/**
 * CPU seconds (user + system) of this process's children that have exited and been waited for (cutime + cstime
 * of /proc/self/stat): read before a child starts and after its exit event, the difference is that child's CPU
 * time, however short its life. `null` where /proc is missing.
 */
export function exitedChildrenCpuSeconds () {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields 16 (cutime) and 17 (cstime), counted from "pid (comm) " as above
    return (Number(fields[13]) + Number(fields[14])) / clockTicks
  } catch {
    return null
  }
}

/** CPU seconds all processes have spent busy (not idle, not waiting for I/O), from /proc/stat; `null` if unknown. */
export function systemBusySeconds () {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]
    const [, ...fields] = line.trim().split(/\s+/)
    // user nice system idle iowait irq softirq steal (guest time is already counted in user)
    const ticks = fields.slice(0, 8).map(Number)
    const busy = ticks.reduce((sum, t) => sum + t, 0) - ticks[3] - ticks[4]
    return busy / clockTicks
  } catch {
    return null
  }
}

/**
 * Waits (up to `maxSeconds`) until the machine is quiet: less than `limit` cores busy over half a second, while
 * the benchmark's own processes are idle. Returns the last busy reading (cores).
 */
export async function waitForQuiet (limit, maxSeconds) {
  const deadline = Date.now() + maxSeconds * 1000
  let busy = null
  do {
    const before = systemBusySeconds()
    const ownBefore = process.cpuUsage()
    await sleep(500)
    const after = systemBusySeconds()
    const own = process.cpuUsage(ownBefore)
    if (before === null || after === null) return null
    busy = Math.max(0, (after - before - (own.user + own.system) / 1e6) / 0.5)
  } while (busy > limit && Date.now() < deadline)
  return busy
}

export function describeMachine () {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    pinned: canPin ? `servers on CPU ${SERVER_CORE}, load generator on CPU ${LOAD_CORE} (taskset)` : 'no (single core or no taskset)'
  }
}
