import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import ts from 'typescript'

// declarations/enclave.d.ts lists Enclave's exports by hand (an `export =` namespace cannot re-export a module
// wholesale); the module tsc emits from src/index.ts is the reference. Runs against the build (`npm test` builds
// first); `npm run typecheck` compiles the entry itself.
const root = path.join(__dirname, '..', '..')
const entry = path.join(root, 'declarations', 'enclave.d.ts')
const emitted = path.join(root, 'dist', 'src', 'index.d.ts')

function exportedNames (program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker()
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort()
}

test('the published entry exports every name of src/index.ts, and no other', () => {
  const program = ts.createProgram([entry, emitted], {
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], noEmit: true
  })
  const published = exportedNames(program, entry)
  const reference = exportedNames(program, emitted)
  assert.deepEqual(published.filter((name) => !reference.includes(name)), [], 'exported by the entry only')
  assert.deepEqual(reference.filter((name) => !published.includes(name)), [], 'missing from declarations/enclave.d.ts')
})
