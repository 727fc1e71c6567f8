/**
 * Runs Fastify's test files as their runner runs them (tap, or node:test with its TAP reporter), each a plain `node` process in the test tree (cwd = the package
 * root), a few at a time. A file that outlives its timeout gets SIGTERM (tap then reports the test in progress and
 * the ones still queued) and, if it ignores that, SIGKILL: it is reported, never waited for.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { conformanceDir } from './paths.mjs'
import { DEFAULT_LEVEL } from './levels.mjs'

const PRELOAD = path.join(conformanceDir, 'preload', 'skip-tests.cjs')
/** How long tap gets after SIGTERM to write its timeout report before the file is killed. */
const KILL_GRACE_MS = 5000
/** Output kept from stderr, for the report of a crash. */
const STDERR_TAIL = 4000

/**
 * One file: `{ file, stdout, stderrTail, exitCode, signal, timedOut, seconds }`. `skips` (name → reason) goes to
 * the preload; `grep` to tap's own TAP_GREP filter of top-level test names; `nodeArgs` and `env` are what the
 * file's own runner would give it.
 */
export function runFile (tree, file, { skips = {}, grep, timeoutSeconds, nodeArgs = DEFAULT_LEVEL.nodeArgs, env: extraEnv = {} }) {
  const env = { ...process.env, ...extraEnv, ENCLAVE_CONFORMANCE_SKIP: JSON.stringify(skips), FORCE_COLOR: '0', NO_COLOR: '1' }
  for (const name of Object.keys(env)) if (name.startsWith('TAP_')) delete env[name]
  if (grep) env.TAP_GREP = grep
  const args = [...nodeArgs, '--require', PRELOAD, file]
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout = []
    let stderr = ''
    let timedOut = false
    let killTimer = null
    child.stdout.on('data', (chunk) => stdout.push(chunk))
    child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-STDERR_TAIL) })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGTERM')
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS)
    }, timeoutSeconds * 1000)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      clearTimeout(killTimer)
      resolve({
        file,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderrTail: stderr,
        exitCode,
        signal,
        timedOut,
        seconds: (Date.now() - started) / 1000
      })
    })
  })
}

/** Runs `files` with at most `jobs` at once; `onDone(result)` as each finishes; results in `files` order. */
export async function runFiles (tree, files, { jobs, optionsFor, onDone }) {
  const results = new Array(files.length)
  let next = 0
  async function worker () {
    while (next < files.length) {
      const index = next++
      results[index] = await runFile(tree, files[index], optionsFor(files[index]))
      onDone?.(results[index])
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker))
  return results
}
