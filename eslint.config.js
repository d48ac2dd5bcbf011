// ESLint (flat config): typescript-eslint's recommended rules (syntax only, not type-checked, so
// `npx eslint .` stays under a minute on a 2-core machine) plus the React hooks rules for the console.
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'test-results/**',
      'playwright-report/**',
      'data/**',
      'data-backups/**',
      'bench/results/**',
      'coverage/**',
      '.tmp/**',
      'scripts/flaky-fixture/**',
      '**/*.gen.*',
      '**/*.generated.*',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // the catalogue and the contract use `any` on purpose where a resource's shape is data-driven
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  // A committed `.only` cuts a run to one test, green; a `.skip` (or a test skipped on a condition) drops a test without a
  // word. Neither may be committed in a test file: a test that cannot run here is fixed or removed (vitest and
  // Playwright also refuse `.only` in CI).
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', 'e2e/**/*.ts', 'model-tests/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[object.name=/^(it|test|describe|suite|bench)$/][property.name=/^(only|skip|skipIf|runIf|fixme|todo)$/]',
          message: 'No .only, .skip, .skipIf, .runIf, .fixme or .todo in a committed test: every test runs, every time.',
        },
        {
          selector: 'MemberExpression[object.property.name=/^(describe|concurrent|sequential|each)$/][property.name=/^(only|skip|skipIf|runIf|fixme|todo)$/]',
          message: 'No .only, .skip, .skipIf, .runIf, .fixme or .todo in a committed test: every test runs, every time.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic hooks rules only. The plugin's React Compiler rules (refs, purity, set-state-in-effect, use-memo,
    // immutability, ...) are left out: the console is not built with the compiler, they flag 31 deliberate patterns
    // (refs read in render, Date.now() in render, setState on a prop change in an effect), and they double lint time.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
