/**
 * The factory: `enclave(options)` creates a root instance. It is also the module's `default` and named `enclave`
 * export, and carries the error code registry.
 */
import type { EnclaveInstance } from './instance'
import type { EnclaveOptions } from './options'
import type { EnclaveErrorCodes } from './errors'

/** The type of the `enclave` export. */
export interface EnclaveFactory {
  /** Creates a root instance. */
  (opts?: EnclaveOptions): EnclaveInstance
  /** The factory itself, for `import enclave from 'enclave'` under CommonJS interop. */
  default: EnclaveFactory
  /** The factory itself, for `import { enclave } from 'enclave'`. */
  enclave: EnclaveFactory
  /** The factory itself under Fastify's name, for `import { fastify } from 'enclave'`. */
  fastify: EnclaveFactory
  /** Every error class, by code name (`errorCodes.FST_ERR_NOT_FOUND`). */
  errorCodes: EnclaveErrorCodes
  /**
   * Enclave only: readies an application created with `compileCache: { dir }` and writes its compile cache (every
   * generated validator and serializer, with V8's code cache), for a warm first start. See docs/compile-cache.md.
   */
  precompile (app: EnclaveInstance): Promise<PrecompileResult>
}

/** What `precompile` wrote. */
export interface PrecompileResult {
  /** The pack file written. */
  file: string
  /** Generated validators and serializers it holds. */
  entries: number
}
