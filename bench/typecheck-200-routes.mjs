// Measures how long TypeScript takes to check a file of 200 routes whose types are inferred from inline schemas.
//
//   node bench/typecheck-200-routes.mjs [--routes 200] [--level 4|5] [--keep]
//
// It generates a temporary .ts file with N routes, each with distinct inline schemas (params, querystring, body and
// responses for 200 and 4xx) and a handler that uses the inferred types, sends a 4xx payload and returns a 200 payload
// (half of them leave out an optional field, which costs the checker more), then runs
// `tsc --noEmit --extendedDiagnostics` on it with the repository's compiler options, and prints tsc's figures.
// A baseline file with the same routes and no schemas is checked too, to show what the inference itself costs.
// `--level 5` reads the types at the Fastify 5 level (what the ./fastify5 entry's declarations set, src/types/level.ts).
// Exits non-zero if either file has a type error (such as "excessively deep").
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const count = Number(args[args.indexOf('--routes') + 1]) || 200
const keep = args.includes('--keep')
const level = args.includes('--level') ? Number(args[args.indexOf('--level') + 1]) : 4
const TARGET_SECONDS = 10

/** One route with schemas whose property names are unique to route `i`, so no two routes share a type. */
function routeWithSchemas (i) {
  return `
app.post('/r${i}/:id${i}', {
  schema: {
    params: { type: 'object', properties: { id${i}: { type: 'integer' } }, required: ['id${i}'] },
    querystring: { page${i}: { type: 'integer', default: 1 }, sort${i}: { type: 'string', enum: ['asc', 'desc'] } },
    body: {
      type: 'object',
      properties: {
        name${i}: { type: 'string' },
        tags${i}: { type: 'array', items: { type: 'string' } },
        address${i}: { type: 'object', properties: { city${i}: { type: 'string' }, zip${i}: { type: ['string', 'null'] } }, required: ['city${i}'] },
        kind${i}: { anyOf: [{ type: 'string' }, { type: 'number' }] }
      },
      required: ['name${i}', 'address${i}']
    },
    response: {
      200: {
        type: 'object',
        properties: { id${i}: { type: 'integer' }, name${i}: { type: 'string' }, city${i}: { type: 'string' }, page${i}: { type: 'integer' } },
        required: ['id${i}', 'name${i}']
      },
      '4xx': { type: 'object', properties: { error${i}: { type: 'string' } }, required: ['error${i}'] }
    }
  }
}, async (request, reply) => {
  if (request.body.name${i} === '') return reply.code(400).send({ error${i}: 'empty name' })
  return { id${i}: request.params.id${i}, name${i}: request.body.name${i}, city${i}: request.body.address${i}.city${i}${i % 2 === 0 ? `, page${i}: request.query.page${i}` : ''} }
})
`
}

function routeWithoutSchemas (i) {
  return `
app.post('/r${i}/:id${i}', {}, async (request, reply) => {
  if (request.body === undefined) return reply.code(400).send({ error${i}: 'empty' })
  return { id${i}: ${i} }
})
`
}

function source (routes) {
  const typesPath = join(root, 'src', 'types').replace(/\\/g, '/')
  const atLevel5 = level === 5 ? `declare module '${typesPath}/level' { interface EnclaveTypesLevel { major: 5 } }\n` : ''
  return `import type { EnclaveInstance } from '${typesPath}'\n${atLevel5}declare const app: EnclaveInstance\n${routes.join('')}`
}

/** Runs tsc on one file with the repository's compiler options; returns tsc's diagnostics figures. */
function check (dir, name, text) {
  const file = join(dir, `${name}.ts`)
  writeFileSync(file, text)
  const repoConfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'))
  const config = {
    compilerOptions: { ...repoConfig.compilerOptions, rootDir: '/', typeRoots: [join(root, 'node_modules', '@types')] },
    files: [file]
  }
  const configFile = join(dir, `tsconfig.${name}.json`)
  writeFileSync(configFile, JSON.stringify(config, null, 2))
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  let output
  let failed = false
  try {
    output = execFileSync(process.execPath, [tsc, '-p', configFile, '--noEmit', '--extendedDiagnostics'], { encoding: 'utf8' })
  } catch (err) {
    output = String(err.stdout ?? '') + String(err.stderr ?? '')
    failed = true
  }
  const figure = (label) => output.match(new RegExp(`^${label}:\\s+(.+)$`, 'm'))?.[1].trim()
  return {
    failed,
    errors: output.split('\n').filter((line) => line.includes('error TS')),
    lines: text.split('\n').length,
    check: figure('Check time'),
    total: figure('Total time'),
    instantiations: figure('Instantiations'),
    types: figure('Types'),
    memory: figure('Memory used')
  }
}

const dir = mkdtempSync(join(tmpdir(), 'enclave-typecheck-'))
const indices = Array.from({ length: count }, (_, i) => i)
try {
  const results = {
    [`${count} routes with inline schemas`]: check(dir, 'with-schemas', source(indices.map(routeWithSchemas))),
    [`${count} routes without schemas`]: check(dir, 'without-schemas', source(indices.map(routeWithoutSchemas)))
  }
  console.log(`TypeScript ${JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version}, node ${process.version}, the Fastify ${level} level`)
  let failed = false
  for (const [label, r] of Object.entries(results)) {
    console.log(`\n${label} (${r.lines} lines):`)
    console.log(`  check time ${r.check}, total time ${r.total}, instantiations ${r.instantiations}, types ${r.types}, memory ${r.memory}`)
    if (r.failed) {
      failed = true
      console.log(`  FAILED with ${r.errors.length} error(s):\n  ${r.errors.slice(0, 5).join('\n  ')}`)
    }
  }
  const seconds = parseFloat(results[`${count} routes with inline schemas`].total)
  console.log(`\n${seconds < TARGET_SECONDS ? 'within' : 'OVER'} the ${TARGET_SECONDS} s target (total time of the file with schemas)`)
  if (keep) console.log(`files kept in ${dir}`)
  process.exitCode = failed ? 1 : 0
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true })
}
