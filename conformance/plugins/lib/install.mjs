/**
 * What a plugin's tests need, in the cache outside the repository: its npm tarball (checked against the pinned
 * integrity), its dependencies and the dev dependencies its test files load, installed once by npm (no install
 * scripts, peer dependencies not added, versions as the registry had them on the list's `dependenciesBefore`), and —
 * for a plugin whose tarball ships no tests — the test folders of its git repository at the release tag.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fetchPackage, npm } from '../../lib/cache.mjs'
import { log } from '../../lib/paths.mjs'

function readManifest (tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }))
}

/**
 * The package.json installed for `plugin`: its dependencies and its dev dependencies less the omitted ones (those
 * omitted everywhere unless the plugin's tests load them: its `keep`).
 */
function dependencyManifest (plugin, manifest, omitEverywhere) {
  const keep = new Set(plugin.keep ?? [])
  const omit = new Set([...omitEverywhere.filter((name) => !keep.has(name)), ...(plugin.omit ?? [])])
  const devDependencies = Object.entries(manifest.devDependencies ?? {}).filter(([name]) => !omit.has(name))
  return {
    name: `enclave-plugin-tests-${manifest.name.replace(/^@/, '').replace('/', '-')}`,
    version: '0.0.0',
    private: true,
    description: `What ${manifest.name}@${manifest.version}'s test files load, for conformance/plugins/run.mjs.`,
    dependencies: Object.fromEntries([...Object.entries(manifest.dependencies ?? {}), ...devDependencies].sort(([a], [b]) => a.localeCompare(b)))
  }
}

/**
 * `{ tarball, modules }` for `plugin` in `dir`: the tarball, and the node_modules folder its tests resolve from.
 * The install is redone only when what it would install changed.
 */
export function installPlugin (plugin, dir, { dependenciesBefore, omitEverywhere }, gitDir = null) {
  mkdirSync(dir, { recursive: true })
  const tarball = fetchPackage(dir, plugin.name, plugin.version, plugin.integrity)
  const depsDir = path.join(dir, 'deps')
  const published = readManifest(tarball)
  // Some packages are published with their dev dependencies stripped (fastify-disablecache): those of the release
  // tag, whose tests are the ones run, are then what the tests load.
  if (!published.devDependencies && gitDir) published.devDependencies = gitManifest(plugin, gitDir).devDependencies
  const manifest = JSON.stringify(dependencyManifest(plugin, published, omitEverywhere), null, 2) + '\n'
  const stamp = createHash('sha256').update(manifest).update(dependenciesBefore).digest('hex')
  const stampFile = path.join(depsDir, '.installed-sha256')
  const modules = path.join(depsDir, 'node_modules')
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return { tarball, modules }
  rmSync(depsDir, { recursive: true, force: true })
  mkdirSync(depsDir, { recursive: true })
  writeFileSync(path.join(depsDir, 'package.json'), manifest)
  log(`npm install of ${plugin.name}@${plugin.version}'s test dependencies → ${depsDir}`)
  // No install scripts (the cache should not run code at install time) and no peer dependencies added: `fastify`,
  // which some of them name as a peer, is linked to the framework under test instead.
  npm(['install', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error',
    `--before=${dependenciesBefore}`], depsDir)
  writeFileSync(stampFile, stamp)
  return { tarball, modules }
}

/** Where the `fetch` look-up tool puts GitHub snapshots: `<dir>/<owner>+<name>/repo` (a bare git directory). */
const DEFAULT_MIRRORS = '/work/.mirror'

function mirroredGitDir (repository) {
  const mirrors = process.env.ENCLAVE_CONFORMANCE_GIT_MIRRORS ?? DEFAULT_MIRRORS
  const gitDir = path.join(mirrors, repository.replace('/', '+'), 'repo')
  return existsSync(path.join(gitDir, 'HEAD')) ? gitDir : null
}

/**
 * The git directory of `repository` (`owner/name`): the one given with `--git-dir owner/name=<dir>`, else a snapshot
 * in the mirrors folder (ENCLAVE_CONFORMANCE_GIT_MIRRORS, default /work/.mirror), else null. The tests are read from
 * its tag, whose package.json must name the pinned version.
 */
export function testsFromGit (plugin, gitDirs) {
  const { repository, tag } = plugin.testsFrom
  const gitDir = gitDirs.get(repository) ?? mirroredGitDir(repository)
  if (!gitDir) return null
  const manifest = gitManifest(plugin, gitDir)
  if (manifest.name !== plugin.name || manifest.version !== plugin.version) {
    throw new Error(`${gitDir} at ${tag} is ${manifest.name}@${manifest.version}, not ${plugin.name}@${plugin.version}`)
  }
  return gitDir
}

/** The package.json of the plugin's release tag in `gitDir`. */
function gitManifest (plugin, gitDir) {
  return JSON.parse(execFileSync('git', ['--git-dir', gitDir, 'show', `${plugin.testsFrom.tag}:package.json`], { encoding: 'utf8' }))
}

/** Writes the tag's test folders (`testsFrom.paths`) into `tree`. */
export function unpackGitTests (plugin, gitDir, tree) {
  const { tag, paths } = plugin.testsFrom
  const archive = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', tag, ...paths], { maxBuffer: 64 * 1024 * 1024 })
  execFileSync('tar', ['-xf', '-', '-C', tree], { input: archive })
}
