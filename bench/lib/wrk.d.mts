/** Types of wrk.mjs for the TypeScript tests that use it (test/bench/wrk.test.ts). */

export interface WrkScenario {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
  expectedStatus: number
}

export interface WrkResult {
  requests: number
  durationUs: number
  bytes: number
  rps: number
  wrong: number
  wrongSample: string | null
  errors: number
  connectErrors: number
  readErrors: number
  writeErrors: number
  timeouts: number
  statusErrors: number
  p50Us: number
  p90Us: number
  p99Us: number
  maxUs: number
}

export interface WrkSlice {
  rps: number
  requests: number
  latencyP50: number
  latencyP90: number
  latencyP99: number
  serverCpu: number | null
  userUsPerRequest: number | null
  systemUsPerRequest: number | null
  loadCpu: number | null
  otherCpu: number | null
  errors: number
  mismatches: number
  unexpectedStatus: number
  wrongSample: string | null
}

export function ensureWrk (command: string, log: (message: string) => void): { command: string, version: string } | { unavailable: string }
export function luaString (text: string): string
export function wrkScript (scenario: WrkScenario, expectBody: string): string
export function parseWrkOutput (stdout: string): WrkResult
export function writeScript (script: string): { file: string, remove: () => void }
export function runWrkSlice (
  server: { port: number, pid: number },
  scenario: WrkScenario,
  options: { wrk: string, scriptFile: string, duration: number, connections: number, threads: number }
): Promise<WrkSlice>
