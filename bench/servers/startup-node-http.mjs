/**
 * The floor of scenario f: bare `node:http` serving the same 1,000 routes (`startup-app.mjs`) with the least work a
 * server can do — a `Map` from URL to route, `JSON.parse`, checks written by hand for this one schema shape (read
 * from each route's schema when it is added: required fields, types, `maxLength`, `minimum`, `maxItems`) and
 * `JSON.stringify` of the declared response fields. Nothing is compiled, so `ready()` costs nothing: its ready +
 * first request to every route is what Node's boot and its HTTP stack alone take on this machine, the bound under
 * any server's start-up figure. It is shaped like a framework app (`post`, `ready`, `listen`, `server`, `close`) so
 * that `startup.mjs` measures it exactly as it measures the frameworks.
 */
import http from 'node:http'
import { badRequest, send, sendError } from './node-http.mjs'

export function createFloorApp () {
  const routes = new Map()
  const server = http.createServer((req, res) => {
    const route = req.method === 'POST' ? routes.get(req.url) : undefined
    if (route === undefined) return sendError(res, 404, 'Not Found', undefined, `Route ${req.method}:${req.url} not found`)
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => { text += chunk })
    req.on('end', () => answer(route, text, res))
  })
  return {
    server,
    post (url, { schema }, handler) {
      routes.set(url, { handler, check: bodyCheck(schema.body), fields: Object.keys(schema.response[200].properties) })
    },
    async ready () {},
    listen ({ port, host }) {
      return new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => resolve(server.address()))
      })
    },
    close () {
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

function answer (route, text, res) {
  let body
  try {
    body = JSON.parse(text)
  } catch {
    return badRequest(res, 'Body is not valid JSON')
  }
  const problem = route.check(body)
  if (problem !== null) return badRequest(res, problem)
  Promise.resolve(route.handler({ body })).then((result) => {
    const declared = {}
    for (const field of route.fields) if (result[field] !== undefined) declared[field] = result[field]
    send(res, 200, JSON.stringify(declared))
  }, () => sendError(res, 500, 'Internal Server Error', undefined, 'handler failed'))
}

/** The body checks of `bodySchema(i)`, with that route's limits and field name. Returns a message or null. */
function bodyCheck (schema) {
  const { required, properties } = schema
  const maxLength = properties.name.maxLength
  const minimum = properties.count.minimum
  const maxItems = properties.tags.maxItems
  const own = required.find((name) => name !== 'name' && name !== 'count')
  return (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body must be object'
    for (const name of required) if (body[name] === undefined) return `body must have required property '${name}'`
    if (typeof body.name !== 'string' || body.name.length > maxLength) return 'body/name is invalid'
    if (!Number.isInteger(body.count) || body.count < minimum) return 'body/count is invalid'
    if (body.flag !== undefined && typeof body.flag !== 'boolean') return 'body/flag must be boolean'
    if (body.tags !== undefined && (!Array.isArray(body.tags) || body.tags.length > maxItems ||
      body.tags.some((tag) => typeof tag !== 'string'))) return 'body/tags is invalid'
    if (typeof body[own] !== 'string') return `body/${own} must be string`
    return null
  }
}
