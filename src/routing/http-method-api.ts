/**
 * The HTTP-method API of Fastify 5, at both levels: `addHttpMethod(method, { hasBody, overrideExisting })` adds a
 * method Node's parser knows (or changes one's body rule) to the application's table, with its route shorthand;
 * `supportedMethods` lists the table. The level's own shorthands beyond Fastify 4's seven (`trace`, `query`) are
 * installed on the root when it is made.
 */
import { codes } from '../core/errors'
import { warnDeprecated } from '../core/deprecations'
import { kApp } from '../core/symbols'
import { isNodeMethod } from '../core/http-methods'
import type { ApiLevel } from '../core/api-level'
import type { Instance } from '../encapsulation/app-state'
import { shortcut } from './route-registration'

interface AddHttpMethodOptions {
  hasBody?: boolean
  overrideExisting?: boolean
}

export const httpMethodInstanceMethods = {
  addHttpMethod (this: Instance, method: unknown, opts?: AddHttpMethodOptions | null): Instance {
    if (!isNodeMethod(method)) throw new codes.FST_ERR_ROUTE_METHOD_INVALID()
    const { hasBody = false, overrideExisting = false } = opts ?? {}
    const table = this[kApp].httpMethods
    if (table.has(method) && overrideExisting !== true) warnDeprecated('existingHttpMethod', method)
    table.set(method, hasBody === true)
    const name = method.toLowerCase()
    // a name already taken (a built-in shorthand, a decorator) is left as it is, as in Fastify
    if (!(name in this)) (this.decorate as (name: string, value: unknown) => void)(name, shortcut(method))
    return this
  },
  /** The methods routes may use: those without a body first (a new array each time: changing it changes nothing). */
  get supportedMethods (): string[] {
    return (this as unknown as Instance)[kApp].httpMethods.list().slice()
  }
}

/** The root's shorthands for its level's methods beyond Fastify 4's seven: own members, as Fastify's are. */
export function installLevelShorthands (root: Instance, level: ApiLevel): void {
  for (const method of level.methodShorthands) {
    Object.defineProperty(root, method.toLowerCase(), { value: shortcut(method), writable: true, configurable: true, enumerable: false })
  }
}
