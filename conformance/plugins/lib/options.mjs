/** Command-line options of `conformance/plugins/run.mjs` (`npm run conformance:plugins -- [options]`). */
import { commonOptions, parseValues } from '../../lib/options.mjs'
import { pluginLevelOf } from './levels.mjs'

export const USAGE = `Usage: npm run conformance:plugins -- [options]   (or: node conformance/plugins/run.mjs [options])
Runs the official plugins' and the listed community plugins' own test suites (conformance/plugins/plugins.json) on
Enclave's build, one plugin at a time.
  --fastify <4|5>         which releases: 4 (the Fastify 4 releases of plugins.json on the main entry, the default)
                          or 5 (the Fastify 5 releases of the official plugins, plugins-5.json, on Enclave's
                          ./fastify5 entry, with their own lists conformance/plugins/*-5.txt)
  --self                  run them on the real fastify (4.29.1, or 5.12.8 with --fastify 5) instead (must pass
                          100%: proves runner and lists)
  --plugin <regex>        only the plugins whose name matches
  --official              only the official plugins (plugins.json's \`plugins\`)
  --community             only the community plugins (plugins.json's \`community\`)
  --file <regex>          only the test files whose package-relative path (test/...) matches
  --grep <regex>          only the top-level tests whose name matches (tap's TAP_GREP; jest suites are left out)
  --git-dir <repo>=<dir>  where the git repository <repo> (owner/name) of a plugin whose npm tarball has no tests
                          is (a bare clone or its .git); may be repeated. Without it the snapshot of the
                          repository in ENCLAVE_CONFORMANCE_GIT_MIRRORS (default /work/.mirror, where the fetch
                          tool puts them: <owner>+<name>/repo) is used; with neither, such a plugin is not run
  --json <path>           write per-plugin, per-file and per-test results as JSON
  --markdown <path>       write the Markdown summary
  --timeout <seconds>     per-file time limit when the plugin sets none (default 60)
  --jobs <n>              test files of one plugin run at once, unless the plugin runs one at a time (default 2)
  --compile-cache         give every application a compile cache (compileCache: { dir }, one directory per test
                          process), so that the plugins' tests also run through it
  --ci                    exit 1 when a test not in conformance/plugins/expectations.txt (official plugins;
                          expectations-5.txt with --fastify 5) or community-expectations.txt (community plugins)
                          fails; flaky-tests.txt (-5.txt) never gates
  --update-expectations   remove from those files the entries that now pass
  --help                  this text
Environment: ENCLAVE_CONFORMANCE_CACHE (default \${XDG_CACHE_HOME:-~/.cache}/enclave-conformance), shared with
the main runner: the plugins go in its fastify-4.29.1/plugins/ (fastify-5.12.8/plugins/) folder.`

function gitDirs (values) {
  const dirs = new Map()
  for (const value of values) {
    const match = /^([\w.-]+\/[\w.-]+)=(.+)$/.exec(value)
    if (!match) throw new Error(`--git-dir ${value}: expected owner/name=<git directory>`)
    dirs.set(match[1], match[2])
  }
  return dirs
}

export function parseOptions (argv = process.argv.slice(2)) {
  const values = parseValues(argv, {
    fastify: { type: 'string', default: '4' },
    plugin: { type: 'string' },
    official: { type: 'boolean', default: false },
    community: { type: 'boolean', default: false },
    'git-dir': { type: 'string', multiple: true, default: [] }
  })
  if (values.official && values.community) throw new Error('--official and --community exclude each other')
  const group = values.official ? 'official' : values.community ? 'community' : undefined
  const level = pluginLevelOf(values.fastify)
  if (group && !level.expectations[group]) throw new Error(`--${group}: fastify@${level.fastify.version}'s plugin list has no ${group} plugins`)
  return { ...commonOptions(values, { '--plugin': values.plugin }), level, pluginPattern: values.plugin, group, gitDirs: gitDirs(values['git-dir']) }
}
