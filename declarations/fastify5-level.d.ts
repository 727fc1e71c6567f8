/**
 * What makes a program's types those of the Fastify 5 level: `EnclaveTypesLevel` gets `major: 5`
 * (src/types/level.ts), so the few types that differ between Fastify 4 and Fastify 5 read as Fastify 5's. The Fastify 5
 * entries (fastify5.d.ts, fastify5-typescript-5.0.d.ts) include this file; the Fastify 4 entries do not.
 */
export {}

declare module '../dist/src/types/level' {
  interface EnclaveTypesLevel {
    major: 5
  }
}
