// A package of the npm registry pinned by version and tarball integrity, unpacked once into a cache folder
// (ENCLAVE_CACHE, else ~/.cache/enclave) and reused: for tools the project runs but must not install into
// node_modules, such as another Node line's binary (node-line.mjs) or the oldest TypeScript the types support.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The folder holding `name@version`'s files (its tarball's `package/`), fetched with `npm pack` the first time.
 * `members` limits what is unpacked (paths inside the tarball, such as `package/bin/node`); all when absent.
 */
export function pinnedPackage ({ name, version, integrity }, members = []) {
  const cache = process.env.ENCLAVE_CACHE || join(homedir(), '.cache', 'enclave')
  const home = join(cache, `${name.replace('/', '+')}@${version}`)
  if (existsSync(join(home, 'package.json')) || (members.length > 0 && members.every((member) => existsSync(join(home, member.replace(/^package\//, '')))))) return home
  mkdirSync(cache, { recursive: true })
  const work = mkdtempSync(join(tmpdir(), 'enclave-package-'))
  try {
    process.stderr.write(`fetching ${name}@${version} from the npm registry\n`)
    const [packed] = JSON.parse(execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', work],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))
    if (packed.integrity !== integrity) throw new Error(`${name}@${version}: integrity ${packed.integrity} is not the pinned ${integrity}`)
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work, ...members], { stdio: 'inherit' })
    // renamed into place last, so a fetch cut short never leaves half a package in the cache
    rmSync(home, { recursive: true, force: true })
    renameSync(join(work, 'package'), home)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return home
}
