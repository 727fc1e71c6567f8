/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`):
 *   node bench/profile-summary.mjs <file.cpuprofile> [--top 20] [--json] [--callers <function name regexp>]
 * Prints the top functions by self time (with their inclusive time) and self time grouped by file/package;
 * `--callers` lists who called the matching functions, by inclusive time.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A short, stable name for where a function lives: a package, a repo file or a node: module. */
function location (url) {
  if (!url) return ''
  let file = url.startsWith('file://') ? fileURLToPath(url) : url
  const nodeModules = file.lastIndexOf('node_modules/')
  if (nodeModules !== -1) return file.slice(nodeModules + 'node_modules/'.length)
  if (file.startsWith(repoRoot + path.sep)) file = path.relative(repoRoot, file)
  return file
}

function packageOf (file, name) {
  if (file === '') return name.startsWith('(') ? name : 'native code (syscalls, builtins)'
  if (file.startsWith('node:')) return 'node: internals'
  if (file === '(generated code)') return 'generated code (new Function: serializers, validators)'
  if (file.startsWith('dist/') || file.startsWith('src/')) return file
  if (file.startsWith('bench/')) return 'bench app/handlers'
  const parts = file.split('/')
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

/**
 * @param {object} profile parsed .cpuprofile
 * @returns {{ totalMs: number, functions: object[], files: object[] }}
 */
export function summarizeProfile (profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

  const keyOf = new Map()
  const functions = new Map()
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, scriptId } = node.callFrame
    // Code from `new Function` (validators, serializers) has a script but no URL; natives have script 0.
    const generated = !url && String(scriptId) !== '0'
    const file = generated ? '(generated code)' : location(url)
    const name = functionName || (url || generated ? '(anonymous)' : '(root)')
    const key = `${name} ${file}:${lineNumber + 1}`
    keyOf.set(node.id, key)
    if (!functions.has(key)) {
      const where = !file ? '' : generated ? file : `${file}:${lineNumber + 1}`
      functions.set(key, { name, where, file, selfUs: 0, totalUs: 0 })
    }
  }

  const { samples, timeDeltas } = profile
  let totalUs = 0
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] precedes sample i; the time spent in sample i is the gap to the next one.
    const us = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0
    totalUs += us
    const leaf = samples[i]
    functions.get(keyOf.get(leaf)).selfUs += us
    const seen = new Set()
    for (let id = leaf; id !== undefined; id = parent.get(id)) {
      const key = keyOf.get(id)
      if (seen.has(key)) continue
      seen.add(key)
      functions.get(key).totalUs += us
    }
    if (!byId.has(leaf)) throw new Error(`sample refers to unknown node ${leaf}`)
  }

  const callers = new Map()
  for (let i = 0; i < samples.length; i++) {
    const us = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0
    const seen = new Set()
    for (let id = samples[i]; id !== undefined; id = parent.get(id)) {
      const key = keyOf.get(id)
      const caller = parent.get(id) === undefined ? '(none)' : keyOf.get(parent.get(id))
      const edge = `${key}\u0000${caller}`
      if (seen.has(edge)) continue
      seen.add(edge)
      callers.set(edge, (callers.get(edge) ?? 0) + us)
    }
  }

  const files = new Map()
  for (const fn of functions.values()) {
    const pkg = packageOf(fn.file, fn.name)
    files.set(pkg, (files.get(pkg) ?? 0) + fn.selfUs)
  }
  /** Callers of the functions whose name matches `pattern`, by inclusive time spent in the callee from there. */
  function callersOf (pattern) {
    const rows = []
    for (const [edge, us] of callers) {
      const [callee, caller] = edge.split('\u0000')
      if (pattern.test(callee.split(' ')[0])) rows.push({ callee, caller, us })
    }
    return rows.sort((a, b) => b.us - a.us)
  }
  return {
    callersOf,
    totalMs: totalUs / 1000,
    functions: [...functions.values()].sort((a, b) => b.selfUs - a.selfUs),
    files: [...files.entries()].map(([name, selfUs]) => ({ name, selfUs })).sort((a, b) => b.selfUs - a.selfUs)
  }
}

function percent (part, whole) {
  return `${((part / whole) * 100).toFixed(1)}%`
}

export function renderProfileSummary (summary, top = 20) {
  const total = summary.totalMs * 1000
  const lines = [
    `Profile: ${summary.totalMs.toFixed(0)} ms sampled`,
    '',
    '| # | self | total | function | where |',
    '|--:|--:|--:|---|---|'
  ]
  summary.functions.slice(0, top).forEach((fn, i) => {
    lines.push(`| ${i + 1} | ${percent(fn.selfUs, total)} | ${percent(fn.totalUs, total)} | ${fn.name} | ${fn.where} |`)
  })
  lines.push('', '| self time by file / package | self |', '|---|--:|')
  for (const file of summary.files.slice(0, 15)) lines.push(`| ${file.name} | ${percent(file.selfUs, total)} |`)
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const file = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg))
  if (!file) {
    console.error('Usage: node bench/profile-summary.mjs <file.cpuprofile> [--top 20] [--json] [--callers <regexp>]')
    process.exit(2)
  }
  const topIndex = args.indexOf('--top')
  const top = topIndex === -1 ? 20 : Number(args[topIndex + 1])
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')))
  const callersIndex = args.indexOf('--callers')
  if (callersIndex !== -1) {
    const pattern = new RegExp(`^(?:${args[callersIndex + 1]})$`)
    for (const row of summary.callersOf(pattern).slice(0, top)) {
      console.log(`${percent(row.us, summary.totalMs * 1000).padStart(6)}  ${row.callee}  ←  ${row.caller}`)
    }
  } else if (args.includes('--json')) {
    console.log(JSON.stringify({ ...summary, callersOf: undefined, functions: summary.functions.slice(0, top) }, null, 2))
  } else {
    console.log(renderProfileSummary(summary, top))
  }
}
