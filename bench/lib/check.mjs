/**
 * Correctness checks run against each server before it is measured. Hard failures exclude the server from the
 * measurements; parity differences (exact Fastify error bodies, key order, headers) are reported as warnings.
 */
import { isDeepStrictEqual } from 'node:util'
import { sendRequest } from './http-client.mjs'
import { startServer } from './processes.mjs'
import { CHECKS } from './scenarios.mjs'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * @param {number} port
 * @param {string[]} scenarios letters to check
 * @returns {Promise<{ ok: boolean, failures: object[], warnings: object[], loadBodies: Record<string, string> }>}
 */
export async function checkServer (port, scenarios) {
  const failures = []
  const warnings = []
  const loadBodies = {}
  for (const check of CHECKS) {
    if (!scenarios.includes(check.scenario)) continue
    let response
    try {
      response = await sendRequest({ port, ...check.request })
    } catch (error) {
      failures.push(describe(check, null, `request failed: ${error.message}`))
      continue
    }
    const problems = hardProblems(check, response)
    const parity = parityProblems(check, response)
    if (check.parityOnly) {
      parity.unshift(...problems)
    } else if (problems.length > 0) {
      failures.push(describe(check, response, problems.join('; ')))
    }
    if (parity.length > 0) warnings.push(describe(check, response, parity.join('; ')))
    if (check.load && problems.length === 0) loadBodies[check.scenario] = response.body
  }
  return { ok: failures.length === 0, failures, warnings, loadBodies }
}

/**
 * Starts one bench server for one scenario and checks it there, for the tools that measure a single server (profile,
 * flame graph, async floor). Throws, with the server stopped, when it cannot start or fails a check: measuring a
 * server that answers wrongly would only mislead.
 * @returns {Promise<{ server: object, check: object }>}
 */
export async function startCheckedServer (kind, letter, { nodeArgs = [] } = {}) {
  const server = await startServer(kind, [letter], { nodeArgs })
  if (server.unavailable) throw new Error(`${kind} not available: ${server.unavailable}`)
  const check = await checkServer(server.port, [letter])
  if (!check.ok || check.loadBodies[letter] === undefined) {
    await server.stop()
    throw new Error(`${kind} failed its checks on ${letter}:\n${JSON.stringify(check.failures, null, 2)}`)
  }
  return { server, check }
}

/** Why a server whose checks gave `check` must not be measured on scenario `letter`, or null. */
function exclusionReason (check, letter) {
  if (check.unavailable) return `not available: ${check.unavailable}`
  const failed = check.failures.filter((f) => f.scenario === letter)
  if (failed.length > 0) return `failed check: ${failed.map((f) => f.check).join('; ')}`
  if (check.loadBodies[letter] === undefined) return 'no checked response for the load request'
  return null
}

/** The servers to measure on scenario `letter`, and why each of the others is not measured. */
export function serversToMeasure (servers, checks, letter) {
  const excluded = {}
  const measured = []
  for (const kind of servers) {
    const reason = exclusionReason(checks[kind], letter)
    if (reason) excluded[kind] = reason
    else measured.push(kind)
  }
  return { measured, excluded }
}

function hardProblems (check, response) {
  const problems = []
  if (response.status !== check.status) problems.push(`status ${response.status}, expected ${check.status}`)
  const contentType = response.headers['content-type'] ?? ''
  if (!contentType.startsWith('application/json')) problems.push(`content-type "${contentType}", expected JSON`)
  let parsed
  try {
    parsed = JSON.parse(response.body)
  } catch {
    problems.push('body is not JSON')
    return problems
  }
  if (check.json !== undefined && !isDeepStrictEqual(parsed, check.json)) {
    problems.push(`body differs at ${firstDifference(parsed, check.json)}`)
  }
  if (check.status >= 400 && parsed?.statusCode !== check.status) {
    problems.push(`error body has statusCode ${JSON.stringify(parsed?.statusCode)}, expected ${check.status}`)
  }
  return problems
}

function parityProblems (check, response) {
  const problems = []
  const contentType = response.headers['content-type']
  if (contentType !== JSON_TYPE) problems.push(`content-type "${contentType}" (Fastify: "${JSON_TYPE}")`)
  if (check.json !== undefined && response.body !== JSON.stringify(check.json)) {
    let parsed
    try { parsed = JSON.parse(response.body) } catch { parsed = undefined }
    if (isDeepStrictEqual(parsed, check.json)) problems.push('same JSON but different bytes (key order or spacing)')
  }
  if (check.parityJson !== undefined) {
    let parsed
    try { parsed = JSON.parse(response.body) } catch { parsed = undefined }
    if (!isDeepStrictEqual(parsed, check.parityJson)) {
      problems.push(`error body differs from Fastify's at ${firstDifference(parsed, check.parityJson)}`)
    }
  }
  return problems
}

function describe (check, response, problem) {
  const { method, path, body } = check.request
  return {
    scenario: check.scenario,
    check: check.name,
    request: `${method} ${path}${body ? ` ${truncate(body, 160)}` : ''}`,
    response: response === null
      ? null
      : `${response.status} ${response.headers['content-type'] ?? '(no content-type)'} ${truncate(response.body, 300)}`,
    expected: check.json !== undefined
      ? `${check.status} ${truncate(JSON.stringify(check.json), 300)}`
      : `${check.status}${check.parityJson ? ` ${JSON.stringify(check.parityJson)}` : ''}`,
    problem
  }
}

function truncate (text, max) {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}

/** A JSON-path-like description of the first place where `actual` and `expected` differ. */
export function firstDifference (actual, expected, path = '$') {
  if (isDeepStrictEqual(actual, expected)) return null
  const bothObjects = actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object'
  if (!bothObjects || Array.isArray(actual) !== Array.isArray(expected)) {
    return `${path}: got ${truncate(JSON.stringify(actual) ?? 'undefined', 80)}, expected ${truncate(JSON.stringify(expected) ?? 'undefined', 80)}`
  }
  if (Array.isArray(actual) && actual.length !== expected.length) {
    return `${path}: got ${actual.length} elements, expected ${expected.length}`
  }
  const extra = Object.keys(actual).filter((key) => !Object.hasOwn(expected, key))
  if (extra.length > 0) return `${path}: unexpected field(s) ${extra.join(', ')}`
  for (const key of Object.keys(expected)) {
    const difference = firstDifference(actual[key], expected[key], `${path}.${key}`)
    if (difference !== null) return difference
  }
  return `${path}: differs`
}
