// Decorators: declared by declaration merging (as Fastify users do), and tracked by the type decorate() returns.
//
// Applications augment the published package: `declare module 'enclave-http' { interface EnclaveInstance { … } }`.
// Inside this repository the interfaces are augmented where they are declared.
import type { EnclaveInstance, EnclavePluginAsync, EnclaveReply, EnclaveRequest } from '../../src/types'
import { typeOf } from './helpers'

interface TestDatabase {
  query(sql: string): Promise<unknown[]>
}

interface TestUser {
  id: number
  name: string
}

declare module '../../src/types/instance' {
  interface EnclaveInstance {
    testDb: TestDatabase
    testGreet(name: string): string
  }
}
declare module '../../src/types/request' {
  interface EnclaveRequest {
    testUser: TestUser | null
    testStartedAt: number
  }
}
declare module '../../src/types/reply' {
  interface EnclaveReply {
    testHtml(markup: string): this
  }
}

declare const app: EnclaveInstance
declare const db: TestDatabase

export function declaredByMerging (): void {
  // The decorator values are checked against the declared types.
  app.decorate('testDb', db)
  // Functions are checked against the declared signature and get the instance as `this`.
  app.decorate('testGreet', function (name) {
    typeOf(name).is<string>()
    return `${this.prefix}: hello ${name}`
  })
  // @ts-expect-error the declared function returns a string
  app.decorate('testGreet', (name: string) => name.length)
  // @ts-expect-error the declared type is TestDatabase
  app.decorate('testDb', { query: 'not a function' })
  app.decorateRequest('testUser', null)
  app.decorateRequest('testStartedAt', 0)
  // @ts-expect-error the declared type is number
  app.decorateRequest('testStartedAt', 'now')
  // At the Fastify 4 level `null` is a placeholder for any name (at the Fastify 5 level: test/types/level5).
  app.decorateRequest('testStartedAt', null)
  // A declared method's parameters and `this` are typed from the declaration.
  app.decorateReply('testHtml', function (markup) {
    typeOf(markup).is<string>()
    typeOf(this).is<EnclaveReply>()
    return this.type('text/html').send(markup)
  })

  app.addHook('onRequest', async (request) => {
    request.testUser = { id: 1, name: 'ada' }
    request.testStartedAt = Date.now()
  })
  app.get('/me', async function (request, reply) {
    const rows = await this.testDb.query('select 1')
    typeOf(request.testUser).is<TestUser | null>()
    typeOf(rows).is<unknown[]>()
    reply.testHtml(`<p>${this.testGreet(request.testUser?.name ?? 'guest')}</p>`)
    // @ts-expect-error undecorated property
    void request.testSession
    // @ts-expect-error undecorated property
    void this.testCache
  })
  // Decorations are on every request and instance type, also in plugins.
  const plugin: EnclavePluginAsync = async (instance) => {
    instance.get('/plugin', async (request) => request.testUser?.name ?? instance.testGreet('plugin'))
  }
  void plugin
  const request = {} as EnclaveRequest
  typeOf(request.testStartedAt).is<number>()
}

export function trackedByDecorate (): void {
  const app2 = app.decorate('answer', 42)
  typeOf(app2.answer).is<number>()
  // @ts-expect-error not decorated on the original instance's type
  void app.answer

  // Chained decorations accumulate on the returned value.
  const app3 = app2
    .decorate('config', { port: 3000, host: 'localhost' })
    .decorate('uptime', { getter: () => process.uptime() })
  typeOf(app3.config).is<{ port: number, host: string }>()
  typeOf(app3.uptime).is<number>()
  app3.get('/answer', async () => ({ answer: app3.answer, port: app3.config.port }))
  // As in Fastify, the `this` of handlers and hooks is the instance type, which knows only declared decorators.
  app3.addHook('onReady', async function () {
    typeOf(this).is<EnclaveInstance>()
    // @ts-expect-error tracked on the value app3, not declared by merging
    void this.uptime
  })

  // A function decorator keeps its signature and gets the instance as `this`.
  const app5 = app.decorate('describe', function (verbose: boolean) {
    return verbose ? `${this.pluginName} at ${this.prefix}` : this.prefix
  })
  typeOf(app5.describe).is<(verbose: boolean) => string>()
  // Undeclared request and reply decorators are accepted (their types come from declaration merging).
  app.decorateRequest('undeclared', function () { return this.id })
  app.decorateReply('undeclaredToo', { getter () { return 1 } })

  // Symbols work as names.
  const kSecret = Symbol('secret')
  const app4 = app.decorate(kSecret, 'hidden')
  typeOf(app4[kSecret]).is<string>()

  // has*Decorator narrow nothing: they answer at run time.
  const present: boolean = app.hasDecorator('answer') && app.hasRequestDecorator('testUser') && app.hasReplyDecorator('testHtml')
  void present
}
