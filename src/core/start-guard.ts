import { codes, type EnclaveErrorConstructor } from './errors'
import { kApp } from './symbols'

/**
 * The one "not after start" rule: what shapes the application (routes, hooks, decorators, parsers, schemas,
 * handlers, compilers) is refused once it has started, because every route's pipeline was compiled at ready. The
 * error is Fastify 4's for that family, which plugins match on: `FST_ERR_INSTANCE_ALREADY_LISTENING` ('Cannot call
 * "addHook"!'), `FST_ERR_DEC_AFTER_START` (the decorator's name) or `FST_ERR_CTP_INSTANCE_ALREADY_STARTED` (the
 * method's name).
 */
export function assertNotStarted (instance: { readonly [kApp]: { readonly started: boolean } }, detail: string,
  error: EnclaveErrorConstructor = codes.FST_ERR_INSTANCE_ALREADY_LISTENING): void {
  if (instance[kApp].started) throw new error(detail)
}

/**
 * The guard of a setter method (`setGenReqId`, `setSerializerCompiler`…): not after start, and given a function.
 * `notFunction` is Fastify's code for that setter (`FST_ERR_INSTANCE_SETTER_NOT_FN`, `FST_ERR_SERIALIZER_NOT_FN`).
 */
export function assertSetter (instance: { readonly [kApp]: { readonly started: boolean } }, method: string, fn: unknown,
  notFunction: EnclaveErrorConstructor): void {
  assertNotStarted(instance, `Cannot call "${method}"!`)
  if (typeof fn !== 'function') throw new notFunction(method, typeof fn)
}
