// A module of the application's own, imported with its `.js` extension as NodeNext requires.
export const clock = { now: (): number => Date.now() }
