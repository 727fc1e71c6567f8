import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly', Buffer: 'readonly', URL: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: {
      // Tests and public types meet Fastify's dynamically shaped API (decorators, `this`-bound hooks).
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-this-alias': 'off',
      '@typescript-eslint/no-require-imports': 'off'
    }
  },
  {
    // The implementation is typed: its few `any` are named types in src/core/types.ts and the user-function
    // contracts, each with an eslint-disable comment saying why. The public types (src/types/) model Fastify's.
    files: ['src/**/*.ts'],
    ignores: ['src/types/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' }
  }
)
