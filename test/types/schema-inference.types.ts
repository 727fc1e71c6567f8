// FromSchema: the TypeScript type of the data a JSON Schema accepts, keyword by keyword.
import type { FromSchema, RequestPartFromSchema, RouteGenericFromSchema } from '../../src/types'
import { assert, type Equal, type IsUnknown } from './helpers'

// Schemas are exported so that values used only through `typeof` are not unused.

// ---- primitive types ----
assert<Equal<FromSchema<{ type: 'string' }>, string>>()
assert<Equal<FromSchema<{ type: 'number' }>, number>>()
assert<Equal<FromSchema<{ type: 'integer' }>, number>>()
assert<Equal<FromSchema<{ type: 'boolean' }>, boolean>>()
assert<Equal<FromSchema<{ type: 'null' }>, null>>()

// ---- type arrays and nullable ----
assert<Equal<FromSchema<{ type: readonly ['string', 'null'] }>, string | null>>()
assert<Equal<FromSchema<{ type: readonly ['integer', 'boolean'] }>, number | boolean>>()
assert<Equal<FromSchema<{ type: 'string', nullable: true }>, string | null>>()
assert<Equal<FromSchema<{ type: 'string', nullable: false }>, string>>()

// ---- enum and const ----
assert<Equal<FromSchema<{ type: 'string', enum: readonly ['a', 'b'] }>, 'a' | 'b'>>()
assert<Equal<FromSchema<{ enum: readonly [1, 'x', null] }>, 1 | 'x' | null>>()
assert<Equal<FromSchema<{ const: 'fixed' }>, 'fixed'>>()
assert<Equal<FromSchema<{ const: 42 }>, 42>>()

// ---- objects: properties, required, default ----
export const user = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    active: { type: 'boolean', default: true }
  },
  required: ['id', 'name']
} as const
assert<Equal<FromSchema<typeof user>, { id: number, name: string, active: boolean, email?: string }>>()
// In a response (output), a property with a default may be left out: the serializer fills it in.
assert<Equal<FromSchema<typeof user, Record<never, never>, 'output'>, { id: number, name: string, active?: boolean, email?: string }>>()

// A `required` name without a property schema is present with an unknown type.
assert<Equal<FromSchema<{ type: 'object', properties: { a: { type: 'string' } }, required: readonly ['a', 'b'] }>, { a: string, b: unknown }>>()

// Objects with declared properties are closed: reading an undeclared property is an error.
declare const closed: FromSchema<typeof user>
// @ts-expect-error wrong property
void closed.nickname

// ---- additionalProperties and patternProperties ----
assert<Equal<FromSchema<{ type: 'object' }>, { [key: string]: unknown }>>()
assert<Equal<FromSchema<{ type: 'object', additionalProperties: { type: 'number' } }>, { [key: string]: number }>>()
assert<Equal<FromSchema<{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }>, { a?: string }>>()
type Open = FromSchema<{ type: 'object', properties: { a: { type: 'string' } }, required: readonly ['a'], additionalProperties: true }>
assert<Equal<Open['a'], string>>()
assert<IsUnknown<Open['other']>>()
type Counted = FromSchema<{ type: 'object', properties: { total: { type: 'string' } }, required: readonly ['total'], additionalProperties: { type: 'number' } }>
assert<Equal<Counted['total'], string>>()
assert<Equal<Counted['other'], string | number>>()
type Patterned = FromSchema<{ type: 'object', patternProperties: { '^x-': { type: 'string' } } }>
assert<Equal<Patterned['x-a'], string>>()

// ---- arrays and tuples ----
assert<Equal<FromSchema<{ type: 'array', items: { type: 'string' } }>, string[]>>()
assert<Equal<FromSchema<{ type: 'array' }>, unknown[]>>()
assert<Equal<FromSchema<{ type: 'array', items: readonly [{ type: 'string' }, { type: 'integer' }] }>, [string, number]>>()
assert<Equal<FromSchema<{ type: 'array', prefixItems: readonly [{ type: 'boolean' }] }>, [boolean]>>()
assert<Equal<FromSchema<{ type: 'array', items: { type: 'object', properties: { n: { type: 'number' } }, required: readonly ['n'] } }>, Array<{ n: number }>>>()

// ---- nesting ----
export const order = {
  type: 'object',
  properties: {
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, qty: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['sku', 'qty']
      }
    },
    customer: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
  },
  required: ['lines']
} as const
type Order = FromSchema<typeof order>
assert<Equal<Order, { lines: Array<{ sku: string, qty: number, tags?: string[] }>, customer?: { name: string } }>>()

