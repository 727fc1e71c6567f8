/**
 * `SchemaScope`: the schema state of one encapsulation context — shared schemas (`addSchema`), the validator and
 * serializer compilers, the schema error formatter — plus the factory options that configure them (`ajv` /
 * `validator`, `schemaController`, `schemaErrorFormatter`, `jsonShorthand`), checked fail-fast.
 *
 * A child sees its ancestors' shared schemas; what it adds stays invisible to its parent and siblings.
 */
import { codes } from '../core/errors'
import { kPluginContext } from '../core/symbols'
import { isObjectLike, isPlainObject } from '../core/objects'
import { assertNotStarted } from '../core/start-guard'
import type { Instance } from '../encapsulation/app-state'
import type { AnyFn } from '../core/types'
import { DEFAULT_LEVEL, type ApiLevel } from '../core/api-level'
import { unwrapFluentSchema, type ShorthandRules } from './route-schema'
import { buildDefaultValidator } from './validation/ajv-compiler'
import { compileCacheFromOption, type CompileCache } from './compile-cache'
import { DeferredCompilations } from './validation/lazy-validator'
import type { AjvPlugin, AjvServerOptions, ValidatorCompiler, ValidatorFactory } from './validation/validator-types'
import { assertSchemaErrorFormatter, defaultSchemaErrorFormatter, type SchemaErrorFormatter } from './validation/validation-errors'

/** Where shared schemas are stored; `schemaController.bucket` may supply another implementation. */
export interface SchemaBucket {
  add (schema: SharedSchema): void
  getSchema (id: string): SharedSchema | undefined
  getSchemas (): Record<string, SharedSchema>
}
export type SchemaBucketFactory = (parentSchemas?: Record<string, SharedSchema>) => SchemaBucket

/** A schema given to `addSchema`: a JSON Schema object with its `$id`. */
export type SharedSchema = Record<string, unknown> & { $id: string }

export interface SchemaControllerOptions {
  /** Called for the root and for every new context, with the schemas the parent context sees. */
  bucket?: SchemaBucketFactory
  compilersFactory?: {
    /** `(externalSchemas, ajvOptions) => validatorCompiler`; replaces the default Ajv compiler. */
    buildValidator?: ValidatorFactory
    /** `(externalSchemas, serializerOpts) => serializerCompiler`; read by the serializer. */
    buildSerializer?: AnyFn
  }
}

/** The `ajv` factory option (also accepted as `validator`). */
export interface AjvOptionsInput {
  customOptions?: object
  plugins?: Array<AjvPlugin | [AjvPlugin, unknown]>
  /** `(ajv) => void`, as @fastify/ajv-compiler takes it (Fastify 4 and 5): changes each Ajv instance made. */
  onCreate?: unknown
}

export interface SchemaOptions {
  ajv?: AjvOptionsInput
  /** Alias of `ajv`. Giving both (as different objects) is an error, because one would silently win. */
  validator?: AjvOptionsInput
  schemaController?: SchemaControllerOptions
  schemaErrorFormatter?: SchemaErrorFormatter
  /**
   * When false, route schemas are compiled as given (no `{ type: 'object', properties }` shorthand). Default true;
   * read at the Fastify 4 level only (Fastify 5 removed the shorthand and this option: the level policy's
   * `schemaShorthand`).
   */
  jsonShorthand?: boolean
  /** The factory option of the same name, kept here for the serializer (`buildSerializer`'s second argument). */
  serializerOpts?: Record<string, unknown>
  /** `{ dir }`: where generated validators and serializers are kept between starts (compile-cache.ts). */
  compileCache?: unknown
}

interface ControllerState {
  bucket: SchemaBucketFactory | undefined
  buildValidator: ValidatorFactory | undefined
  buildSerializer: AnyFn | undefined
}

/** Application-wide schema state, reached through every context's `app`. */
class SchemaApp implements ShorthandRules {
  /** Bumped by every `addSchema` anywhere, so a context knows when its cached shared-schema key is stale. */
  version = 0
  /** Validator compilers by factory, then by shared-schema set: contexts that see the same schemas share one. */
  readonly validatorCompilers = new Map<ValidatorFactory, Map<string, ValidatorCompiler>>()
  /** Validators Ajv compiles on first use, compiled in the background once the application is ready. */
  readonly deferredCompilations = new DeferredCompilations()
  nextContextId = 0

  readonly jsonShorthand: boolean
  readonly contentShorthand: boolean
  /** The level policy's `validatorThrowIsValidationError`, read when a route's validators are compiled. */
  readonly validatorThrowIsValidationError: boolean
  /** The level policy's `coercedRootReachesRequest`, read when a route's validators are compiled. */
  readonly coercedRootReachesRequest: boolean

