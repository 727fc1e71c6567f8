/**
 * The benchmark application, written once against the Fastify 4 API and parameterized by the factory, so Enclave
 * and Fastify run exactly the same routes, plugins and handlers. Scenario letters match docs/performance.md.
 */
import {
  helloResponseSchema, userBodySchema, userResponseSchema, itemsParamsSchema, itemsQuerySchema,
  itemsResponseSchema, ITEM_CREATED_AT, ITEM_NAMES, ITEM_PRICES, PASSWORD_HASH
} from './schemas.mjs'

export const ALL_SCENARIOS = ['a', 'b', 'c', 'd', 'e']

/**
 * @param {Function} factory `fastify` or `enclave`
 * @param {Iterable<string>} scenarios letters whose routes to register (e needs none: it exercises the 404 path)
 */
export function buildApp (factory, scenarios = ALL_SCENARIOS) {
  const wanted = new Set(scenarios)
  const app = factory({ logger: false })
  if (wanted.has('a')) registerHello(app)
  if (wanted.has('b')) registerCreateUser(app)
  if (wanted.has('c')) registerListItems(app)
  if (wanted.has('d')) registerPluginChain(app)
  return app
}

function registerHello (app) {
  app.get('/', { schema: { response: { 200: helloResponseSchema() } } }, async function hello () {
    return { hello: 'world' }
  })
}

function registerCreateUser (app) {
  const schema = { body: userBodySchema(), response: { 201: userResponseSchema() } }
  app.post('/users', { schema }, async function createUser (request, reply) {
    reply.code(201)
    // Echo the validated body plus a field the response schema must drop.
    return { id: 1, ...request.body, passwordHash: PASSWORD_HASH }
  })
}

function registerListItems (app) {
  const schema = { params: itemsParamsSchema(), querystring: itemsQuerySchema(), response: { 200: itemsResponseSchema() } }
  app.get('/items/:id', { schema }, async function listItems (request) {
    const { id } = request.params
    const { limit } = request.query
    const tags = request.query.tags ?? []
    const items = []
    for (let i = 0; i < limit; i++) {
      items.push({
        // `id + i` concatenates if the param was not coerced to an integer: the correctness check catches it.
        id: id + i,
        listId: id,
        name: ITEM_NAMES[i],
        price: ITEM_PRICES[i],
        inStock: i % 3 !== 0,
        category: tags.length > 0 ? tags[i % tags.length] : 'general',
        tags,
        createdAt: ITEM_CREATED_AT,
        supplierCost: i * 1.5
      })
    }
    return items
  })
}

/** Three nested prefixed plugins, each with a request decorator, an async onRequest and a callback preHandler. */
function registerPluginChain (app) {
  app.register(async function levelOne (one) {
    addLevel(one, 'd1', '1')
    one.register(async function levelTwo (two) {
      addLevel(two, 'd2', '2')
      two.register(async function levelThree (three) {
        addLevel(three, 'd3', '3')
        three.get('/decorators', async function decorators (request) {
          return { d1: request.d1, d2: request.d2, d3: request.d3 }
        })
      }, { prefix: '/c' })
    }, { prefix: '/b' })
  }, { prefix: '/a' })
}

function addLevel (instance, name, tag) {
  instance.decorateRequest(name, null)
  instance.addHook('onRequest', async function setLevel (request, _reply) {
    request[name] = 'on' + tag
  })
  instance.addHook('preHandler', function appendLevel (request, _reply, done) {
    request[name] += '+pre' + tag
    done()
  })
}
