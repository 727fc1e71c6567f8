/**
 * When a route's validator or serializer without compiled code changes from Enclave's interpreter to its generated
 * code (validation/tiered-validator.ts, serialization/tiered-serializer.ts): at its 16th call.
 *
 * Compiling a route's validator and serializer costs ~0.2–0.4 ms (with their first calls). Interpreting costs more
 * per call than code written for one schema: a few µs once V8 has optimized the interpreter's shared functions, and
 * up to ~100 µs a request before (the second request to each of 1,000 routes, in the start-up bench). Sixteen calls
 * of that overhead are about what compiling costs, so a route never pays much more than twice the least it could,
 * and the routes called once or never (most, in a large application) compile nothing.
 */
export const TIER_UP_CALLS = 16
