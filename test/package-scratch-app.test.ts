/**
 * A scratch application made from the packed packages, as a user installs them: `fastify` is an alias of
 * enclave-http (the Fastify 4 level) or of enclave-http-fastify5 (packages/fastify5, the Fastify 5 level), beside
 * the current @fastify/cors, @fastify/swagger, @fastify/swagger-ui and a TypeBox route. The same application code
 * runs on both, and its TypeBox route type-checks through the published types. The registry is played by the packed tarballs, unpacked where npm would put them; the other
 * packages are the repository's own (symlinks into its node_modules), so the test needs no network.
 */
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// Runs against the compiled package (`npm test` builds first), as package.test.ts does.
const root = path.join(__dirname, '..')
const repoModules = path.join(root, 'node_modules')

/** The current plugins the scratch applications install, and where the repository keeps each (its npm aliases). */
const plugins: Record<string, string> = {
  '@fastify/cors': '@fastify5/cors',
  '@fastify/swagger': '@fastify5/swagger',
  '@fastify/swagger-ui': '@fastify5/swagger-ui',
  '@fastify/type-provider-typebox': '@fastify5/type-provider-typebox',
  typebox: 'typebox'
}

/** The application: nothing in it says which level it runs on; the installed `fastify` decides. */
const appSource = `
import Fastify from 'fastify'
import cors from '@fastify/cors'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Type } from '@fastify/type-provider-typebox'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const app = Fastify()
await app.register(cors, { origin: 'https://client.example' })
await app.register(swagger, { openapi: { info: { title: 'Scratch', version: '1.0.0' } } })
await app.register(swaggerUi, { routePrefix: '/docs' })

app.post('/greet', {
  schema: {
    body: Type.Object({ name: Type.String({ minLength: 1 }) }),
    response: { 200: Type.Object({ greeting: Type.String() }) }
  }
}, async (request) => ({ greeting: 'hello ' + request.body.name, internal: 'not in the schema' }))
app.get('/where', async (request) => ({ hostname: request.hostname, host: request.host }))
await app.ready()

const answer = async (options) => {
  const res = await app.inject(options)
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body }
}
const preflight = await app.inject({
  method: 'OPTIONS', url: '/greet',
  headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' }
})
const spec = JSON.parse((await app.inject('/docs/json')).body)
console.log(JSON.stringify({
  version: app.version,
  sameModule: require('fastify') === Fastify,
  greet: await answer({ method: 'POST', url: '/greet', payload: { name: 'Ada' } }),
  invalid: await answer({ method: 'POST', url: '/greet', payload: { name: '' } }),
  preflight: [preflight.statusCode, preflight.headers['access-control-allow-origin'], preflight.headers['access-control-allow-methods']],
  spec: { openapi: spec.openapi, info: spec.info, greet: spec.paths['/greet'].post.requestBody.content['application/json'].schema },
  ui: await answer('/docs'),
  where: JSON.parse((await app.inject({ url: '/where', headers: { host: 'shop.example:8080' } })).body)
}))
await app.close()
`

/** The TypeBox route again, in TypeScript: the current provider (Fastify 5's form) types it through the package. */
const typedSource = `
import Fastify from 'fastify'
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'

const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
app.post('/greet', {
  schema: { body: Type.Object({ name: Type.String() }), response: { 200: Type.Object({ greeting: Type.String() }) } }
}, async (request) => {
  const name: string = request.body.name
  // @ts-expect-error the body's name is a string
  const count: number = request.body.name
  return { greeting: 'hello ' + name + count }
})
// @ts-expect-error the reply's greeting is a string
app.get('/wrong', { schema: { response: { 200: Type.Object({ greeting: Type.String() }) } } }, async () => ({ greeting: 1 }))
export default app
`

/** An application's usual settings for ES modules; the symlinked packages are read where the application has them. */
const tsconfig = {
  compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, preserveSymlinks: true, types: ['node'] },
  files: ['typed.mts']
}

/** `npm pack` of a folder into `destination`; returns the tarball's path. */
function pack (folder: string, destination: string): string {
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']
  })) as Array<{ filename: string }>
  return path.join(destination, filename)
}

