/**
 * Modules loaded on first use. Start-up time counts for every process (and for a warm start most of it is loading
 * code): a dependency that only some applications need — Ajv when every validator comes from Enclave's generator or
 * a compile cache, pino when logging is off, light-my-request before the first `inject()` — is required when used.
 */
export function lazyModule<T> (load: () => T): () => T {
  let loaded: T | undefined
  return () => (loaded ??= load())
}
