/**
 * What each throughput scenario sends under load, and the correctness cases every server must pass first.
 * Expected bodies are written out here independently of the handlers in `bench/servers/`.
 */

const JSON_HEADERS = { 'content-type': 'application/json' }

/** The body sent under load in scenario b: all fields, plus undeclared `nickname` and `address.geo`. */
export const USER_PAYLOAD = {
  name: 'Ada Lovelace',
  age: 36,
  active: true,
  tags: ['math', 'engines', 'poetry'],
  address: { city: 'London', zip: 'W1', geo: '51.5,-0.1' },
  nickname: 'ada'
}

const USER_EXPECTED = {
  id: 1,
  name: 'Ada Lovelace',
  age: 36,
  active: true,
  tags: ['math', 'engines', 'poetry'],
  address: { city: 'London', zip: 'W1' }
}

export const SCENARIOS = {
  a: { title: 'a. GET / (response schema)', method: 'GET', path: '/', expectedStatus: 200 },
  b: {
    title: 'b. POST /users (body + response schema)',
    method: 'POST',
    path: '/users',
    headers: JSON_HEADERS,
    body: JSON.stringify(USER_PAYLOAD),
    expectedStatus: 201
  },
  c: { title: 'c. GET /items/:id (params, query, 20×8 fields)', method: 'GET', path: '/items/42?limit=20&tags=a&tags=b', expectedStatus: 200 },
  d: { title: 'd. 3 nested plugins, hooks, decorators', method: 'GET', path: '/a/b/c/decorators', expectedStatus: 200 },
  e: { title: 'e. unknown route → 404', method: 'GET', path: '/unknown/route', expectedStatus: 404 }
}

export function expectedItems (id, limit, tags) {
  return Array.from({ length: limit }, (_, i) => ({
    id: id + i,
    listId: id,
    name: `item-${i}`,
    price: Math.round((i + 1) * 999) / 100,
    inStock: i % 3 !== 0,
    category: tags.length > 0 ? tags[i % tags.length] : 'general',
    tags,
    createdAt: '2024-05-01T12:00:00.000Z'
  }))
}

function validationError (message) {
  return { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message }
}

function postUser (body) {
  return { method: 'POST', path: '/users', headers: JSON_HEADERS, body: typeof body === 'string' ? body : JSON.stringify(body) }
}

const VALID_USER = { name: 'Ada', age: 36, active: true }

/**
 * Correctness cases. `status` and `json` (deep equality, key order ignored) are hard requirements: a server that
 * fails one is not measured. `parity` cases only compare with Fastify 4's exact behaviour and are reported as
 * warnings: error codes and messages, byte-exact bodies, header details.
 * `load: true` marks the case that issues the same request as the load test; its body becomes the expected body
 * of every response under load.
 */
