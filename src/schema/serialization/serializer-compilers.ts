/**
 * Which compiler turns a route's response schemas into serializers: the route's `serializerCompiler`, else the
 * nearest `setSerializerCompiler`, else `schemaController.compilersFactory.buildSerializer`, else the default
 * (Enclave's generator, with fast-json-stringify for the schemas it does not cover). Default compilers are shared
 * by contexts that see the same shared schemas, and compile an identical schema once.
 */
import type fastJsonStringifyModule from 'fast-json-stringify'
import { codes } from '../../core/errors'
import type { JsonSchema } from '../../core/types'
import { lazyModule } from '../../core/lazy-module'
import { kPluginContext } from '../../core/symbols'
import { assertSetter } from '../../core/start-guard'
import type { Instance } from '../../encapsulation/app-state'
import type { SchemaScope } from '../schema-scope'
import { compiledSerializer, compileSerializer, roundingOf, serializerCode, serializerFromFactory, serializerParams } from './serializer-compiler'
import { tieredSerializer } from './tiered-serializer'
import { CompileCache, type GeneratedFactory } from '../compile-cache'
import { compilableEntryBody, configurationKey, isJsonData, moduleEntryParams, runModuleEntry } from '../cached-module'
import { inspectForFastJsonStringify } from './response-schema'
import type { SerializerCompiler, SerializerCompilerFactory, SerializerFn } from './serializer-types'

/** fast-json-stringify (and its Ajv) is loaded by the first schema Enclave's generator leaves to it. */
const fastJsonStringify = lazyModule(() => require('fast-json-stringify') as typeof fastJsonStringifyModule)

/** Route `serializerCompiler` > nearest `setSerializerCompiler` > `buildSerializer` factory > fast-json-stringify. */
export function resolveCompiler (route: { serializerCompiler?: unknown }, schemas: SchemaScope): SerializerCompiler {
  if (typeof route.serializerCompiler === 'function') return route.serializerCompiler as SerializerCompiler
  return contextSerializerCompiler(schemas)
}

/** `resolveCompiler` for a route's response schemas: the context then reports the compiler it used (the getter). */
export function resolveRouteCompiler (route: { serializerCompiler?: unknown }, schemas: SchemaScope): SerializerCompiler {
  if (typeof route.serializerCompiler === 'function') return route.serializerCompiler as SerializerCompiler
  const compiler = contextSerializerCompiler(schemas)
  schemas.serializerInUse ??= compiler
  return compiler
}

/** The compiler a context's routes use when the route gives none (the `serializerCompiler` getter). */
export function contextSerializerCompiler (schemas: SchemaScope): SerializerCompiler {
  for (let scope: SchemaScope | null = schemas; scope !== null; scope = scope.parent) {
    const compiler = scope.serializerCompiler
    if (typeof compiler === 'function') return compiler as SerializerCompiler
  }
  const set = sharedSchemaSet(schemas)
  const factory = schemas.serializerFactory as SerializerCompilerFactory | undefined
  if (typeof factory !== 'function') return set.fastJsonStringify
  let compiler = set.byFactory.get(factory)
  if (compiler === undefined) {
    compiler = factory(set.externals, set.opts)
    if (typeof compiler !== 'function') {
      throw new codes.FST_ERR_SCH_SERIALIZATION_BUILD('schemaController', 'compilersFactory.buildSerializer', 'it did not return a function')
    }
    set.byFactory.set(factory, compiler)
  }
  return compiler
}

/** Compilers built from one set of visible shared schemas; contexts that see the same schemas share it. */
interface SharedSchemaSet {
  externals: Record<string, unknown>
  opts: Record<string, unknown> | undefined
  byFactory: Map<SerializerCompilerFactory, SerializerCompiler>
  /** The default compiler; identical schemas compile once. */
  fastJsonStringify: SerializerCompiler
}

const sharedSchemaSets = new WeakMap<object, Map<string, SharedSchemaSet>>()

function sharedSchemaSet (schema: SchemaScope): SharedSchemaSet {
  let sets = sharedSchemaSets.get(schema.app)
  if (sets === undefined) sharedSchemaSets.set(schema.app, sets = new Map())
  const key = schema.getSchemasKey()
  let set = sets.get(key)
  if (set === undefined) {
    const externals = schema.getSchemas()
    const opts = schema.serializerOpts
    set = { externals, opts, byFactory: new Map(), fastJsonStringify: fastJsonStringifyCompiler(externals, opts, schema.app.compileCache) }
    sets.set(key, set)
  }
  return set
}

