import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'

// What a TypeScript user reads when a typed route's reply.code() gets a status code its reply map does not declare:
// the codes it accepts, with no internal type name, and in ascending order when Enclave's declaration files are
// checked before the program (as tstyche does, and tsc with skipLibCheck false). TypeScript lists a union's numbers in
// the order their literal types were created, so a program that creates some first (its own reply map's 200, when
// nothing checked the declarations) sees those first. Compiled against the build's published declarations (`npm test`
// builds first), at both levels.
const root = path.join(__dirname, '..', '..')
const entries = {
  'Fastify 4 level': path.join(root, 'declarations', 'enclave'),
  'Fastify 5 level': path.join(root, 'declarations', 'fastify5')
}

const source = (entry: string) => `import fastify = require(${JSON.stringify(entry)})
interface RangeAndCodes { Reply: { '1xx': number, 200: 'abc', 201: boolean, 300: { foo: string } } }
const app = fastify()
app.get<RangeAndCodes>('/', async (request, reply) => {
  reply.code(200).send('abc')
  reply.code(401)
})
`

/** The app's errors, its declarations (Enclave's, not those under node_modules) checked first when `declarationsFirst`. */
function appErrors (entry: string, declarationsFirst: boolean): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-messages-'))
  try {
    const file = path.join(dir, 'app.ts')
    writeFileSync(file, source(entry))
    const program = ts.createProgram([file], {
      strict: true, noEmit: true, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')],
      module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, target: ts.ScriptTarget.ES2022
    })
    if (declarationsFirst) {
      for (const declarations of program.getSourceFiles()) {
        if (declarations.isDeclarationFile && !program.isSourceFileFromExternalLibrary(declarations) &&
          !program.isSourceFileDefaultLibrary(declarations)) program.getSemanticDiagnostics(declarations)
      }
    }
    return program.getSemanticDiagnostics(program.getSourceFile(file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const refused = (codes: string) => `Argument of type '401' is not assignable to parameter of type '${codes}'.`
const firstCodes = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(' | ')

for (const [level, entry] of Object.entries(entries)) {
  test(`${level}: with the declarations checked first, the accepted codes of a reply map are listed in order`, () => {
    assert.deepEqual(appErrors(entry, true), [refused(`${firstCodes(100, 33)} | ... 69 more ... | 300`)])
  })

  test(`${level}: checked alone, a program's own codes come first, then the range's in order`, () => {
    assert.deepEqual(appErrors(entry, false), [refused(`200 | 201 | 300 | ${firstCodes(100, 30)} | ... 69 more ... | 199`)])
  })
}
