/**
 * Runtime behaviour tests deliberately pass invalid arguments and add decorators dynamically, so they use the
 * factory without its static types. The public types are checked by the files in `test/types/`.
 */
import typedEnclave from '../src/index'

export const enclave = typedEnclave as unknown as (options?: Record<string, any>) => any

import type { TestContext } from 'node:test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** A fresh directory under the system's temporary one, removed when the test ends. */
export function temporaryDir (t: { after: (fn: () => void) => void }, prefix = 'enclave-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Runs `examples/demo.ts` as its own process on a free port and resolves once it has printed its URL and curl
 * lines. The process is killed when the test ends, whatever happened.
 */
export async function startDemo (t: TestContext, keys: string): Promise<{ child: ChildProcess, address: string, output: () => string }> {
  const script = path.join(__dirname, '..', 'examples', 'demo.ts')
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, PORT: '0', DEMO_API_KEYS: keys },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let output = ''
  child.stdout!.setEncoding('utf8')
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      output += chunk
      const match = /listening at (http:\/\/\S+)/.exec(output)
      if (match && output.includes('/three')) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`demo exited early with ${code}: ${output}`)))
  })
  return { child, address, output: () => output }
}

/** mulberry32: a tiny, fast, seedable 32-bit PRNG, for reproducible generated inputs. */
export function mulberry32 (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A pino destination that collects the parsed log lines (`enclave({ logger: { stream: sink.stream } })`). */
export function logSink (): { stream: { write: (line: string) => void }, lines: any[] } {
  const lines: any[] = []
  return { lines, stream: { write (line: string) { lines.push(JSON.parse(line)) } } }
}
