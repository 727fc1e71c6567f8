/**
 * The application of scenario f: `routes` POST routes, each with its own body and response schema. Shared by the
 * start-up run (`startup.mjs`) and the compile-cache entry point (`startup-precompile.mjs`), so that both build
 * exactly the same schemas.
 */

export function bodySchema (i) {
  return {
    type: 'object',
    required: ['name', 'count', `field${i}`],
    properties: {
      name: { type: 'string', maxLength: 16 + (i % 64) },
      count: { type: 'integer', minimum: i },
      flag: { type: 'boolean' },
      tags: { type: 'array', maxItems: 1 + (i % 8), items: { type: 'string' } },
      [`field${i}`]: { type: 'string' }
    }
  }
}

export function responseSchema (i) {
  return {
    type: 'object',
    properties: {
      route: { type: 'integer' },
      name: { type: 'string' },
      count: { type: 'integer' },
      [`field${i}`]: { type: 'string' }
    }
  }
}

/** The request body sent to route `i`, with one undeclared field (`extra`). */
export function requestBody (i) {
  return JSON.stringify({ name: 'n', count: i, [`field${i}`]: 'v', extra: true })
}

/** The exact response expected from route `i`: the undeclared `extra` and `secret` are dropped. */
export function expectedResponse (i) {
  return { route: i, name: 'n', count: i, [`field${i}`]: 'v' }
}

/** Builds the application with `factory(options)` and registers the routes (not ready yet). */
export function buildStartupApp (factory, routeCount, options = {}) {
  const app = factory({ logger: false, ...options })
  for (let i = 0; i < routeCount; i++) {
    const schema = { body: bodySchema(i), response: { 200: responseSchema(i) } }
    app.post(`/route/${i}`, { schema }, async function handler (request) {
      return { route: i, ...request.body, secret: 'not declared' }
    })
  }
  return app
}
