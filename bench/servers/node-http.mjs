/**
 * The baseline: bare `node:http` with hand-written routing, hand-written validation equivalent to the schemas in
 * `schemas.mjs` (same rules, same type coercion on mismatch, same error bodies as Fastify 4 with Ajv) and
 * `JSON.stringify` of objects built with only the declared fields. It must pass the same correctness checks as the
 * frameworks, so it cannot win by skipping work.
 */
import http from 'node:http'
import querystring from 'node:querystring'
import { ITEM_CREATED_AT, ITEM_NAMES, ITEM_PRICES } from './schemas.mjs'

const JSON_TYPE = 'application/json; charset=utf-8'
const BODY_LIMIT = 1024 * 1024
const HELLO = { hello: 'world' }

/**
 * With `promiseTurn`, each request is answered one promise turn later, as a framework answers what an async handler
 * returns (`handler().then(send)`): the same work, plus the scheduling every async handler costs (`bench/async-floor.mjs`).
 */
export function createNodeServer ({ promiseTurn = false } = {}) {
  return http.createServer(promiseTurn ? (req, res) => { Promise.resolve().then(() => route(req, res)) } : route)
}

function route (req, res) {
  const url = req.url
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  if (req.method === 'GET') {
    if (path === '/') return send(res, 200, JSON.stringify(HELLO))
    if (path.startsWith('/items/') && path.indexOf('/', 7) === -1 && path.length > 7) {
      return listItems(res, path.slice(7), queryStart === -1 ? '' : url.slice(queryStart + 1))
    }
    if (path === '/a/b/c/decorators') return decorators(res)
  } else if (req.method === 'POST' && path === '/users') {
    return readJsonBody(req, res, createUser)
  }
  send(res, 404, JSON.stringify({ message: `Route ${req.method}:${url} not found`, error: 'Not Found', statusCode: 404 }))
}

/** A JSON response with its length (shared with the start-up floor, `startup-node-http.mjs`). */
export function send (res, statusCode, payload) {
  res.writeHead(statusCode, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(payload) })
  res.end(payload)
}

export function sendError (res, statusCode, error, code, message) {
  const body = code === undefined ? { statusCode, error, message } : { statusCode, code, error, message }
  send(res, statusCode, JSON.stringify(body))
}

export function badRequest (res, message) {
  sendError(res, 400, 'Bad Request', 'FST_ERR_VALIDATION', message)
}

// ---- Scenario b: body parsing and validation -----------------------------------------------------------------------

function readJsonBody (req, res, handler) {
  const contentType = req.headers['content-type']
  const mediaType = contentType === undefined ? '' : contentType.split(';', 1)[0].trim().toLowerCase()
  const isJson = mediaType === 'application/json'
  if (!isJson && mediaType !== 'text/plain') {
    return sendError(res, 415, 'Unsupported Media Type', 'FST_ERR_CTP_INVALID_MEDIA_TYPE', `Unsupported Media Type: ${contentType}`)
  }
  let text = ''
  let received = 0
  req.setEncoding('utf8')
  req.on('data', (chunk) => {
    received += Buffer.byteLength(chunk)
    if (received > BODY_LIMIT) {
      req.removeAllListeners('data')
      req.resume()
      sendError(res, 413, 'Payload Too Large', 'FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large')
    } else {
      text += chunk
    }
  })
  req.on('end', () => {
    if (received > BODY_LIMIT) return
    if (!isJson) return handler(res, text)
    if (text === '') {
      return sendError(res, 400, 'Bad Request', 'FST_ERR_CTP_EMPTY_JSON_BODY',
        "Body cannot be empty when content-type is set to 'application/json'")
    }
    let body
    try {
      body = JSON.parse(text)
    } catch (error) {
      return sendError(res, 400, 'Bad Request', undefined, error.message)
    }
    if ((text.includes('__proto__') || text.includes('constructor')) && hasForbiddenKey(body)) {
      return sendError(res, 400, 'Bad Request', undefined, 'Object contains forbidden prototype property')
    }
    handler(res, body)
  })
}

function hasForbiddenKey (value) {
  if (value === null || typeof value !== 'object') return false
  if (Object.hasOwn(value, '__proto__')) return true
  if (Object.hasOwn(value, 'constructor') && value.constructor !== null && typeof value.constructor === 'object' &&
    Object.hasOwn(value.constructor, 'prototype')) return true
  for (const key in value) if (hasForbiddenKey(value[key])) return true
  return false
}

function createUser (res, body) {
  const message = validateUser(body)
  if (message !== undefined) return badRequest(res, message)
  const user = { id: 1, name: body.name, age: body.age, active: body.active }
  if (body.tags !== undefined) user.tags = body.tags
  if (body.address !== undefined) {
    const { city, zip } = body.address
    user.address = zip === undefined ? { city } : { city, zip }
  }
  send(res, 201, JSON.stringify(user))
}