function fastJsonStringifyCompiler (externals: Record<string, unknown>, opts: Record<string, unknown> | undefined,
  cache: CompileCache | null): SerializerCompiler {
  const byJson = new Map<string, SerializerFn>()
  const configuration = cache === null ? null : configurationKey(opts, externals)
  return function compileWithFastJsonStringify ({ schema }) {
    let json: string | undefined
    try {
      json = JSON.stringify(schema)
    } catch {
      json = undefined // a cyclic schema: compiled, not cached
    }
    const cached = json === undefined ? undefined : byJson.get(json)
    if (cached !== undefined) return cached
    let fn = json !== undefined ? subsetSerializer(json, schema, opts, cache) : compileSerializer(schema, opts)
    if (fn === undefined) {
      const { untyped } = inspectForFastJsonStringify(schema, externals)
      fn = json !== undefined && configuration !== null && isJsonData(schema)
        ? cachedFastJsonStringify(cache as CompileCache, configuration, json, schema, externals, opts)
        : fastJsonStringify()(schema, { ...opts, schema: externals as Record<string, never> }) as SerializerFn
      if (untyped) fn = rejectInvalidJson(fn)
    }
    if (json !== undefined) byJson.set(json, fn)
    return fn
  }
}

/**
 * Enclave's own serializer for a schema inside its subset, else undefined: from a compile cache that holds its code,
 * the generated serializer; otherwise the tiered one (tiered-serializer.ts), which compiles the code once the route
 * is used, and the code is recorded in the cache for the next start. Whether the schema is inside is decided on the
 * schema itself, as the generator always did.
 */
function subsetSerializer (json: string, schema: unknown, opts: Record<string, unknown> | undefined, cache: CompileCache | null): SerializerFn | undefined {
  const rounding = roundingOf(opts)
  if (rounding === undefined) return undefined
  const key = cache === null ? '' : CompileCache.key('serializer', rounding, json)
  const cached = cache?.get(key)
  if (cached !== undefined) return serializerFromFactory(cached, rounding)
  const code = serializerCode(schema, opts)
  if (code === undefined) return undefined
  cache?.put(key, serializerParams, code.source)
  // the interpreter reads the JSON copy, where a sub-schema object met twice is two objects, which would name another
  // path in an error (serializer-interpreter.ts): such a schema is compiled now
  if (code.reusesSchemas) return compiledSerializer(code.source, rounding)
  return tieredSerializer(JSON.parse(json) as JsonSchema, rounding, code.source)
}

/** What fast-json-stringify's standalone code requires: its own runtime. */
const fastJsonStringifyRuntime = /^fast-json-stringify\/lib\/(serializer|validator)$/

/**
 * fast-json-stringify's serializer through the compile cache (../cached-module.ts): its standalone code, loaded from
 * the pack when there, else written by fast-json-stringify now, recorded, and run as a warm start would run it.
 */
function cachedFastJsonStringify (cache: CompileCache, configuration: string, json: string, schema: unknown,
  externals: Record<string, unknown>, opts: Record<string, unknown> | undefined): SerializerFn {
  const key = CompileCache.key('fjs-serializer', configuration, json)
  let factory = cache.get(key)
  if (factory === undefined) {
    const options = { ...opts, schema: externals as Record<string, never> }
    const body = compilableEntryBody(() => fastJsonStringify()(schema as never, { ...options, mode: 'standalone' }) as unknown as string)
    if (body === undefined) return fastJsonStringify()(schema as never, options) as SerializerFn
    cache.put(key, moduleEntryParams, body)
    factory = new Function(moduleEntryParams, body) as GeneratedFactory
  }
  return runModuleEntry(factory, fastJsonStringifyRuntime) as SerializerFn
}

/**
 * fast-json-stringify hands values of untyped subschemas (and items of arrays without `items`) to JSON.stringify,
 * which yields `undefined` for functions and symbols; the output would not be JSON. Such schemas get this check.
 */
function rejectInvalidJson (fn: SerializerFn): SerializerFn {
  return function serializeCheckingJson (data: unknown): string {
    const out = fn(data)
    if (typeof out === 'string' && (!out.includes('undefined') || isJson(out))) return out
    throw new codes.FST_ERR_RESPONSE_NOT_JSON()
  }
}

function isJson (text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Mixed into the instance prototype; each method acts on the calling context (encapsulated). */
export const serializationInstanceMethods = {
  /** The compiler this context's response schemas are compiled with, as Fastify reports it (`compilerInUse`). */
  get serializerCompiler (): SerializerCompiler | undefined {
    // read on the shared prototype itself too (no context there)
    const self = this as unknown as Partial<Instance> | undefined
    return self?.[kPluginContext]?.schema.compilerInUse('serializer') as SerializerCompiler | undefined
  },

  /** Replaces the compiler of response schemas for routes of this context and its descendants. */
  setSerializerCompiler (this: Instance, fn: SerializerCompiler): Instance {
    assertSetter(this, 'setSerializerCompiler', fn, codes.FST_ERR_SERIALIZER_NOT_FN)
    this[kPluginContext].schema.serializerCompiler = fn
    return this
  },
  /** Serializer for replies that no response schema covers, in this context and its descendants. */
  setReplySerializer (this: Instance, fn: (payload: unknown, statusCode: number) => string): Instance {
    assertSetter(this, 'setReplySerializer', fn, codes.FST_ERR_SERIALIZER_NOT_FN)
    this[kPluginContext].replySerializer = fn
    return this
  }
}
