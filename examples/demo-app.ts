/**
 * The encapsulation example of the spec (section 4): a root decorator `answer`, an authenticated child context
 * protected by the real `@fastify/bearer-auth`, a public child with decorator `foo` and a grandchild with `bar`.
 * Each route answers with the request decorators visible in its context.
 */
import bearerAuth from '@fastify/bearer-auth'
import fastifyPlugin from 'fastify-plugin'
import enclave from '../src/index'

export interface DemoOptions {
  /** Keys accepted by the authenticated context. */
  keys: string[]
  /** Register the grandchild through `fastify-plugin`, so its decorator also reaches the public context. */
  wrapGrandchild?: boolean
  logger?: boolean
}

function visibleDecorators (request: any): Record<string, unknown> {
  return { answer: request.answer, foo: request.foo, bar: request.bar }
}

async function grandchild (instance: any): Promise<void> {
  instance.decorateRequest('bar', 'bar')
  instance.get('/three', async (request: any) => visibleDecorators(request))
}

export function buildDemoApp (options: DemoOptions): any {
  const app = enclave({ logger: options.logger ?? false })
  app.decorateRequest('answer', 42)

  app.register(async function authenticatedContext (child: any) {
    await child.register(bearerAuth, { keys: options.keys })
    child.get('/one', async (request: any) => visibleDecorators(request))
  })

  app.register(async function publicContext (child: any) {
    child.decorateRequest('foo', 'foo')
    child.get('/two', async (request: any) => visibleDecorators(request))
    child.register(options.wrapGrandchild === true ? fastifyPlugin(grandchild) : grandchild)
  })

  return app
}