/** Mirrors `userBodySchema()`; coerces mismatched scalars in place like Ajv's `coerceTypes: 'array'`. */
function validateUser (body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body must be object'
  for (const key of ['name', 'age', 'active']) {
    if (body[key] === undefined) return `body must have required property '${key}'`
  }
  const name = toStringValue(body.name)
  if (name === undefined) return 'body/name must be string'
  if (name.length > 64 && codePointLength(name) > 64) return 'body/name must NOT have more than 64 characters'
  body.name = name
  const age = toInteger(body.age)
  if (age === undefined) return 'body/age must be integer'
  if (age < 0) return 'body/age must be >= 0'
  body.age = age
  const active = toBoolean(body.active)
  if (active === undefined) return 'body/active must be boolean'
  body.active = active
  if (body.tags !== undefined) {
    const tags = Array.isArray(body.tags) ? body.tags : [body.tags]
    if (tags.length > 10) return 'body/tags must NOT have more than 10 items'
    for (let i = 0; i < tags.length; i++) {
      const tag = toStringValue(tags[i])
      if (tag === undefined) return `body/tags/${i} must be string`
      tags[i] = tag
    }
    body.tags = tags
  }
  if (body.address !== undefined) {
    const address = body.address
    if (address === null || typeof address !== 'object' || Array.isArray(address)) return 'body/address must be object'
    if (address.city === undefined) return "body/address must have required property 'city'"
    const city = toStringValue(address.city)
    if (city === undefined) return 'body/address/city must be string'
    if (city.length > 64 && codePointLength(city) > 64) return 'body/address/city must NOT have more than 64 characters'
    address.city = city
    if (address.zip !== undefined) {
      const zip = toStringValue(address.zip)
      if (zip === undefined) return 'body/address/zip must be string'
      address.zip = zip
    }
  }
  return undefined
}

// ---- Scenario c: params and querystring ----------------------------------------------------------------------------

function listItems (res, rawId, rawQuery) {
  const id = toInteger(rawId.includes('%') ? decodeURIComponent(rawId) : rawId)
  if (id === undefined) return badRequest(res, 'params/id must be integer')
  if (id < 1) return badRequest(res, 'params/id must be >= 1')
  const query = querystring.parse(rawQuery)
  let limit = 10
  if (query.limit !== undefined) {
    limit = toInteger(query.limit)
    if (limit === undefined) return badRequest(res, 'querystring/limit must be integer')
    if (limit < 1) return badRequest(res, 'querystring/limit must be >= 1')
    if (limit > 100) return badRequest(res, 'querystring/limit must be <= 100')
  }
  let tags = []
  if (query.tags !== undefined) {
    tags = Array.isArray(query.tags) ? query.tags : [query.tags]
    if (tags.length > 5) return badRequest(res, 'querystring/tags must NOT have more than 5 items')
  }
  const items = []
  for (let i = 0; i < limit; i++) {
    items.push({
      id: id + i,
      listId: id,
      name: ITEM_NAMES[i],
      price: ITEM_PRICES[i],
      inStock: i % 3 !== 0,
      category: tags.length > 0 ? tags[i % tags.length] : 'general',
      tags,
      createdAt: ITEM_CREATED_AT
    })
  }
  send(res, 200, JSON.stringify(items))
}

// ---- Scenario d: three levels of hooks, written out by hand ---------------------------------------------------------

async function decorators (res) {
  const request = { d1: null, d2: null, d3: null }
  await setLevel(request, 'd1', '1')
  await setLevel(request, 'd2', '2')
  await setLevel(request, 'd3', '3')
  appendLevel(request, 'd1', '1', () => appendLevel(request, 'd2', '2', () => appendLevel(request, 'd3', '3', () => {
    send(res, 200, JSON.stringify({ d1: request.d1, d2: request.d2, d3: request.d3 }))
  })))
}

async function setLevel (request, name, tag) {
  request[name] = 'on' + tag
}

function appendLevel (request, name, tag, done) {
  request[name] += '+pre' + tag
  done()
}

// ---- Ajv-style scalar coercion (only runs when the type does not already match) -------------------------------------

function toInteger (value) {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined
  if (Array.isArray(value)) return value.length === 1 ? toInteger(value[0]) : undefined
  if (typeof value === 'string') {
    const n = +value
    return value !== '' && Number.isInteger(n) ? n : undefined
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  return value === null ? 0 : undefined
}

function toBoolean (value) {
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 1) return true
  if (value === 'false' || value === 0 || value === null) return false
  return Array.isArray(value) && value.length === 1 ? toBoolean(value[0]) : undefined
}

function toStringValue (value) {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null) return ''
  return Array.isArray(value) && value.length === 1 ? toStringValue(value[0]) : undefined
}

function codePointLength (text) {
  let length = 0
  for (const _ of text) length++
  return length
}
