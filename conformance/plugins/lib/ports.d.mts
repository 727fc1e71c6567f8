// Types of ports.mjs for the TypeScript test that drives it.
export function describeHolder (port: number): string
export function waitForPorts (ports: number[], options?: { waitSeconds?: number, sleepMs?: number, log: (line: string) => void }): Promise<number[]>
