/**
 * Response schemas before compilation: the checks that keep fast-json-stringify 5 from writing invalid JSON (see
 * inspectForFastJsonStringify). The `content` form and the shorthand are normalized first (`../route-schema.ts`).
 */

import { isObjectLike } from '../../core/objects'
import type { JsonSchema } from '../../core/types'

/** What one schema tree tells about its fast-json-stringify output. */
interface Inspection {
  /** Some written value may go through JSON.stringify, which returns `undefined` for functions and symbols. */
  untyped: boolean
  /** Ids of other schemas it references (`user#/x` → `user`). */
  refs: Set<string>
}

// keywords whose presence gives fast-json-stringify a way to write the value other than plain JSON.stringify
const typing = ['type', '$ref', 'const', 'anyOf', 'oneOf', 'allOf', 'if', 'properties', 'patternProperties', 'additionalProperties', 'required']
// subschemas that shape the output; `if`, `not`, `contains`, `propertyNames` are only ever validated
const outputSingles = ['additionalProperties', 'additionalItems', 'items', 'then', 'else']
const outputLists = ['anyOf', 'oneOf', 'allOf', 'items']
const outputMaps = ['properties', 'patternProperties', 'definitions', '$defs']
const lineTerminator = /[\n\r\u2028\u2029]/

const inspected = new WeakMap<object, Inspection>()

/**
 * Walks a schema and the shared schemas it reaches. Throws (a message for FST_ERR_SCH_SERIALIZATION_BUILD) where
 * fast-json-stringify 5 would write invalid JSON or fail obscurely; returns whether the output needs the
 * `undefined` check.
 */
export function inspectForFastJsonStringify (schema: unknown, externals: Record<string, unknown>): { untyped: boolean } {
  let untyped = false
  const pending = [schema]
  const visited = new Set<unknown>()
  while (pending.length > 0) {
    const node = pending.pop()
    if (!isObjectLike(node) || visited.has(node)) continue
    visited.add(node)
    const result = inspect(node)
    untyped ||= result.untyped
    for (const id of result.refs) {
      // an id we cannot match exactly (a relative URI, say) is resolved by fast-json-stringify: check everything
      if (id in externals) pending.push(externals[id])
      else pending.push(...Object.values(externals))
    }
  }
  return { untyped }
}

function inspect (root: JsonSchema): Inspection {
  let result = inspected.get(root)
  if (result === undefined) {
    result = { untyped: false, refs: new Set() }
    walk(root, result, new Set())
    inspected.set(root, result)
  }
  return result
}

function walk (node: unknown, result: Inspection, seen: Set<unknown>): void {
  if (!isObjectLike(node) || seen.has(node)) return
  seen.add(node)
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) result.refs.add(node.$ref.split('#')[0])
  if ('const' in node && needsEscaping(node.const)) {
    throw new Error(`const ${JSON.stringify(node.const)} holds a quote, backslash or control character, which ` +
      'fast-json-stringify 5 writes unescaped (invalid JSON); use enum: [value] with a type instead')
  }
  if (isObjectLike(node.patternProperties)) {
    const bad = Object.keys(node.patternProperties).find(p => lineTerminator.test(p))
    if (bad !== undefined) {
      throw new Error(`patternProperties key ${JSON.stringify(bad)} contains a raw line terminator, which fast-json-stringify ` +
        'cannot compile; write it as an escape in the pattern (\\n, \\u2028)')
    }
  }
  if (!typing.some(k => k in node)) result.untyped = true
  const type = node.type
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'))
  if (isArray && !isObjectLike(node.items) && !Array.isArray(node.items)) result.untyped = true
  for (const k of outputSingles) walk(node[k], result, seen)
  for (const k of outputLists) if (Array.isArray(node[k])) for (const s of node[k]) walk(s, result, seen)
  for (const k of outputMaps) if (isObjectLike(node[k])) for (const s of Object.values(node[k])) walk(s, result, seen)
}

/** Whether a const value holds a string (or key) that JSON must escape. */
function needsEscaping (value: unknown): boolean {
  if (typeof value === 'string') return JSON.stringify(value).length !== value.length + 2
  if (Array.isArray(value)) return value.some(needsEscaping)
  if (isObjectLike(value)) return Object.entries(value).some(([k, v]) => needsEscaping(k) || needsEscaping(v))
  return false
}
