/**
 * JSON Schemas of the benchmark routes. Functions return fresh objects so no framework can see another's mutations.
 * `node-http.mjs` does not use them: it validates by hand, and its checks must stay equivalent to these.
 */

/** Scenario a: `GET /`. */
export function helloResponseSchema () {
  return { type: 'object', properties: { hello: { type: 'string' } } }
}

function addressProperties () {
  return { city: { type: 'string', maxLength: 64 }, zip: { type: 'string' } }
}

/** Scenario b: `POST /users` body. Three required fields; `nickname` in the load payload is undeclared. */
export function userBodySchema () {
  return {
    type: 'object',
    required: ['name', 'age', 'active'],
    properties: {
      name: { type: 'string', maxLength: 64 },
      age: { type: 'integer', minimum: 0 },
      active: { type: 'boolean' },
      tags: { type: 'array', maxItems: 10, items: { type: 'string' } },
      address: { type: 'object', required: ['city'], properties: addressProperties() }
    }
  }
}

/** Scenario b: the 201 response. The handler also returns `passwordHash`, which must never reach the client. */
export function userResponseSchema () {
  return {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      age: { type: 'integer' },
      active: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      address: { type: 'object', properties: addressProperties() }
    }
  }
}

/** Scenario c: `GET /items/:id`. */
export function itemsParamsSchema () {
  return { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } }
}

export function itemsQuerySchema () {
  return {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      tags: { type: 'array', maxItems: 5, items: { type: 'string' } }
    }
  }
}

/** Eight declared fields per item; the handler adds a ninth (`supplierCost`) that must be dropped. */
export function itemsResponseSchema () {
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        listId: { type: 'integer' },
        name: { type: 'string' },
        price: { type: 'number' },
        inStock: { type: 'boolean' },
        category: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        createdAt: { type: 'string' }
      }
    }
  }
}

/** Catalogue data shared by the framework app and the bare server, so both build the same items. */
export const ITEM_CREATED_AT = '2024-05-01T12:00:00.000Z'
export const ITEM_NAMES = Array.from({ length: 100 }, (_, i) => `item-${i}`)
export const ITEM_PRICES = Array.from({ length: 100 }, (_, i) => Math.round((i + 1) * 999) / 100)
export const PASSWORD_HASH = '$2b$10$bench.bench.bench.bench.bench.bench.bench.bench.bench'
