/**
 * The package's entry for TypeScript 5.0 to 5.3 (package.json `typesVersions` and the `types@<5.4` export
 * condition send them here; 5.4 and later read enclave.d.ts directly). Enclave's declarations use `NoInfer`, which
 * these releases lack: without it, an unknown name under `skipLibCheck`, every route handler's `request` and
 * `reply` would silently be `any`. This file declares it, written the way they understand. Only these releases see
 * the declaration, so it never meets the built-in one (which it would duplicate).
 */
declare global {
  /**
   * `T`, not inferred from: the index is a conditional type on `T`, left unresolved while `T` is being inferred,
   * and inference does not go through it. TypeScript 5.4's `NoInfer` does the same, at a lower cost to the checker.
   */
  type NoInfer<T> = [T][T extends any ? 0 : never]
}

import enclave = require('./enclave')
export = enclave