// ---- oneOf / anyOf / allOf ----
assert<Equal<FromSchema<{ anyOf: readonly [{ type: 'string' }, { type: 'number' }] }>, string | number>>()
assert<Equal<FromSchema<{ oneOf: readonly [{ const: 'a' }, { const: 'b' }] }>, 'a' | 'b'>>()
type Shape = FromSchema<{
  oneOf: readonly [
    { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: readonly ['kind', 'r'] },
    { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: readonly ['kind', 'side'] }
  ]
}>
assert<Equal<Shape, { kind: 'circle', r: number } | { kind: 'square', side: number }>>()
declare const shape: Shape
if (shape.kind === 'circle') assert<Equal<typeof shape.r, number>>()
type Both = FromSchema<{ allOf: readonly [
  { type: 'object', properties: { a: { type: 'string' } }, required: readonly ['a'] },
  { type: 'object', properties: { b: { type: 'number' } }, required: readonly ['b'] }
] }>
assert<Equal<Both['a'], string>>()
assert<Equal<Both['b'], number>>()

// ---- boolean schemas ----
assert<IsUnknown<FromSchema<true>>>()
assert<Equal<FromSchema<false>, never>>()

// ---- $ref ----
type Refs = { user: typeof user, 'http://example.com/address.json': { type: 'object', properties: { city: { type: 'string' } }, required: readonly ['city'] } }
assert<Equal<FromSchema<{ $ref: 'user#' }, Refs>, FromSchema<typeof user>>>()
assert<Equal<FromSchema<{ $ref: 'user' }, Refs>, FromSchema<typeof user>>>()
assert<Equal<FromSchema<{ $ref: 'user#/properties/name' }, Refs>, string>>()
assert<Equal<FromSchema<{ $ref: 'http://example.com/address.json#' }, Refs>, { city: string }>>()
assert<Equal<FromSchema<{ type: 'array', items: { $ref: 'user#' } }, Refs>, Array<FromSchema<typeof user>>>>()
// Local references into the same schema.
assert<Equal<FromSchema<{ definitions: { id: { type: 'integer' } }, type: 'object', properties: { a: { $ref: '#/definitions/id' } } }>, { a?: number }>>()
// A reference to a schema the type system does not know is unknown.
assert<IsUnknown<FromSchema<{ $ref: 'missing#' }, Refs>>>()
assert<IsUnknown<FromSchema<{ $ref: 'user#' }>>>()
assert<IsUnknown<FromSchema<{ $ref: 'user#/properties/nope' }, Refs>>>()

// ---- depth budget: recursive schemas end in unknown instead of "excessively deep" ----
type Tree = { $id: 'tree', type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: 'tree#' } } }, required: readonly ['value'] }
type TreeNode = FromSchema<Tree, { tree: Tree }>
assert<Equal<TreeNode['value'], number>>()
assert<Equal<NonNullable<TreeNode['children']>[number]['value'], number>>()

// ---- schemas that are not literal types give unknown, never any ----
export const widened: { type: string } = { type: 'string' }
assert<IsUnknown<FromSchema<typeof widened>>>()
assert<IsUnknown<FromSchema<{ type: 'object' | 'string' | 'what' }>>>()
assert<IsUnknown<FromSchema<{ description: 'no type' }>>>()

// ---- TypeBox: its schemas carry their static type ----
interface TString { type: 'string', static: string, [k: string]: unknown }
interface TOptionalCount { type: 'integer', static: number | undefined, [k: string]: unknown }
assert<Equal<FromSchema<TString>, string>>()
assert<Equal<FromSchema<{ type: 'object', static: { a: string, b?: number }, properties: { a: TString, b: TOptionalCount } }>, { a: string, b?: number }>>()

// ---- request parts: Fastify's JSON shorthand ----
assert<Equal<RequestPartFromSchema<{ q: { type: 'string' }, page: { type: 'integer', default: 1 } }>, { page: number, q?: string }>>()
assert<Equal<RequestPartFromSchema<{ type: 'object', properties: { q: { type: 'string' } } }>, { q?: string }>>()
assert<Equal<RequestPartFromSchema<{ $ref: 'user#' }, Refs>, FromSchema<typeof user>>>()

// ---- a whole route schema ----
type Route = RouteGenericFromSchema<{
  body: typeof user
  query: { q: { type: 'string' } }
  response: { 200: { type: 'string' }, '4xx': { type: 'object', properties: { error: { type: 'string' } }, required: readonly ['error'] } }
}>
assert<Equal<Route['Body'], FromSchema<typeof user>>>()
assert<Equal<Route['Querystring'], { q?: string }>>()
assert<IsUnknown<Route['Params']>>()
assert<Equal<Route['Reply'], { 200: string, '4xx': { error: string } }>>()
// Content-type keyed responses.
type Multi = RouteGenericFromSchema<{ response: { 200: { content: { 'application/json': { schema: { type: 'number' } }, 'text/plain': { schema: { type: 'string' } } } } } }>
assert<Equal<Multi['Reply'], { 200: number | string }>>()
