/**
 * Enclave's public types. `src/index.ts` re-exports all of them; see docs/typescript.md.
 */
export type * from './schema'
export type * from './route-generic'
export type * from './raw'
export type * from './errors'
export type * from './logger'
export type * from './compilers'
export type * from './request'
export type * from './reply'
export type * from './hooks'
export type * from './route'
export type * from './content-type-parser'
export type * from './plugin'
export type * from './options'
export type * from './instance'
export type * from './factory'
export type * from './fastify-compat'
