/**
 * The API level the types describe, as `src/core/api-level.ts` is the runtime's: the Fastify 4 level unless the
 * program reads `enclave-http/fastify5`'s declarations (declarations/fastify5.d.ts), which set
 * `EnclaveTypesLevel['major']` to 5 by declaration merging. Only where Fastify 4's and Fastify 5's types disagree
 * does a type ask `AtLevel<Fastify4, Fastify5>`; the question has a fixed answer in a program, so the checker settles
 * it once, at no cost per use. Every such place is listed in docs/typescript.md ("The Fastify 5 level").
 */

/** Declaration-merged by the Fastify 5 entry's declarations with `{ major: 5 }`; empty at the Fastify 4 level. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EnclaveTypesLevel {}

/** 4 or 5: the Fastify API level of the program's `fastify` types. */
export type TypesLevel = EnclaveTypesLevel extends { major: 5 } ? 5 : 4

/** `Fastify4` at the Fastify 4 level, `Fastify5` at the Fastify 5 level. */
export type AtLevel<Fastify4, Fastify5> = TypesLevel extends 5 ? Fastify5 : Fastify4
