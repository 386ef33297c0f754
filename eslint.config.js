// ESLint (flat config): typescript-eslint, React, hooks, jsx-a11y and import-x over every TypeScript and script file.
// Formatting is Prettier's (eslint-config-prettier turns off the rules it owns): `npm run lint` runs both.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'build/', 'public/build/', '**/dist/', 'bench/results/', 'test-results/', 'playwright-report/', 'data/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `typeof import('…')` stays allowed: tests import route modules after setting the environment.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // One import statement per module, in one order (builtins, packages, our workspace packages and `~/`,
    // then relative), alphabetical within each group. Both rules fix themselves (`npm run format`).
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: {
      // A type and a value from one module share a statement (`import { json, type Foo }`), as
      // consistent-type-imports writes them.
      'import-x/no-duplicates': ['error', { 'prefer-inline': true }],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          pathGroups: [
            { pattern: '@custom-room/**', group: 'internal', position: 'before' },
            { pattern: '~/**', group: 'internal' },
          ],
          pathGroupsExcludedImportTypes: ['builtin'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { react, 'react-hooks': reactHooks },
    languageOptions: {
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: 'detect' } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat['jsx-runtime'].rules,
      'react/prop-types': 'off', // TypeScript checks props
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['app/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['app/**/*.tsx'],
    rules: {
      // A scrolling table is a labelled region that keyboards must reach (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
      // Radio labels hold their text two spans deep.
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  // The service worker (decision 044) runs in the browser's worker scope.
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  {
    // Code passed to page.evaluate() runs in the browser; Playwright fixtures destructure `{}` by design.
    files: ['scripts/**', 'tests/e2e/**', 'tests/cluster/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // JSON answers read by tests, and migrations, which see the schema as it was at each step, are untyped on purpose.
    files: ['tests/**', 'gateway/src/db/migrations.ts', 'gateway/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