  constructor (readonly ajvOptions: AjvServerOptions, level: ApiLevel, jsonShorthand: boolean,
    readonly serializerOpts: Record<string, unknown> | undefined, readonly compileCache: CompileCache | null) {
    this.jsonShorthand = level.schemaShorthand && jsonShorthand
    this.contentShorthand = level.schemaShorthand
    this.validatorThrowIsValidationError = level.validatorThrowIsValidationError
    this.coercedRootReachesRequest = level.coercedRootReachesRequest
  }
}

/** The default bucket: own schemas plus a live view of the parent context's, so later parent additions show. */
class DefaultSchemaBucket implements SchemaBucket {
  readonly #own = new Map<string, SharedSchema>()

  constructor (readonly parent: SchemaScope | null) {}

  add (schema: SharedSchema): void {
    const id = schema.$id
    if (this.getSchema(id) !== undefined) throw new codes.FST_ERR_SCH_ALREADY_PRESENT(id)
    this.#own.set(id, schema)
  }

  getSchema (id: string): SharedSchema | undefined {
    return this.#own.get(id) ?? this.parent?.getSchema(id)
  }

  getSchemas (): Record<string, SharedSchema> {
    const all = this.parent === null ? {} : this.parent.getSchemas()
    for (const [id, schema] of this.#own) all[id] = schema
    return all
  }
}

export class SchemaScope {
  readonly parent: SchemaScope | null
  readonly app: SchemaApp
  /** Set by `setValidatorCompiler`; null means the default (Ajv, or `compilersFactory.buildValidator`). */
  validatorCompiler: ValidatorCompiler | null
  /** Set by `setSerializerCompiler`; null means the default serializer. */
  serializerCompiler: AnyFn | null
  /**
   * The default compilers once a route of this context was compiled with them: with the ones set above, what the
   * `validatorCompiler` / `serializerCompiler` getters report, as in Fastify (undefined before).
   */
  validatorInUse: ValidatorCompiler | undefined = undefined
  serializerInUse: AnyFn | undefined = undefined
  schemaErrorFormatter: SchemaErrorFormatter
  #controller: ControllerState
  #bucket: SchemaBucket
  /** What was added here, replayed into a new bucket when `setSchemaController` replaces it. */
  readonly #added: SharedSchema[] = []
  readonly #id: number
  #schemasKey = ''
  #schemasKeyVersion = -1

  private constructor (parent: SchemaScope | null, app: SchemaApp, controller: ControllerState,
    validatorCompiler: ValidatorCompiler | null, serializerCompiler: AnyFn | null, formatter: SchemaErrorFormatter) {
    this.parent = parent
    this.app = app
    this.validatorCompiler = validatorCompiler
    this.serializerCompiler = serializerCompiler
    this.schemaErrorFormatter = formatter
    this.#controller = controller
    this.#id = app.nextContextId++
    this.#bucket = this.#createBucket()
  }

  /**
   * The root context, from the factory options and the application's API level; throws the option's `FST_ERR_*`
   * code when an option is malformed.
   */
  static root (opts: SchemaOptions = {}, level: ApiLevel = DEFAULT_LEVEL): SchemaScope {
    const ajvOptions = normalizeAjvOptions(opts)
    const controller = normalizeController(opts.schemaController, { bucket: undefined, buildValidator: undefined, buildSerializer: undefined })
    let formatter: SchemaErrorFormatter = defaultSchemaErrorFormatter
    if (opts.schemaErrorFormatter !== undefined) {
      assertSchemaErrorFormatter(opts.schemaErrorFormatter)
      formatter = opts.schemaErrorFormatter
    }
    if (opts.jsonShorthand !== undefined && typeof opts.jsonShorthand !== 'boolean') {
      throw new codes.FST_ERR_INIT_OPTS_INVALID('jsonShorthand must be a boolean')
    }
    // at the Fastify 5 level the option is ignored (SchemaApp), as Fastify 5 ignores any option it does not know
    const app = new SchemaApp(ajvOptions, level, opts.jsonShorthand !== false, opts.serializerOpts, compileCacheFromOption(opts.compileCache))
    return new SchemaScope(null, app, controller, null, null, formatter)
  }

