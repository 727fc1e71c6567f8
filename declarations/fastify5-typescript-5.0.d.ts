/**
 * `enclave-http/fastify5` for TypeScript 5.0 to 5.3 (the `types@<5.4` export condition): typescript-5.0.d.ts (the
 * package's entry with the `NoInfer` these releases lack) at the Fastify 5 level.
 */
import './fastify5-level'
import enclave = require('./typescript-5.0')
export = enclave
