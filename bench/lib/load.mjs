/**
 * One load slice with autocannon against one server, plus the CPU use of the server, of the load generator (this
 * process) and of everything else on the machine during the slice. Every response must have the scenario's status
 * and the body the server gave in its correctness check (`expectBody`), so a server cannot answer differently
 * under load.
 */
import autocannon from 'autocannon'
import { cpuTimes, systemBusySeconds } from './processes.mjs'

/**
 * @param {{ port: number, pid: number }} server
 * @param {{ method: string, path: string, headers?: object, body?: string, expectedStatus: number }} scenario
 * @param {{ duration: number, connections: number, pipelining: number, expectBody?: string }} options
 */
export async function runSlice (server, scenario, { duration, connections, pipelining, expectBody }) {
  const cpuBefore = cpuTimes(server.pid)
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
  const cpuAfter = cpuTimes(server.pid)
  const loadCpu = process.cpuUsage(loadCpuBefore)
  const busyAfter = systemBusySeconds()
  const completed = result.requests.total
  const expected = result.statusCodeStats[scenario.expectedStatus]?.count ?? 0
  const measured = cpuBefore !== null && cpuAfter !== null
  const serverUser = measured ? cpuAfter.user - cpuBefore.user : null
  const serverSystem = measured ? cpuAfter.system - cpuBefore.system : null
  const serverCpu = measured ? (serverUser + serverSystem) / elapsed : null
  const loadCpuShare = (loadCpu.user + loadCpu.system) / 1e6 / elapsed
  return {
    rps: completed / result.duration,
    requests: completed,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    // Share of one core the server used while the slice ran; well below 1 means the load generator was the limit.
    serverCpu,
    // Server CPU per request (µs), user (JavaScript) and system (kernel) apart: the kernel's part is about the same
    // for every server, so it is what compresses req/s ratios toward 1 (docs/performance-analysis.md).
    userUsPerRequest: measured && completed > 0 ? serverUser / completed * 1e6 : null,
    systemUsPerRequest: measured && completed > 0 ? serverSystem / completed * 1e6 : null,
    // Share of one core the load generator (autocannon, this process) used: near 1 means the run was client-bound.
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
