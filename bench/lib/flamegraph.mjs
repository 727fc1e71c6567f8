/**
 * Flame graphs of `perf` samples (bench/flamegraph.mjs): the call stacks `perf script` prints, folded into counts per
 * stack, and drawn as a static SVG (root at the bottom, each frame as wide as its share of the samples), so that
 * docs/performance-analysis.md can show where a request's CPU goes: the kernel, V8 and Node's C++, Node's own
 * JavaScript, the framework, the application.
 *
 * Why `perf` rather than V8's `--cpu-prof`: a V8 profile sees JavaScript only, and without pipelining most of a
 * request is the kernel's TCP and Node's C++ (its HTTP parser, libuv). With `node --perf-basic-prof`, `perf` names the
 * JavaScript frames too. Why our own drawing: the one npm package that draws flame graphs as SVG in Node (`flamegraph`)
 * is unmaintained and reads neither today's `.cpuprofile` format nor stacks without offsets; the drawing is ~100 lines.
 */

/** Where a frame's code comes from; the colour of its boxes and a row of the shares table. */
export const CATEGORIES = {
  kernel: { label: 'kernel (TCP, syscalls)', hue: 20 },
  native: { label: 'V8 and Node C++ (parser, libuv, GC, builtins)', hue: 45 },
  node: { label: "Node's JavaScript (node:http, streams)", hue: 100 },
  framework: { label: 'framework JavaScript (and its packages)', hue: 210 },
  app: { label: 'application JavaScript (bench handlers)', hue: 280 },
  generated: { label: 'generated code (validators, serializers)', hue: 330 }
}

/**
 * One frame of `perf script -F comm,pid,tid,ip,sym,dso` as a short name and its category. JavaScript frames come from
 * `--perf-basic-prof`'s map (`JS:*name file:///path:line:column`, `*` optimized, `~` not), the rest from symbols.
 */
export function describeFrame (symbol, dso) {
  if (dso === '[kernel.kallsyms]' || dso.startsWith('[kernel')) return { name: symbol, category: 'kernel' }
  if (!symbol.startsWith('JS:')) return { name: symbol.replace(/^(Builtin|BytecodeHandler|Stub|Handler):/, ''), category: 'native' }
  // the name may hold spaces (`get hasSubscribers`); the location, last, always holds a colon
  const [, fn, where = ''] = /^JS:[*~^+-]?(.*?)(?:\s+(\S*:\S*))?$/.exec(symbol)
  const name = fn === '' ? '(anonymous)' : fn
  if (where.startsWith('node:')) return { name: `${name} ${where.replace(/:\d+(:\d+)?$/, '')}`, category: 'node' }
  const file = where.replace(/^file:\/\//, '').replace(/:\d+(:\d+)?$/, '')
  const modules = file.lastIndexOf('node_modules/')
  if (modules !== -1) {
    const parts = file.slice(modules + 'node_modules/'.length).split('/')
    return { name: `${name} ${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`, category: 'framework' }
  }
  if (/\/dist\/[^/]*\.js$|\/src\//.test(file)) return { name: `${name} ${file.split('/').pop()}`, category: 'framework' }
  if (/\/bench\//.test(file)) return { name: `${name} ${file.split('/').pop()}`, category: 'app' }
  return { name: `${name}`, category: 'generated' }
}

/**
 * Folds `perf script -F comm,pid,tid,ip,sym,dso` output: each sample's stack, root first, joined by ';', counted.
 * Only samples of thread `tid` (the server's main thread) when given. Frames perf could not name are left out.
 * @returns {{ stacks: Map<string, number>, categories: Map<string, string>, samples: number }}
 */
export function foldPerfScript (text, { tid } = {}) {
  const stacks = new Map()
  const categories = new Map()
  let samples = 0
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.trim() !== '')
    if (lines.length < 2) continue
    const head = /^\S.*?\s(\d+)\/(\d+)\s*$/.exec(lines[0])
    if (head === null || (tid !== undefined && Number(head[2]) !== tid)) continue
    const frames = []
    for (const line of lines.slice(1)) {
      const frame = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^)]*)\)\s*$/.exec(line)
      if (frame === null || frame[1] === '[unknown]') continue
      const { name, category } = describeFrame(frame[1], frame[2])
      categories.set(name, category)
      frames.push(name.replaceAll(';', ','))
    }
    if (frames.length === 0) continue
    const stack = frames.reverse().join(';')
    stacks.set(stack, (stacks.get(stack) ?? 0) + 1)
    samples++
  }
  return { stacks, categories, samples }
}

