// ESLint's flat config: a small rule set that catches mistakes (names never defined or never used,
// a module imported twice, unreachable code), not style (prettier owns that).
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'build/',
      'dist/',
      'dist-single/',
      'dist-course/',
      'node_modules/',
      'tests/fixtures/',
      'tests/fuzz/corpus/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
    rules: {
      'no-duplicate-imports': 'error',
      // A leading underscore marks a name kept on purpose (a destructured part left out).
      'no-unused-vars': [
        'error',
        { args: 'none', caughtErrors: 'none', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Errors rethrown with a message of their own name the cause in words; ES2022's cause is not required.
      'preserve-caught-error': 'off',
    },
  },
  {
    files: ['web/js/**/*.js', 'tests/bench/worker-canvas/**/*.js', 'tests/bench/twins/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // Browser tests and benchmarks: Node modules whose page.evaluate callbacks run in the page.
    files: ['tests/browser/**/*.mjs', 'tests/bench/**/*.mjs'],
    languageOptions: {
      globals: {
        ...globals.node,
        ...globals.browser,
        // What the tests' host pages define for their callbacks to read.
        __api: 'readonly',
        __messages: 'readonly',
        __h5p: 'readonly',
        __canvas: 'readonly',
      },
    },
  },
];
