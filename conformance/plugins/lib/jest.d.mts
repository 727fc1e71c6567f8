// Types of jest.mjs for the TypeScript test that drives it.
export function allBut (skips: string[]): [flag: '--testNamePattern', pattern: string]
