import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
// the harness of `npm run bench`'s non-pipelined table (plain JavaScript, typed here by use)
import { luaString, parseWrkOutput, runWrkSlice, wrkScript, writeScript } from '../../bench/lib/wrk.mjs'

// What wrk prints with the bench's script: its own report, then the script's `done` line.
const WRK_STDOUT = `Running 2s test @ http://127.0.0.1:34559/users
  1 threads and 100 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     7.21ms    2.10ms  48.30ms   91.20%
    Req/Sec    13.95k     1.02k   15.11k    80.00%
  Latency Distribution
     50%    6.90ms
     75%    7.40ms
     90%    8.10ms
     99%   14.20ms
  27900 requests in 2.00s, 6.12MB read
Requests/sec:  13950.00
Transfer/sec:      3.06MB
WRK_RESULT {"requests":27900,"durationUs":2000000,"bytes":6417000,"wrong":0,"connectErrors":0,"readErrors":1,"writeErrors":0,"timeouts":2,"statusErrors":0,"p50Us":6900,"p90Us":8100,"p99Us":14200,"maxUs":48300}
`

test('parseWrkOutput reads the exact counts and percentiles of the result line', () => {
  const result = parseWrkOutput(WRK_STDOUT)
  assert.equal(result.requests, 27900)
  assert.equal(result.rps, 13950)
  assert.equal(result.errors, 3)
  assert.equal(result.wrong, 0)
  assert.equal(result.wrongSample, null)
  assert.deepEqual([result.p50Us, result.p90Us, result.p99Us, result.maxUs], [6900, 8100, 14200, 48300])
})

test('parseWrkOutput returns the first wrong response the script saw', () => {
  const stdout = WRK_STDOUT.replace('"wrong":0', '"wrong":27900') + 'WRK_WRONG_SAMPLE 500 {"statusCode":500}\n'
  const result = parseWrkOutput(stdout)
  assert.equal(result.wrong, 27900)
  assert.equal(result.wrongSample, '500 {"statusCode":500}')
})

test('parseWrkOutput fails on output without a complete result line, quoting its end', () => {
  assert.throws(() => parseWrkOutput('Running 1s test\nunable to connect to 127.0.0.1:1 Connection refused\n'),
    /no WRK_RESULT line in wrk's output: Running 1s test \| unable to connect to 127\.0\.0\.1:1 Connection refused/)
  assert.throws(() => parseWrkOutput('WRK_RESULT {"requests":1}\n'), /lacks durationUs, bytes, wrong/)
})

test('luaString escapes quotes, backslashes, control characters and non-ASCII bytes', () => {
  assert.equal(luaString('a"b\\c\né'), '"a\\034b\\092c\\010\\195\\169"')
  assert.equal(luaString('{"x":1}'), '"{\\034x\\034:1}"')
})

test('wrkScript sets the method, body and headers of the scenario and the expected answer', () => {
  const script = wrkScript({ method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: '{"a":1}', expectedStatus: 201 }, '{"id":1}')
  assert.match(script, /^wrk\.method = "POST"$/m)
  assert.match(script, /^wrk\.body = "\{\\034a\\034:1\}"$/m)
  assert.match(script, /^wrk\.headers\["content-type"\] = "application\/json"$/m)
  assert.match(script, /^local expectedStatus = 201$/m)
  assert.match(script, /^local expectedBody = "\{\\034id\\034:1\}"$/m)
})

const hasWrk = spawnSync('wrk', ['-v']).error === undefined

test('a wrk slice counts every response whose body differs from the checked one', { skip: hasWrk ? false : 'wrk is not installed' }, async () => {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"ok":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const scenario = { method: 'GET', path: '/', expectedStatus: 200 }
  try {
    for (const [expected, allWrong] of [['{"ok":true}', false], ['{"ok":false}', true]] as const) {
      const script = writeScript(wrkScript(scenario, expected))
      try {
        const slice = await runWrkSlice({ port, pid: process.pid }, scenario, { wrk: 'wrk', scriptFile: script.file, duration: 1, connections: 2, threads: 1 })
        assert.ok(slice.requests > 0, 'wrk got answers')
        assert.equal(slice.mismatches, allWrong ? slice.requests : 0)
        assert.equal(slice.wrongSample, allWrong ? '200 {"ok":true}' : null)
        assert.equal(slice.errors, 0)
        assert.ok(slice.latencyP99 >= slice.latencyP50)
      } finally {
        script.remove()
      }
    }
  } finally {
    server.close()
  }
})