export const CHECKS = [
  { scenario: 'a', name: 'GET / returns {"hello":"world"}', request: { method: 'GET', path: '/' }, status: 200, json: { hello: 'world' }, load: true },

  { scenario: 'b', name: 'POST /users → 201, undeclared passwordHash/nickname/address.geo dropped', request: postUser(USER_PAYLOAD), status: 201, json: USER_EXPECTED, load: true },
  { scenario: 'b', name: 'POST /users without optional fields', request: postUser(VALID_USER), status: 201, json: { id: 1, ...VALID_USER } },
  { scenario: 'b', name: 'age -1 violates minimum', request: postUser({ ...VALID_USER, age: -1 }), status: 400, parityJson: validationError('body/age must be >= 0') },
  { scenario: 'b', name: 'age 1.5 is not an integer', request: postUser({ ...VALID_USER, age: 1.5 }), status: 400, parityJson: validationError('body/age must be integer') },
  { scenario: 'b', name: 'missing required "active"', request: postUser({ name: 'Ada', age: 36 }), status: 400, parityJson: validationError("body must have required property 'active'") },
  { scenario: 'b', name: 'name longer than maxLength 64', request: postUser({ ...VALID_USER, name: 'x'.repeat(65) }), status: 400, parityJson: validationError('body/name must NOT have more than 64 characters') },
  { scenario: 'b', name: 'tags over maxItems 10', request: postUser({ ...VALID_USER, tags: Array(11).fill('t') }), status: 400, parityJson: validationError('body/tags must NOT have more than 10 items') },
  { scenario: 'b', name: 'nested address without required city', request: postUser({ ...VALID_USER, address: { zip: '1' } }), status: 400, parityJson: validationError("body/address must have required property 'city'") },
  { scenario: 'b', name: 'body is not an object', request: postUser('[1]'), status: 400, parityJson: validationError('body must be object') },
  { scenario: 'b', name: 'invalid JSON', request: postUser('{"name":'), status: 400 },
  { scenario: 'b', name: '__proto__ in body is rejected', request: postUser('{"name":"x","age":1,"active":true,"__proto__":{"a":1}}'), status: 400, parityJson: { statusCode: 400, error: 'Bad Request', message: 'Object contains forbidden prototype property' } },
  { scenario: 'b', name: 'scalars are coerced like Ajv coerceTypes "array"', parityOnly: true, request: postUser({ name: 'A', age: '7', active: 'true' }), status: 201, json: { id: 1, name: 'A', age: 7, active: true } },
  { scenario: 'b', name: 'empty JSON body', parityOnly: true, request: postUser(''), status: 400, parityJson: { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY', error: 'Bad Request', message: "Body cannot be empty when content-type is set to 'application/json'" } },
  { scenario: 'b', name: 'unsupported content type', parityOnly: true, request: { method: 'POST', path: '/users', headers: { 'content-type': 'application/xml' }, body: '<a/>' }, status: 415, parityJson: { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: 'Unsupported Media Type: application/xml' } },

  { scenario: 'c', name: 'GET /items/42?limit=20&tags=a&tags=b → 20 items × 8 fields, ints coerced', request: { method: 'GET', path: '/items/42?limit=20&tags=a&tags=b' }, status: 200, json: expectedItems(42, 20, ['a', 'b']), load: true },
  { scenario: 'c', name: 'default limit 10, single tag coerced to an array', request: { method: 'GET', path: '/items/7?tags=x' }, status: 200, json: expectedItems(7, 10, ['x']) },
  { scenario: 'c', name: 'non-integer id', request: { method: 'GET', path: '/items/abc?limit=5' }, status: 400, parityJson: validationError('params/id must be integer') },
  { scenario: 'c', name: 'id below minimum', request: { method: 'GET', path: '/items/0' }, status: 400, parityJson: validationError('params/id must be >= 1') },
  { scenario: 'c', name: 'limit above maximum', request: { method: 'GET', path: '/items/42?limit=101' }, status: 400, parityJson: validationError('querystring/limit must be <= 100') },
  { scenario: 'c', name: 'tags over maxItems 5', request: { method: 'GET', path: '/items/42?limit=2&tags=a&tags=b&tags=c&tags=d&tags=e&tags=f' }, status: 400, parityJson: validationError('querystring/tags must NOT have more than 5 items') },

  { scenario: 'd', name: 'GET /a/b/c/decorators returns the three decorators after both hooks', request: { method: 'GET', path: '/a/b/c/decorators' }, status: 200, json: { d1: 'on1+pre1', d2: 'on2+pre2', d3: 'on3+pre3' }, load: true },
  { scenario: 'd', name: 'prefixes are not leaked to the root', request: { method: 'GET', path: '/decorators' }, status: 404 },

  { scenario: 'e', name: 'unknown route → 404 JSON', request: { method: 'GET', path: '/unknown/route' }, status: 404, parityJson: { message: 'Route GET:/unknown/route not found', error: 'Not Found', statusCode: 404 }, load: true },
  { scenario: 'e', name: 'unknown method on a known path → 404', request: { method: 'DELETE', path: '/' }, status: 404, parityJson: { message: 'Route DELETE:/ not found', error: 'Not Found', statusCode: 404 } }
]
