/**
 * Runtime behaviour tests deliberately pass invalid arguments and add decorators dynamically, so they use the
 * factory without its static types. The public types are checked by the files in `test/types/`.
 */
import typedEnclave from '../src/index'

export const enclave = typedEnclave as unknown as (options?: Record<string, any>) => any
