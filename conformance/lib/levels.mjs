/**
 * The Fastify releases whose own suites the runner can run (`--fastify 4`, the default, or `--fastify 5`): each
 * level's pinned package, its test dependencies, its committed lists, and how its test files run (tap files as plain
 * `node` processes; node:test files with Node's TAP reporter, read the same way). Everything that differs between
 * the two suites is here, with the Enclave entry each runs on (the main entry is the Fastify 4 level); the runner's
 * modules take a level and nothing else.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { conformanceDir, enclaveEntry, enclaveEntryOf, enclaveTypes, enclaveTypesModule, publishedTypesOf, repoRoot } from './paths.mjs'

const pinned = (file) => JSON.parse(readFileSync(path.join(conformanceDir, file), 'utf8'))

function level (major, { pin, deps, suffix, runner, nodeArgs, types, entry }) {
  const { version, integrity } = pinned(pin)
  const list = (name) => `${name}${suffix}.txt`
  return {
    major,
    version,
    integrity,
    deps,
    areas: list('areas'),
    excluded: list('excluded-files'),
    skipped: list('skipped-tests'),
    expectations: path.join(conformanceDir, list('expectations')),
    runner,
    nodeArgs,
    types,
    entry
  }
}

export const LEVELS = {
  // .taprc's node-arg, so Fastify 4's files run under the flags its own runner gives them; tsd for its type tests.
  4: level(4, {
    pin: 'fastify.json',
    deps: 'deps',
    suffix: '',
    runner: 'tap',
    nodeArgs: ['--allow-natives-syntax'],
    types: { checker: 'tsd', declarations: enclaveTypes, module: enclaveTypesModule },
    entry: enclaveEntry
  }),
  // borp runs each file with node:test, and tstyche its type tests (test/types/*.tst.ts). Enclave's `./fastify5`
  // entry, with the declarations package.json publishes for it.
  5: level(5, {
    pin: 'fastify-5.json',
    deps: 'deps5',
    suffix: '-5',
    runner: 'node:test',
    nodeArgs: ['--test-reporter=tap'],
    types: { checker: 'tstyche', declarations: publishedTypesOf('./fastify5'), module: path.join(repoRoot, 'dist', 'src', 'fastify5.d.ts') },
    entry: enclaveEntryOf(5)
  })
}

export const DEFAULT_LEVEL = LEVELS[4]

/** The level of `--fastify <major>` (`4`, `5`, or a full version such as `5.12.8`). */
export function levelOf (value = '4') {
  const found = Object.values(LEVELS).find((entry) => value === String(entry.major) || value === entry.version)
  if (!found) throw new Error(`--fastify: expected one of ${Object.values(LEVELS).map((entry) => `${entry.major} (${entry.version})`).join(', ')}, got "${value}"`)
  return found
}

/** The node flags for one file of `level`; `grep` becomes node:test's own name filter for node:test files. */
export function nodeArgsFor (level, grep) {
  if (level.runner !== 'node:test' || !grep) return level.nodeArgs
  return [...level.nodeArgs, `--test-name-pattern=${grep}`]
}
