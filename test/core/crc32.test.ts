/**
 * CRC-32: zlib's where Node has it, the JavaScript table otherwise (Node 20 before 20.15). Both must give the sums
 * of the standard (the compile cache's packs are checked with them, and written by processes of either kind).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { crc32, crc32InJavaScript } from '../../src/core/crc32'

test('the CRC-32 of the standard check input "123456789" is 0xcbf43926, from either implementation', () => {
  const input = Buffer.from('123456789')
  assert.equal(crc32(input), 0xcbf43926)
  assert.equal(crc32InJavaScript(input), 0xcbf43926)
  assert.equal(crc32InJavaScript(new Uint8Array(0)), 0)
})

test('the JavaScript CRC-32 agrees with zlib on random data of many lengths', (t) => {
  const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32
  if (typeof native !== 'function') {
    t.skip('this Node has no zlib.crc32')
    return
  }
  for (const length of [1, 7, 255, 4096, 100_003]) {
    const data = randomBytes(length)
    assert.equal(crc32InJavaScript(data), native(data), `length ${length}`)
    assert.equal(crc32(data), native(data))
  }
})

test('a CRC-32 continued from the CRC-32 of earlier bytes is that of both together, from either implementation', () => {
  const [head, tail] = [randomBytes(1000), randomBytes(777)]
  const whole = crc32InJavaScript(Buffer.concat([head, tail]))
  assert.equal(crc32InJavaScript(tail, crc32InJavaScript(head)), whole)
  assert.equal(crc32(tail, crc32(head)), whole)
  assert.equal(crc32(Buffer.concat([head, tail])), whole)
})
