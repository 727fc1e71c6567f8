/**
 * One load slice with autocannon against one server, plus the server's CPU use during the slice. Every response
 * must have the scenario's status and the body the server gave in its correctness check (`expectBody`), so a
 * server cannot answer differently under load.
 */
import autocannon from 'autocannon'
import { cpuSeconds, systemBusySeconds } from './processes.mjs'

/**
 * @param {{ port: number, pid: number }} server
 * @param {{ method: string, path: string, headers?: object, body?: string, expectedStatus: number }} scenario
 * @param {{ duration: number, connections: number, pipelining: number, expectBody?: string }} options
 */
export async function runSlice (server, scenario, { duration, connections, pipelining, expectBody }) {
  const cpuBefore = cpuSeconds(server.pid)
  const busyBefore = systemBusySeconds()
  const loadCpuBefore = process.cpuUsage()
  const started = process.hrtime.bigint()
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
    connections,
    pipelining,
    duration,
    expectBody
  })
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9
  const cpuAfter = cpuSeconds(server.pid)
  const loadCpu = process.cpuUsage(loadCpuBefore)
  const busyAfter = systemBusySeconds()
  const serverCpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / elapsed
  const loadCpuShare = (loadCpu.user + loadCpu.system) / 1e6 / elapsed
  const completed = result.requests.total
  const expected = result.statusCodeStats[scenario.expectedStatus]?.count ?? 0
  return {
    rps: completed / result.duration,
    requests: completed,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    // Share of one core the server used while the slice ran; well below 1 means the load generator was the limit.
    serverCpu,
    loadCpu: loadCpuShare,
    // CPU (in cores) used by everything else on the machine during the slice: noise from other processes.
    otherCpu: busyBefore === null || busyAfter === null || serverCpu === null
      ? null
      : Math.max(0, (busyAfter - busyBefore) / elapsed - serverCpu - loadCpuShare),
    errors: result.errors + result.timeouts,
    mismatches: result.mismatches,
    unexpectedStatus: completed - expected
  }
}
