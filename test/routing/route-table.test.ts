/**
 * The route table (static routes beside find-my-way) must answer exactly as find-my-way alone would. Each case
 * registers the same routes in a RouteTable and in a plain find-my-way router with the same settings, then compares
 * lookups of many URLs (queries, escapes, slashes, case, absolute form), pattern lookups, removal and printing.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import FindMyWay from 'find-my-way'
import { RouteTable } from '../../src/routing/route-table'
import type { Router } from '../../src/encapsulation/app-state'

type Settings = Record<string, unknown>

const routes: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/users'],
  ['POST', '/users'],
  ['GET', '/users/:id'],
  ['GET', '/users/me'],
  ['GET', '/Mixed/Case'],
  ['GET', '/files/*'],
  ['GET', '/files/readme'],
  ['GET', '/a/b'],
  ['GET', '/a/:x/c'],
  ['PUT', '/trailing/'],
  ['GET', '/caf\u00e9'],
  ['GET', '/semi'],
  ['GET', '/name::verb'],
  ['DELETE', '/items/:id'],
  ['OPTIONS', '/items'],
  ['MKCOL', '/dav']
]

const urls = [
  '/', '/users', '/users?x=1&y=2', '/users#frag', '/users/', '/users//', '//users', '/users/me', '/users/42',
  '/users/me?q=a', '/USERS', '/mixed/case', '/Mixed/Case', '/files/readme', '/files/other', '/a/b', '/a/b/c',
  '/a/z/c', '/trailing', '/trailing/', '/caf%C3%A9', '/caf%c3%a9?x=%41', '/caf\u00e9', '/us%65rs', '/users%2Fme',
  '/a%2Fb', '/a/%62', '/%', '/bad%E0%A4%A', '/semi;jsessionid=1', '/semi;x', '/name:verb', '/items', '/items/7',
  '/dav', 'http://example.com/users?x=1', 'https://example.com', 'http://example.com?x=1', '*', 'nothing', '/nope',
  '/users?', '/users?a=%20b'
]

function both (settings: Settings): { table: RouteTable, reference: Router } {
  const create = (): Router => FindMyWay(settings as FindMyWay.Config<FindMyWay.HTTPVersion.V1>) as unknown as Router
  return { table: new RouteTable(create), reference: create() }
}

function register (router: RouteTable | Router, method: string, path: string, store: unknown, constraints: Record<string, unknown> = {}): void {
  (router.on as (...args: unknown[]) => void)(method, path, { constraints }, handlerOf(method, path), store)
}

const handlers = new Map<string, () => void>()
function handlerOf (method: string, path: string): () => void {
  const key = `${method} ${path}`
  if (!handlers.has(key)) handlers.set(key, () => {})
  return handlers.get(key)!
}

function assertSameLookups (table: RouteTable, reference: Router, label: string, derived?: Record<string, unknown>): void {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'MKCOL', 'HEAD']) {
    for (const url of urls) {
      const expected = reference.find(method as never, url, derived)
      const actual = table.find(method, url, derived)
      const where = `${label}: ${method} ${url}`
      if (expected === null) {
        assert.equal(actual, null, where)
        continue
      }
      assert.notEqual(actual, null, where)
      // a URL find-my-way cannot decode gets a handler made for it (onBadUrl), with no store
      if (expected.store !== null) assert.equal(actual!.handler, expected.handler, where)
      else assert.equal(typeof actual!.handler, 'function', where)
      assert.equal(actual!.store, expected.store, where)
      // prototypes included: a static route's params are find-my-way's kind of empty object
      assert.deepStrictEqual(actual!.params, expected.params, where)
      assert.deepStrictEqual(actual!.searchParams, expected.searchParams, where)
    }
  }
}

const settingsCases: Array<[string, Settings]> = [
  ['defaults', {}],
  ['ignoreTrailingSlash', { ignoreTrailingSlash: true }],
  ['ignoreDuplicateSlashes', { ignoreDuplicateSlashes: true }],
  ['case-insensitive', { caseSensitive: false }],
  ['semicolon delimiter', { useSemicolonDelimiter: true }],
  ['all of them', { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false, useSemicolonDelimiter: true }],
  ['a custom query-string parser', { querystringParser: (query: string) => ({ raw: query }) }],
  ['onBadUrl', { onBadUrl: () => {} }]
]

for (const [name, settings] of settingsCases) {
  test(`route table, ${name}: every lookup answers as find-my-way alone`, () => {
    const { table, reference } = both(settings)
    routes.forEach(([method, path], i) => {
      const store = { i }
      register(reference, method, path, store)
      register(table, method, path, store)
    })
    assertSameLookups(table, reference, name)
    assertSameLookups(table, reference, `${name}, empty derived constraints`, {})
    assertSameLookups(table, reference, `${name}, a derived version`, { version: '1.0.0' })
    for (const [method, path] of [...routes, ['GET', '/users/'], ['GET', '/USERS'], ['GET', '/nope'], ['POST', '/a/b']]) {
      assert.equal(table.findRoute(method, path)?.store, reference.findRoute(method as never, path)?.store, `findRoute ${method} ${path}`)
      assert.equal(table.hasRoute(method, path), reference.hasRoute(method as never, path, {}), `hasRoute ${method} ${path}`)
      assert.equal(table.hasRoute(method, path, { version: '1.0.0' }), reference.hasRoute(method as never, path, { version: '1.0.0' }))
    }
    assert.equal(table.prettyPrint({}), reference.prettyPrint({}))
    assert.equal(table.prettyPrint({ method: 'GET' }), reference.prettyPrint({ method: 'GET' }))
  })
}

test('route table: a duplicate static route fails as find-my-way fails it', () => {
  const cases: Array<[Settings, string]> = [[{}, '/dup'], [{ ignoreTrailingSlash: true, caseSensitive: false }, '/DUP/']]
  for (const [settings, again] of cases) {
    const { table, reference } = both(settings)
    register(table, 'GET', '/dup', 1)
    register(reference, 'GET', '/dup', 1)
    const expected = (() => { try { register(reference, 'GET', again, 2) } catch (err) { return err as Error } })()
    assert.ok(expected instanceof Error)
    assert.throws(() => register(table, 'GET', again, 2), { message: expected.message })
  }
})

test('route table: removing a route, then the lookups, patterns and printing match find-my-way', () => {
  const { table, reference } = both({ caseSensitive: false })
  const stores = routes.map((_, i) => ({ i }))
  for (const router of [table, reference]) {
    routes.forEach(([method, path], i) => register(router, method, path, stores[i]))
    router.off('GET', '/users/me', {})
    router.off('GET', '/users/:id', {})
    // written in another case: find-my-way finds the route but does not remove it
    router.off('GET', '/mixed/case', {})
  }
  assertSameLookups(table, reference, 'after off')
  assert.equal(table.hasRoute('GET', '/Mixed/Case'), true)
  assert.equal(table.prettyPrint({}), reference.prettyPrint({}))
})

test('route table: constraints in use move every route into find-my-way, in order', () => {
  const { table, reference } = both({})
  for (const router of [table, reference]) {
    register(router, 'GET', '/host', 'plain')
    register(router, 'GET', '/other/:id', 'param')
    register(router, 'GET', '/host', 'example', { host: 'example.com' })
    register(router, 'GET', '/later', 'later')
  }
  for (const derived of [undefined, { host: 'example.com' }, { host: 'other.com' }]) {
    for (const url of ['/host', '/later', '/other/1', '/none']) {
      assert.equal(table.find('GET', url, derived)?.store, reference.find('GET', url, derived)?.store, `${url} ${JSON.stringify(derived)}`)
    }
  }
  assert.equal(table.prettyPrint({}), reference.prettyPrint({}))
})

test('route table: a strategy added after static routes keeps their answers', () => {
  const strategy = {
    name: 'tenant',
    mustMatchWhenDerived: true,
    storage () {
      const values = new Map()
      return { get: (k: string) => values.get(k) ?? null, set: (k: string, v: unknown) => { values.set(k, v) } }
    },
    deriveConstraint: (req: { headers: Record<string, string> }) => req.headers['x-tenant'],
    validate () {}
  }
  const { table, reference } = both({})
  for (const router of [table, reference]) {
    register(router, 'GET', '/static', 'static')
    // printing first builds the every-route router, which the strategy must then reach
    router.prettyPrint({})
    router.addConstraintStrategy(strategy as never)
    register(router, 'GET', '/static', 'acme', { tenant: 'acme' })
  }
  assert.equal(table.hasConstraintStrategy('tenant'), true)
  for (const derived of [undefined, { tenant: 'acme' }, { tenant: 'other' }]) {
    assert.equal(table.find('GET', '/static', derived)?.store, reference.find('GET', '/static', derived)?.store)
  }
})
