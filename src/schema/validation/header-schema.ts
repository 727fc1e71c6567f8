/**
 * Header names are case-insensitive and Node delivers them lower-cased, so a headers schema is rewritten before it
 * compiles: every place where a header name appears is lower-cased, through the whole schema (nested subschemas,
 * combinators, local definitions). As in Fastify 5.12.8, whose fix (a `dependencies` or `propertyNames` rule written
 * as `X-Admin` was silently skipped) Enclave applies at both levels. The input is never changed: a new tree is
 * returned. Only schemas for the default compiler are rewritten (see `route-validation.ts`).
 *
 * What cannot be rewritten is reported instead: a `$ref` to a shared schema (that schema also serves bodies and
 * querystrings), and a `$ref` inside `propertyNames` (its target may also hold header values). Regular expressions
 * (`patternProperties` keys, `pattern`) are kept as written: they must be written to match lower-case names.
 */
import { warnDeprecated } from '../../core/deprecations'

/** How each keyword's value is rewritten; keywords not listed are copied (except `enum`/`const` under names). */
type Rewrite = 'subschema' | 'names-subschema' | 'named-subschemas' | 'keyed-subschemas' | 'name-list' | 'dependencies' | 'named-name-lists'

const rewrites: Record<string, Rewrite> = {
  properties: 'named-subschemas',
  dependentSchemas: 'named-subschemas',
  required: 'name-list',
  dependencies: 'dependencies',
  dependentRequired: 'named-name-lists',
  propertyNames: 'names-subschema',
  // keys that are not header names (definition names, regular expressions): only the values are rewritten
  definitions: 'keyed-subschemas',
  $defs: 'keyed-subschemas',
  patternProperties: 'keyed-subschemas'
}
for (const keyword of ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'items', 'additionalItems',
  'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'contentSchema']) {
  rewrites[keyword] = 'subschema'
}

type Json = Record<string, unknown>

function isObject (value: unknown): value is Json {
  return typeof value === 'object' && value !== null
}

function lowerName (name: unknown): unknown {
  return typeof name === 'string' ? name.toLowerCase() : name
}

function lowerNames (list: unknown): unknown {
  return Array.isArray(list) ? list.map(lowerName) : list
}

/** A map's keys lower-cased (or kept) and each value passed through `value`; a malformed map is kept for Ajv to report. */
function mapEntries (map: unknown, lowerKeys: boolean, value: (entry: unknown) => unknown): unknown {
  if (!isObject(map) || Array.isArray(map)) return map
  const out: Json = {}
  for (const key of Object.keys(map)) out[lowerKeys ? key.toLowerCase() : key] = value(map[key])
  return out
}

/**
 * The headers schema with header names lower-cased. `names` is true inside `propertyNames`, whose subschemas
 * validate the names themselves: there the strings of `enum` and `const` are names too (elsewhere they are values).
 */
export function lowerCaseHeaderSchema (schema: unknown, names = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => lowerCaseHeaderSchema(item, names))
  if (!isObject(schema)) return schema
  const sub = (value: unknown): unknown => lowerCaseHeaderSchema(value, names)
  const out: Json = {}
  for (const key of Object.keys(schema)) {
    const value = schema[key]
    switch (rewrites[key]) {
      case 'subschema': out[key] = sub(value); break
      case 'names-subschema': out[key] = lowerCaseHeaderSchema(value, true); break
      case 'named-subschemas': out[key] = mapEntries(value, true, sub); break
      case 'keyed-subschemas': out[key] = mapEntries(value, false, sub); break
      case 'name-list': out[key] = lowerNames(value); break
      case 'named-name-lists': out[key] = mapEntries(value, true, lowerNames); break
      // each entry: the names it requires (array form) or a schema (subschema form)
      case 'dependencies': out[key] = mapEntries(value, true, (entry) => Array.isArray(entry) ? lowerNames(entry) : sub(entry)); break
      default:
        if (names && key === 'enum') out[key] = lowerNames(value)
        else if (names && key === 'const') out[key] = lowerName(value)
        else out[key] = value
    }
  }
  return out
}

/** The first `$ref` found that `accept`s its value and position (`names`: inside `propertyNames`), depth first. */
function findRef (schema: unknown, accept: (ref: string, names: boolean) => boolean, names = false): string | undefined {
  if (!isObject(schema)) return undefined
  if (!Array.isArray(schema) && typeof schema.$ref === 'string' && accept(schema.$ref, names)) return schema.$ref
  for (const key of Object.keys(schema)) {
    const found = findRef((schema as Json)[key], accept, names || (!Array.isArray(schema) && key === 'propertyNames'))
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Fastify 5's FastifySecurity warnings for what the rewriting cannot reach: FSTSEC002 for a `$ref` to another
 * document (a shared schema), FSTSEC003 for a local `$ref` inside `propertyNames`. Each route is warned every time.
 */
export function warnUnreachableHeaderNames (schema: unknown, method: string, url: string): void {
  const external = findRef(schema, (ref) => !ref.startsWith('#'))
  if (external !== undefined) warnDeprecated('headerSchemaExternalRef', `${method}: ${url} references an external $ref (${external})`)
  const inNames = findRef(schema, (ref, names) => names && ref.startsWith('#'))
  if (inNames !== undefined) warnDeprecated('headerSchemaPropertyNamesRef', `${method}: ${url} uses a $ref (${inNames}) inside propertyNames`)
}
