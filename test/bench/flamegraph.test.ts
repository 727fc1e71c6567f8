import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

// bench/lib/flamegraph.mjs: perf's stacks folded per thread and drawn as an SVG for docs/performance-analysis.md
const load = async (): Promise<any> => await import(pathToFileURL(path.resolve(__dirname, '..', '..', 'bench', 'lib', 'flamegraph.mjs')).href)

// `perf script -F comm,pid,tid,ip,sym,dso` of three samples of the main thread (100) and one of a worker (101)
const perfScript = `node 100/100
\tffffffff81a tcp_sendmsg ([kernel.kallsyms])
\t7f00aa JS:*writeResponse file:///srv/app/node_modules/enclave/dist/enclave-core.js:6238:20 (/tmp/perf-100.map)
\t7f00bb JS:~emit node:events:471:43 (/tmp/perf-100.map)
\t5500 [unknown] ([unknown])
\t1234 uv_run (/usr/bin/node)

node 100/100
\t7f00cc JS:*hello file:///srv/app/bench/servers/app.mjs:26:45 (/tmp/perf-100.map)
\t7f00bb JS:~emit node:events:471:43 (/tmp/perf-100.map)
\t1234 uv_run (/usr/bin/node)

node 100/100
\t7f00aa JS:*writeResponse file:///srv/app/node_modules/enclave/dist/enclave-core.js:6238:20 (/tmp/perf-100.map)
\t7f00bb JS:~emit node:events:471:43 (/tmp/perf-100.map)
\t1234 uv_run (/usr/bin/node)

V8 Worker 100/101
\t99 v8::internal::ScavengeJob::Task::RunInParallel (/usr/bin/node)
`

test('perf samples fold into stacks per thread, root first, named and sorted into categories', async () => {
  const { foldPerfScript, categoryShares } = await load()
  const folded = foldPerfScript(perfScript, { tid: 100 })
  assert.equal(folded.samples, 3)
  assert.deepEqual([...folded.stacks], [
    ['uv_run;emit node:events;writeResponse enclave;tcp_sendmsg', 1],
    ['uv_run;emit node:events;hello app.mjs', 1],
    ['uv_run;emit node:events;writeResponse enclave', 1]
  ])
  assert.equal(folded.categories.get('uv_run'), 'native')
  assert.equal(folded.categories.get('emit node:events'), 'node')
  assert.equal(folded.categories.get('writeResponse enclave'), 'framework')
  assert.equal(folded.categories.get('hello app.mjs'), 'app')
  assert.equal(folded.categories.get('tcp_sendmsg'), 'kernel')
  // self time: the frame each sample was taken in
  const shares = categoryShares(folded)
  assert.deepEqual(Object.fromEntries(Object.entries(shares).map(([key, share]) => [key, Math.round((share as number) * 3)])),
    { kernel: 1, native: 0, node: 0, framework: 1, app: 1, generated: 0 })
  // every thread without a tid
  assert.equal(foldPerfScript(perfScript).samples, 4)
})

test('JavaScript frames keep names with spaces; code with no file is generated code', async () => {
  const { describeFrame } = await load()
  const map = '/tmp/perf-100.map'
  assert.deepEqual(describeFrame('JS:*get hasSubscribers node:diagnostics_channel:287:20', map), { name: 'get hasSubscribers node:diagnostics_channel', category: 'node' })
  assert.deepEqual(describeFrame('JS:~ file:///srv/app/node_modules/@fastify/error/index.js:3:1', map), { name: '(anonymous) @fastify/error', category: 'framework' })
  assert.deepEqual(describeFrame('JS:*serialize0 :3:1', map), { name: 'serialize0', category: 'generated' })
  assert.deepEqual(describeFrame('Builtin:CallFunction', map), { name: 'CallFunction', category: 'native' })
})

test('the SVG draws each frame as wide as its share, with the categories\' shares in the legend', async () => {
  const { foldPerfScript, renderFlameGraph } = await load()
  const svg: string = renderFlameGraph(foldPerfScript(perfScript, { tid: 100 }), { title: 'Enclave <a>', subtitle: 'three samples', width: 1020 })
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1020"/)
  assert.match(svg, /Enclave &lt;a&gt;/)
  // 1,000 px for three samples: uv_run spans them all, writeResponse two thirds, hello one third
  assert.match(svg, /<title>uv_run: 3 samples, 100\.00%<\/title><rect x="10\.0" y="\d+" width="1000\.0"/)
  assert.match(svg, /<title>writeResponse enclave: 2 samples, 66\.67%<\/title><rect x="[\d.]+" y="\d+" width="666\.7"/)
  assert.match(svg, /<title>hello app\.mjs: 1 samples, 33\.33%<\/title><rect x="[\d.]+" y="\d+" width="333\.3"/)
  assert.match(svg, /33\.3% kernel \(TCP, syscalls\)/)
  assert.match(svg, /0\.0% generated code/)
  assert.ok(svg.trimEnd().endsWith('</svg>'))
})
