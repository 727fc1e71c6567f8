'use strict'
// Preloaded (`node --require`) before one of Fastify's test files: marks the tests named in
// ENCLAVE_CONFORMANCE_SKIP (JSON: name → reason) as skipped, so the test files themselves are never edited. A name is
// a top-level test's name, or a path to a nested one: 'parent > child'. tap's test(), t.test(), skip() and only()
// all register a subtest through sub(), which tap binds onto each test object when it is created.
const { createRequire } = require('node:module')
const path = require('node:path')

const skips = JSON.parse(process.env.ENCLAVE_CONFORMANCE_SKIP || '{}')
const nodeTestFile = process.execArgv.some((arg) => arg.startsWith('--test-reporter'))

if (Object.keys(skips).length > 0 && !nodeTestFile) {
  const tap = createRequire(path.join(process.cwd(), 'package.json'))('tap')
  const pathOf = (parent, name) => {
    const names = [name]
    for (let test = parent; test && test !== tap; test = test.parent) names.unshift(test.name)
    return names.join(' > ')
  }
  const sub = tap.Test.prototype.sub
  tap.Test.prototype.sub = function (Class, extra, caller) {
    const name = pathOf(this, extra.name)
    if (!extra.skip && Object.hasOwn(skips, name)) extra.skip = `conformance: ${skips[name]}`
    return sub.call(this, Class, extra, caller)
  }
  // The root test object already exists, with its own bound copy of the original.
  tap.sub = tap.Test.prototype.sub.bind(tap)
}

// node:test files (community plugins and Fastify 5 run with the TAP reporter): the top-level test(), it() and
// describe() named in the list get `skip`, and so do the subtests a test's context creates (`t.test()`), named by
// their path 'parent > child'. syncBuiltinESMExports makes the wrapped functions what `import { test } from
// 'node:test'` sees too.
if (Object.keys(skips).length > 0 && nodeTestFile) {
  const nodeTest = require('node:test')
  // The test's function, with its context's t.test() wrapped in turn; the same arity, since node:test reads a second
  // parameter as a `done` callback.
  const withContext = (fn, path) => {
    if (typeof fn !== 'function') return fn
    const patch = (t) => { if (typeof t?.test === 'function') t.test = wrap(t.test.bind(t), path) }
    return fn.length >= 2
      ? function (t, done) { patch(t); return fn.call(this, t, done) }
      : function (t) { patch(t); return fn.apply(this, arguments) }
  }
  const wrap = (original, parent) => {
    const wrapped = function (name, options, fn) {
      if (typeof name !== 'string') return original.apply(this, arguments)
      if (typeof options === 'function') [options, fn] = [{}, options]
      const path = parent ? `${parent} > ${name}` : name
      if (Object.hasOwn(skips, path)) options = { ...options, skip: `conformance: ${skips[path]}` }
      return original.call(this, name, options ?? {}, withContext(fn, path))
    }
    return Object.assign(wrapped, original)
  }
  for (const name of ['test', 'it', 'describe']) nodeTest[name] = wrap(nodeTest[name])
  require('node:module').syncBuiltinESMExports()
}
