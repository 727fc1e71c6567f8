/**
 * The names of each file's kept tests as the `--self` run saw them, kept in the cache: what a crashed or hung file
 * on Enclave would have run. A file with no list yet is run once on the real Fastify to learn it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { KEPT } from './file-results.mjs'
import { parseTap, testName } from './tap-results.mjs'

export class SelfTestList {
  constructor (dir) {
    this.file = path.join(dir, 'self-tests.json')
    this.names = existsSync(this.file) ? JSON.parse(readFileSync(this.file, 'utf8')) : {}
  }

  /** Records the kept tests of a complete, unfiltered --self run of a file. */
  record (result) {
    if (result.status !== 'ok') return
    this.names[result.file] = result.tests.filter((test) => KEPT.has(test.status)).map((test) => test.name)
  }

  save () {
    writeFileSync(this.file, JSON.stringify(this.names, null, 1) + '\n')
  }

  /** The list for `file`, running it with `runOnSelf(file)` (→ a runFile result) when none is known. */
  async namesFor (file, runOnSelf) {
    if (!this.names[file] && runOnSelf) {
      const run = await runOnSelf(file)
      const parsed = parseTap(run.stdout)
      if (!run.timedOut && parsed.complete) {
        this.names[file] = parsed.tests.filter((test) => KEPT.has(test.status)).map((test) => test.name)
        this.save()
      }
    }
    // lists saved before test names lost a negative `# time=` read the same
    return this.names[file]?.map(testName) ?? null
  }
}