/** Each category's share of the samples, by the frame the sample was taken in (self time). */
export function categoryShares ({ stacks, categories, samples }) {
  const counts = Object.fromEntries(Object.keys(CATEGORIES).map((key) => [key, 0]))
  for (const [stack, count] of stacks) counts[categories.get(stack.slice(stack.lastIndexOf(';') + 1))] += count
  return Object.fromEntries(Object.entries(counts).map(([key, count]) => [key, samples === 0 ? 0 : count / samples]))
}

function buildTree (stacks) {
  const root = { name: 'all', value: 0, children: new Map() }
  for (const [stack, count] of stacks) {
    root.value += count
    let node = root
    for (const name of stack.split(';')) {
      let child = node.children.get(name)
      if (child === undefined) node.children.set(name, (child = { name, value: 0, children: new Map() }))
      child.value += count
      node = child
    }
  }
  return root
}

const escapeXml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])

function colour (name, category) {
  let hash = 0
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0
  const { hue } = CATEGORIES[category] ?? CATEGORIES.native
  return `hsl(${hue + (hash % 20) - 10}, ${55 + (hash >> 5) % 25}%, ${62 + (hash >> 10) % 14}%)`
}

/**
 * The SVG of a folded profile: `title` and `subtitle` above, a legend of the categories with their shares below.
 * Frames narrower than `minWidth` pixels are left out, with everything above them.
 */
export function renderFlameGraph (folded, { title, subtitle = '', width = 1200, frameHeight = 16, minWidth = 0.8 } = {}) {
  const root = buildTree(folded.stacks)
  const pad = 10
  const scale = root.value === 0 ? 0 : (width - 2 * pad) / root.value
  const boxes = []
  let depth = 0
  const walk = (node, x, level) => {
    const w = node.value * scale
    if (w < minWidth) return
    depth = Math.max(depth, level)
    boxes.push({ node, x, w, level })
    let childX = x
    for (const child of [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      walk(child, childX, level + 1)
      childX += child.value * scale
    }
  }
  walk(root, pad, 0)
  const shares = categoryShares(folded)
  const legendRows = Object.keys(CATEGORIES).length
  const top = 56
  const height = top + (depth + 1) * frameHeight + 16 + legendRows * 16 + 10
  const base = top + depth * frameHeight
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Verdana, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fbfbf6"/>`,
    `<text x="${width / 2}" y="22" font-size="16" text-anchor="middle">${escapeXml(title)}</text>`,
    `<text x="${width / 2}" y="42" fill="#555" text-anchor="middle">${escapeXml(subtitle)}</text>`
  ]
  for (const { node, x, w, level } of boxes) {
    const y = base - level * frameHeight
    const category = level === 0 ? 'native' : folded.categories.get(node.name)
    const share = ((node.value / root.value) * 100).toFixed(2)
    const chars = Math.floor((w - 6) / 6.6)
    const label = chars < 3 ? '' : node.name.length <= chars ? node.name : `${node.name.slice(0, chars - 2)}..`
    out.push(`<g><title>${escapeXml(`${node.name}: ${node.value} samples, ${share}%`)}</title>` +
      `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${frameHeight - 1}" rx="2" fill="${level === 0 ? '#ddd' : colour(node.name, category)}"/>` +
      (label === '' ? '' : `<text x="${(x + 3).toFixed(1)}" y="${y + frameHeight - 4}">${escapeXml(label)}</text>`) + '</g>')
  }
  let legendY = base + frameHeight + 20
  for (const [key, { label, hue }] of Object.entries(CATEGORIES)) {
    out.push(`<rect x="${pad}" y="${legendY - 10}" width="12" height="12" fill="hsl(${hue}, 65%, 68%)"/>` +
      `<text x="${pad + 18}" y="${legendY}">${escapeXml(`${(shares[key] * 100).toFixed(1)}% ${label}`)}</text>`)
    legendY += 16
  }
  out.push('</svg>')
  return out.join('\n') + '\n'
}
