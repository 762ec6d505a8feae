// ESLint (flat config): typescript-eslint's recommended rules on every TypeScript file of the
// repository; formatting is Prettier's job (eslint-config-prettier turns the overlapping rules off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'dist-tools/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'helm/**',
      'k8s/**',
      'docs/api/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A variable read by a closure before its one assignment must stay `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // One import statement per module: a type from a module imported for values too is named in
      // that same statement (`import { value, type Type }`), so a file's dependencies read as one list.
      'no-duplicate-imports': ['error', { includeExports: false, allowSeparateTypeImports: false }],
    },
  },
  {
    // Specs and test helpers read loosely typed JSON answers from the service.
    files: ['test/**/*.ts', 'packages/dev-services/src/fake-openai-server.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
