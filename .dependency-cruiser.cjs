/**
 * Import rules of src/, checked by `npm run check:imports` (part of `npm test`). Folders are layered; at run time
 * each imports only itself and the folders below it. Type-only imports (`import type`) are free: they vanish from
 * the build. The one runtime cycle allowed is reply/send.ts ⇄ reply/error-handler.ts (sending can fail with an
 * error, and an error is answered by sending its body).
 */
const layers = ['core', 'encapsulation', 'hooks', 'schema', 'request', 'reply', 'routing', 'app', 'bin']

const layerRules = layers.slice(0, -1).map((layer, i) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import only ${layers.slice(0, i).map((l) => `src/${l}/`).join(', ') || 'nothing else'} at run time`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: {
    path: `^src/(${layers.slice(i + 1).join('|')})/`,
    dependencyTypesNot: ['type-only']
  }
}))

module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'A runtime import cycle makes module load order matter; only send.ts ⇄ error-handler.ts is allowed.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        circular: true,
        viaOnly: { dependencyTypesNot: ['type-only'] },
        pathNot: '^src/reply/(send|error-handler)\\.ts$'
      }
    },
    {
      name: 'allowed-cycle-stays-a-pair',
      comment: 'send.ts and error-handler.ts may import each other, and nothing else that imports them back.',
      severity: 'error',
      from: { path: '^src/reply/(send|error-handler)\\.ts$' },
      to: {
        circular: true,
        viaOnly: { dependencyTypesNot: ['type-only'] },
        via: { pathNot: '^src/reply/(send|error-handler)\\.ts$' }
      }
    },
    ...layerRules,
    {
      name: 'types-stay-public',
      comment: 'src/types/ holds the public types: it imports nothing from the implementation at run time.',
      severity: 'error',
      from: { path: '^src/types/' },
      to: { path: '^src/(?!types/)', dependencyTypesNot: ['type-only'] }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' }
  }
}
