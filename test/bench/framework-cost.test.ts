import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

// `bench/framework-cost.mjs`: each server's request listener driven in-process, its response checked first
test('framework-cost checks each server and reports its CPU time per request and the difference with node:http', () => {
  const run = spawnSync(process.execPath, ['bench/framework-cost.mjs', '--servers', 'enclave,node', '--scenarios', 'a,e', '--requests', '2000', '--repeats', '1'], { encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  const rows = run.stdout.trim().split('\n')
  assert.equal(rows[0], '| scenario | enclave µs/req | node µs/req | enclave − node |')
  for (const [index, title] of [[2, 'a. GET / (response schema)'], [3, 'e. unknown route → 404']] as const) {
    const cells = rows[index].split('|').slice(1, -1).map((cell) => cell.trim())
    assert.equal(cells[0], title)
    const [enclave, node, difference] = cells.slice(1).map(Number)
    assert.ok(enclave > 0 && node > 0, rows[index])
    // the difference is of the unrounded medians
    assert.ok(Math.abs(difference - (enclave - node)) <= 0.011, rows[index])
  }
})
