import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import unicorn from 'eslint-plugin-unicorn';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Props and attributes whose text a user reads or hears. */
const VISIBLE_TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'alt',
  'title',
  'placeholder',
  'label',
  'message',
  'description',
  'header',
  'emptyMessage',
]);
const HAS_LETTER = /\p{L}/u;

/** Every word a user sees comes from the i18n catalogues, never from a literal in a component. */
const noLiteralText = {
  meta: {
    type: 'problem',
    messages: { literal: 'User-visible text "{{text}}" must come from the i18n catalogues (t(…)).' },
    schema: [],
  },
  create(context) {
    const check = (node, text) => {
      if (typeof text === 'string' && HAS_LETTER.test(text)) {
        context.report({ node, messageId: 'literal', data: { text: text.trim().slice(0, 40) } });
      }
    };
    const checkExpression = (expression) => {
      if (expression.type === 'Literal') check(expression, expression.value);
      if (expression.type === 'TemplateLiteral') {
        for (const quasi of expression.quasis) check(quasi, quasi.value.cooked);
      }
    };
    return {
      JSXText: (node) => check(node, node.value),
      'JSXElement > JSXExpressionContainer': (node) => checkExpression(node.expression),
      'JSXFragment > JSXExpressionContainer': (node) => checkExpression(node.expression),
      JSXAttribute(node) {
        if (!VISIBLE_TEXT_ATTRIBUTES.has(node.name.name) || !node.value) return;
        if (node.value.type === 'Literal') check(node.value, node.value.value);
        if (node.value.type === 'JSXExpressionContainer') checkExpression(node.value.expression);
      },
    };
  },
};

/** The web app's features: each may use the shared layers (ui, lib, config, i18n) and itself only. */
const WEB_FEATURES = ['auth', 'account', 'activity', 'admin', 'sprinklers', 'programs'];
const RELATIVE_ESCAPE = {
  regex: '^\\.\\./\\.\\./',
  message: 'Import from another folder through "@/…"; relative paths stay within a folder and its neighbours.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      // Code that breaks a lint rule on purpose; scripts/test lints it to prove the rule fires.
      'scripts/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.stylistic,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { unicorn, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'],
        }),
      ],
    },
    rules: {
      // A cycle hides which part is built on which; type-only imports count too, since they couple the same way.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Types and interfaces serve alike; rows returned by INSERT … RETURNING are known to exist.
      '@typescript-eslint/consistent-type-definitions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, pivot: { rules: { 'no-literal-text': noLiteralText } } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      'pivot/no-literal-text': 'error',
    },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    files: ['e2e/browser/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'pivot/no-literal-text': 'off' },
  },
  {
    files: ['packages/contracts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@pivot/(?!contracts$)|(^|/)apps/',
              message: 'The contracts are what the apps share: they import nothing of the apps.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{ui,lib,config,i18n}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@/(features|app)(/|$)',
              message: 'Shared code (ui, lib, config, i18n) never depends on features or the app.',
            },
            RELATIVE_ESCAPE,
          ],
        },
      ],
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${feature}/)`,
              message: 'Features never import each other: move what they share to ui, lib or config.',
            },
            { regex: '^@/app(/|$)', message: 'The app composes the features, not the other way round.' },
            RELATIVE_ESCAPE,
          ],
        },
      ],
    },
  })),
);
