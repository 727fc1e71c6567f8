/**
 * The types of `enclave-http/fastify5`, the Fastify 5 level: the package's types (enclave.d.ts, the same names and
 * interfaces, so that a `declare module 'fastify'` augmentation reaches them) read at the Fastify 5 level, set by
 * fastify5-level.d.ts. TypeScript 5.0 to 5.3 read fastify5-typescript-5.0.d.ts instead.
 */
import './fastify5-level'
import enclave = require('./enclave')
export = enclave