  /** A context for a registered plugin: it starts with this context's compilers and formatter. */
  child (): SchemaScope {
    return new SchemaScope(this, this.app, this.#controller, this.validatorCompiler, this.serializerCompiler, this.schemaErrorFormatter)
  }

  add (input: unknown): void {
    const schema = unwrapFluentSchema(input)
    if (!isSharedSchema(schema)) throw new codes.FST_ERR_SCH_MISSING_ID()
    this.#bucket.add(schema)
    this.#added.push(schema)
    this.app.version++
  }

  /** Shared schemas visible here (own and ancestors'), keyed by `$id`. */
  getSchemas (): Record<string, SharedSchema> {
    return this.#bucket.getSchemas()
  }

  getSchema (id: string): SharedSchema | undefined {
    return this.#bucket.getSchema(id)
  }

  /** `schemaController.compilersFactory.buildSerializer`, for the serializer; undefined means its default. */
  get serializerFactory (): AnyFn | undefined {
    return this.#controller.buildSerializer
  }

  /**
   * Whether this context's routes compile with a validator compiler of the user's (`setValidatorCompiler` here or
   * above, `schemaController.compilersFactory.buildValidator`): Fastify then passes headers schemas as written.
   */
  get customValidator (): boolean {
    return this.validatorCompiler !== null || this.#controller.buildValidator !== undefined
  }

  /** The `serializerOpts` factory option. */
  get serializerOpts (): Record<string, unknown> | undefined {
    return this.app.serializerOpts
  }

  /**
   * A string that is equal for two contexts exactly when they see the same shared schemas: compilers built from
   * the shared schemas (validators here, serializers in `serialization.ts`) can be cached under it.
   */
  getSchemasKey (): string {
    if (this.#schemasKeyVersion !== this.app.version) {
      try {
        this.#schemasKey = JSON.stringify(this.getSchemas())
      } catch {
        this.#schemasKey = `\0context ${this.#id}` // not JSON (cyclic): never shared with another context
      }
      this.#schemasKeyVersion = this.app.version
    }
    return this.#schemasKey
  }

  /** The compiler used when neither the route nor `setValidatorCompiler` gave one; built once per schema set. */
  defaultValidatorCompiler (): ValidatorCompiler {
    const factory = this.#controller.buildValidator ?? buildDefaultValidator
    let bySchemas = this.app.validatorCompilers.get(factory)
    if (bySchemas === undefined) {
      bySchemas = new Map()
      this.app.validatorCompilers.set(factory, bySchemas)
    }
    const key = this.getSchemasKey()
    let compiler = bySchemas.get(key)
    if (compiler === undefined) {
      // the default compiler also gets the compile cache; a user's factory gets Fastify's two arguments
      compiler = factory === buildDefaultValidator
        ? buildDefaultValidator(this.getSchemas(), this.app.ajvOptions, this.app)
        : factory(this.getSchemas(), this.app.ajvOptions)
      bySchemas.set(key, compiler)
    }
    return compiler
  }

  /**
   * What the `validatorCompiler` / `serializerCompiler` getters report, as Fastify does: the compiler set here or in
   * an ancestor, else the default one once routes here or in an ancestor were compiled with it, else undefined.
   */
  compilerInUse (kind: 'validator' | 'serializer'): AnyFn | undefined {
    for (let scope: SchemaScope | null = this; scope !== null; scope = scope.parent) {
      const compiler = kind === 'validator' ? scope.validatorCompiler ?? scope.validatorInUse : scope.serializerCompiler ?? scope.serializerInUse
      if (compiler !== null && compiler !== undefined) return compiler
    }
    return undefined
  }

  /** `setSchemaController`: replaces the options given, for this context and the contexts created after. */
  setController (options: SchemaControllerOptions): void {
    this.#controller = normalizeController(options, this.#controller)
    if (options.bucket !== undefined) {
      this.#bucket = this.#createBucket()
      for (const schema of this.#added) this.#bucket.add(schema)
    }
    this.app.version++
  }

  #createBucket (): SchemaBucket {
    const factory = this.#controller.bucket
    if (factory === undefined) return new DefaultSchemaBucket(this.parent)
    return factory(this.parent === null ? undefined : this.parent.getSchemas())
  }
}

function isSharedSchema (schema: unknown): schema is SharedSchema {
  return schema !== null && typeof schema === 'object' && typeof (schema as { $id?: unknown }).$id === 'string' &&
    (schema as { $id: string }).$id !== ''
}

function normalizeAjvOptions (opts: SchemaOptions): AjvServerOptions {
  if (opts.ajv !== undefined && opts.validator !== undefined && opts.ajv !== opts.validator) {
    throw new codes.FST_ERR_INIT_OPTS_INVALID("give either 'ajv' or its alias 'validator', not both")
  }
  const name = opts.ajv !== undefined ? 'ajv' : 'validator'
  const input = opts.ajv ?? opts.validator
  if (input === undefined) return { customOptions: {}, plugins: [] }
  if (!isPlainObject(input)) throw new codes.FST_ERR_INIT_OPTS_INVALID(`${name} must be an object`)

  const { customOptions = {}, plugins = [], onCreate } = input
  if (!isPlainObject(customOptions)) throw new codes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ(typeof customOptions)
  if (!Array.isArray(plugins)) throw new codes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR(typeof plugins)
  if (onCreate !== undefined && typeof onCreate !== 'function') throw new codes.FST_ERR_INIT_OPTS_INVALID(`${name}.onCreate must be a function`)
  const normalized: AjvServerOptions = { customOptions: { ...customOptions }, plugins: plugins.map((entry, i) => normalizePlugin(entry, `${name}.plugins[${i}]`)) }
  if (onCreate !== undefined) normalized.onCreate = onCreate as AjvServerOptions['onCreate']
  return normalized
}

/** A plugin is a function, `[function, options]`, or a module namespace whose `default` is the function. */
function normalizePlugin (entry: unknown, where: string): AjvPlugin | [AjvPlugin, unknown] {
  if (typeof entry === 'function') return entry as AjvPlugin
  if (Array.isArray(entry) && typeof entry[0] === 'function') return [entry[0], entry[1]]
  const defaultExport = isObjectLike(entry) ? entry.default : undefined
  if (typeof defaultExport === 'function') return defaultExport as AjvPlugin
  throw new codes.FST_ERR_INIT_OPTS_INVALID(`${where} must be a function or [function, options]`)
}

function normalizeController (input: unknown, base: ControllerState): ControllerState {
  if (input === undefined) return base
  if (input === null || typeof input !== 'object') throw new codes.FST_ERR_INIT_OPTS_INVALID('schemaController must be an object')
  const { bucket, compilersFactory } = input as SchemaControllerOptions
  if (bucket !== undefined && typeof bucket !== 'function') throw new codes.FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN(typeof bucket)
  if (compilersFactory !== undefined && (compilersFactory === null || typeof compilersFactory !== 'object')) {
    throw new codes.FST_ERR_INIT_OPTS_INVALID('schemaController.compilersFactory must be an object')
  }
  const { buildValidator, buildSerializer } = compilersFactory ?? {}
  for (const [name, fn] of [['buildValidator', buildValidator], ['buildSerializer', buildSerializer]] as const) {
    if (fn !== undefined && typeof fn !== 'function') {
      throw new codes.FST_ERR_INIT_OPTS_INVALID(`schemaController.compilersFactory.${name} must be a function`)
    }
  }
  return {
    bucket: bucket ?? base.bucket,
    buildValidator: buildValidator ?? base.buildValidator,
    buildSerializer: buildSerializer ?? base.buildSerializer
  }
}


/**
 * Instance methods mixed into the root instance's prototype; each acts on the calling context. The getters must be
 * copied as accessors (`Object.defineProperties(proto, Object.getOwnPropertyDescriptors(schemaInstanceMethods))`).
 */
export const schemaInstanceMethods = {
  /** Adds a shared schema (with `$id`) to this context; `$ref: '<$id>#...'` reaches it from here and below. */
  addSchema (this: Instance, schema: unknown): Instance {
    assertNotStarted(this, 'Cannot call "addSchema"!')
    this[kPluginContext].schema.add(schema)
    return this
  },

  getSchemas (this: Instance): Record<string, SharedSchema> {
    return this[kPluginContext].schema.getSchemas()
  },

  getSchema (this: Instance, id: string): SharedSchema | undefined {
    return this[kPluginContext].schema.getSchema(id)
  },

  setValidatorCompiler (this: Instance, compiler: ValidatorCompiler): Instance {
    assertNotStarted(this, 'Cannot call "setValidatorCompiler"!')
    this[kPluginContext].schema.validatorCompiler = compiler
    return this
  },

  setSchemaErrorFormatter (this: Instance, formatter: unknown): Instance {
    assertNotStarted(this, 'Cannot call "setSchemaErrorFormatter"!')
    assertSchemaErrorFormatter(formatter)
    this[kPluginContext].schema.schemaErrorFormatter = formatter
    return this
  },

  setSchemaController (this: Instance, options: SchemaControllerOptions): Instance {
    assertNotStarted(this, 'Cannot call "setSchemaController"!')
    this[kPluginContext].schema.setController(options)
    return this
  },

  /** The compiler this context's routes validate with, as Fastify reports it (see `compilerInUse`). */
  get validatorCompiler (): ValidatorCompiler | undefined {
    // read on the shared prototype itself too (no context there)
    const self = this as unknown as Partial<Instance> | undefined
    return self?.[kPluginContext]?.schema.compilerInUse('validator') as ValidatorCompiler | undefined
  },

  get schemaErrorFormatter (): SchemaErrorFormatter | undefined {
    const self = this as unknown as Partial<Instance> | undefined
    return self?.[kPluginContext]?.schema.schemaErrorFormatter
  }
}
