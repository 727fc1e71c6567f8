// Types of tap-results.mjs for the TypeScript test that drives it.
export interface TapTest { name: string, status: string, reason?: string, failure?: string, unfinished?: boolean }
export function testName (name: string): string
export function parseTap (text: string): { tests: TapTest[], plan: unknown, complete: boolean }
