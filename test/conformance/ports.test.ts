import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
// the plugin runner's port guard (plain JavaScript, typed here by use)
import { waitForPorts } from '../../conformance/plugins/lib/ports.mjs'

// The plugin runner waits for the fixed ports a plugin's tests listen on, and names whoever holds one.
test('waitForPorts names the process holding a port, and returns once the port is free', async () => {
  const holder = net.createServer().listen(0)
  await once(holder, 'listening')
  const port = (holder.address() as net.AddressInfo).port
  const lines: string[] = []
  const held = await waitForPorts([port], { waitSeconds: 0.2, sleepMs: 50, log: (line: string) => lines.push(line) })
  assert.deepEqual(held, [port])
  assert.equal(lines.length, 1)
  assert.match(lines[0], new RegExp(`port ${port}, which these tests listen on, is in use \\(held by ${process.pid} `))

  setTimeout(() => holder.close(), 100)
  assert.deepEqual(await waitForPorts([port], { waitSeconds: 5, sleepMs: 50, log: (line: string) => lines.push(line) }), [])
  assert.equal(lines.length, 1)
})
