/**
 * Where the floor of an async handler lies, without pipelining:
 *   node bench/async-floor.mjs [--scenarios a,e] [--servers node,node-async,enclave,fastify5] [--rounds 10] [--slice 2]
 * The bare node:http server of the bench answers in the request event; `node-async` is the same server answering
 * one promise turn later, which is what any framework does with what an async handler returns. Both go under wrk
 * beside Enclave and Fastify 5, taking turns in slices (rotating order) as in the bench's non-pipelined table, with
 * the same response checks. The report gives, per server, the median req/s and server CPU time per request, and
 * each server ÷ node-async: how far a framework is from the floor its users' async handlers allow.
 */
import { startCheckedServer } from './lib/check.mjs'
import { ensureWrk, runWrkSlice, writeScript, wrkScript } from './lib/wrk.mjs'
import { pinSelf, LOAD_CORE } from './lib/processes.mjs'
import { SCENARIOS } from './lib/scenarios.mjs'
import { median, rotate } from './lib/stats.mjs'
import { optionValue as option } from './lib/options.mjs'

async function startChecked (kinds, letter) {
  const up = []
  for (const kind of kinds) {
    const { server, check } = await startCheckedServer(kind, letter)
    up.push({ kind, server, script: writeScript(wrkScript(SCENARIOS[letter], check.loadBodies[letter])) })
  }
  return up
}

async function measureScenario (letter, kinds, { rounds, slice, wrk }) {
  const up = await startChecked(kinds, letter)
  const samples = Object.fromEntries(kinds.map((kind) => [kind, []]))
  const settings = { wrk, connections: 100, threads: 1 }
  try {
    for (const entry of up) await runWrkSlice(entry.server, SCENARIOS[letter], { ...settings, scriptFile: entry.script.file, duration: 2 })
    for (let round = 0; round < rounds; round++) {
      for (const entry of rotate(up, round)) {
        const result = await runWrkSlice(entry.server, SCENARIOS[letter], { ...settings, scriptFile: entry.script.file, duration: slice })
        if (result.mismatches > 0 || result.requests === 0) throw new Error(`${entry.kind}: wrong or no responses under load`)
        samples[entry.kind].push({ rps: result.rps, cpu: result.userUsPerRequest + result.systemUsPerRequest })
      }
    }
  } finally {
    for (const entry of up) {
      await entry.server.stop()
      entry.script.remove()
    }
  }
  return samples
}

async function main () {
  const args = process.argv.slice(2)
  const letters = option(args, 'scenarios', 'a,e').split(',')
  const kinds = option(args, 'servers', 'node,node-async,enclave,fastify5').split(',')
  const rounds = Number(option(args, 'rounds', 10))
  const slice = Number(option(args, 'slice', 2))
  const found = ensureWrk('wrk', (line) => console.error(line))
  if (found.unavailable) throw new Error(found.unavailable)
  const wrk = found.command
  pinSelf(LOAD_CORE)
  console.log('| scenario | server | req/s (median) | server CPU µs/req | ÷ node-async (req/s) |')
  console.log('|---|---|--:|--:|--:|')
  for (const letter of letters) {
    const samples = await measureScenario(letter, kinds, { rounds, slice, wrk })
    const rps = Object.fromEntries(kinds.map((kind) => [kind, median(samples[kind].map((s) => s.rps))]))
    for (const kind of kinds) {
      const versus = rps['node-async'] === undefined ? '—' : (rps[kind] / rps['node-async']).toFixed(2)
      const cpu = median(samples[kind].map((s) => s.cpu)).toFixed(1)
      console.log(`| ${SCENARIOS[letter].title} | ${kind} | ${Math.round(rps[kind]).toLocaleString('en-US')} | ${cpu} | ${versus} |`)
    }
  }
}

await main()