/** What npm does with a tarball dependency: its `package/` folder becomes node_modules/<the name it is installed as>. */
function unpackAs (tarball: string, appDir: string, name: string): string {
  const target = path.join(appDir, 'node_modules', name)
  mkdirSync(target, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
  return target
}

function linkAs (appDir: string, name: string, target: string): void {
  const at = path.join(appDir, 'node_modules', name)
  mkdirSync(path.dirname(at), { recursive: true })
  symlinkSync(target, at, 'dir')
}

/** Enclave's own dependencies, from the repository (the root's direct dependencies sit at its node_modules' top). */
function linkDependenciesOf (packageDir: string, appDir: string): void {
  const { dependencies } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  for (const name of Object.keys(dependencies)) linkAs(appDir, name, path.join(repoModules, name))
}

/** A scratch application whose `fastify` dependency is `fastifySpec`, installed from the packed tarballs. */
function scratchApp (dir: string, fastifySpec: string, install: (appDir: string) => void): string {
  mkdirSync(dir)
  const dependencies: Record<string, string> = { fastify: fastifySpec }
  for (const [name, alias] of Object.entries(plugins)) {
    dependencies[name] = '^' + JSON.parse(readFileSync(path.join(repoModules, alias, 'package.json'), 'utf8')).version
    linkAs(dir, name, path.join(repoModules, alias))
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true, type: 'module', dependencies }, null, 2))
  writeFileSync(path.join(dir, 'app.js'), appSource)
  writeFileSync(path.join(dir, 'typed.mts'), typedSource)
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  linkAs(dir, '@types/node', path.join(repoModules, '@types', 'node'))
  install(dir)
  return dir
}

function run (appDir: string): any {
  return JSON.parse(execFileSync(process.execPath, ['app.js'], { cwd: appDir, encoding: 'utf8' }))
}

describe('a scratch application on the packed packages, with current plugins and a TypeBox route', () => {
  let dir: string
  let mainTarball: string
  let fastify5Tarball: string
  let app4: string
  let app5: string

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-scratch-'))
    const tarballs = path.join(dir, 'tarballs')
    mkdirSync(tarballs)
    mainTarball = pack(root, tarballs)
    fastify5Tarball = pack(path.join(root, 'packages', 'fastify5'), tarballs)
    // "fastify": "npm:enclave-http-fastify5@…", played by its tarball
    app5 = scratchApp(path.join(dir, 'app5'), `file:${path.relative(path.join(dir, 'app5'), fastify5Tarball)}`, (appDir) => {
      unpackAs(fastify5Tarball, appDir, 'fastify')
      // enclave-http-fastify5's one dependency: the same release of enclave-http
      linkDependenciesOf(unpackAs(mainTarball, appDir, 'enclave-http'), appDir)
    })
    // "fastify": "npm:enclave-http@…"
    app4 = scratchApp(path.join(dir, 'app4'), `file:${path.relative(path.join(dir, 'app4'), mainTarball)}`, (appDir) => {
      linkDependenciesOf(unpackAs(mainTarball, appDir, 'fastify'), appDir)
    })
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  const expectedCommon = {
    sameModule: true,
    greet: { status: 200, type: 'application/json; charset=utf-8', body: '{"greeting":"hello Ada"}' },
    invalid: {
      status: 400,
      type: 'application/json; charset=utf-8',
      body: '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/name must NOT have fewer than 1 characters"}'
    },
    preflight: [204, 'https://client.example', 'GET,HEAD,POST'],
    spec: {
      openapi: '3.0.3',
      info: { title: 'Scratch', version: '1.0.0' },
      greet: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } }
    }
  }

  test('"fastify": "npm:enclave-http-fastify5@…" (packages/fastify5) is the Fastify 5 level', () => {
    const { ui, ...result } = run(app5)
    assert.deepEqual(result, { ...expectedCommon, version: '5.12.8', where: { hostname: 'shop.example', host: 'shop.example:8080' } })
    assert.deepEqual([ui.status, ui.type], [200, 'text/html; charset=utf-8'])
    assert.match(ui.body, /<title>Swagger UI<\/title>/)
  })

  test('"fastify": "npm:enclave-http@…" is the Fastify 4 level, and takes the same current plugins', () => {
    const { ui, ...result } = run(app4)
    assert.deepEqual(result, { ...expectedCommon, version: '4.29.1', where: { hostname: 'shop.example:8080', host: 'shop.example:8080' } })
    assert.deepEqual([ui.status, ui.type], [200, 'text/html; charset=utf-8'])
    assert.match(ui.body, /<title>Swagger UI<\/title>/)
  })

  test('TypeScript: the TypeBox route is typed by @fastify/type-provider-typebox 6 through the published types', () => {
    // tsc prints the errors and exits non-zero when a type is wrong or an @ts-expect-error is unused
    try {
      execFileSync(process.execPath, [path.join(repoModules, 'typescript', 'bin', 'tsc'), '-p', app5], { encoding: 'utf8' })
    } catch (error: any) {
      assert.fail(`tsc: ${error.stdout}`)
    }
  })

  test('enclave-http-fastify5 is released with enclave-http: the same version, depending on exactly that release', () => {
    const main = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
    const fastify5 = JSON.parse(readFileSync(path.join(root, 'packages', 'fastify5', 'package.json'), 'utf8'))
    assert.equal(fastify5.version, main.version)
    assert.deepEqual(fastify5.dependencies, { [main.name]: main.version })
    assert.equal(path.basename(fastify5Tarball), `enclave-http-fastify5-${main.version}.tgz`)
  })
})
