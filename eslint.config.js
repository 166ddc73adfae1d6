import { readdirSync } from 'node:fs';
import js from '@eslint/js';
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

/** Fastify's route methods, and the web client's calls that take a path below the API base. */
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);
const PATH_TAKERS = new Set(['route', 'apiCall', 'apiRequest', 'downloadFile', 'readEventStream', 'followEventStream']);
const startsWithSlash = (node) =>
  (node?.type === 'Literal' && typeof node.value === 'string' && node.value.startsWith('/')) ||
  (node?.type === 'TemplateLiteral' && node.quasis[0].value.cooked.startsWith('/'));

/**
 * Where endpoints are declared in the contracts (packages/contracts/src/endpoints), an API path
 * typed by hand is one that can drift from its declaration: routes register through
 * endpointRoute and the web app calls through callEndpoint, requestEndpoint or pathOf.
 */
const noHandTypedPath = {
  meta: {
    type: 'problem',
    messages: {
      handTyped:
        'An API path typed by hand: declare the endpoint in packages/contracts/src/endpoints and use its declaration (endpointRoute on the server; callEndpoint, requestEndpoint or pathOf in the web app).',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const { callee } = node;
        const name =
          callee.type === 'Identifier'
            ? callee.name
            : callee.type === 'MemberExpression' && !callee.computed
              ? callee.property.name
              : undefined;
        const [first] = node.arguments;
        // app.get('/logs/', …)
        if (callee.type === 'MemberExpression' && ROUTE_METHODS.has(name) && startsWithSlash(first)) {
          context.report({ node: first, messageId: 'handTyped' });
        }
        if (!PATH_TAKERS.has(name)) return;
        // readEventStream('/alerts/events', …)
        if (startsWithSlash(first)) context.report({ node: first, messageId: 'handTyped' });
        // apiCall({ path: '/logs/' }), app.route({ url: '/logs/' })
        for (const property of first?.type === 'ObjectExpression' ? first.properties : []) {
          const key = property.type === 'Property' && !property.computed ? property.key : undefined;
          const keyName = key?.type === 'Identifier' ? key.name : key?.value;
          if ((keyName === 'path' || keyName === 'url') && startsWithSlash(property.value)) {
            context.report({ node: property.value, messageId: 'handTyped' });
          }
        }
      },
    };
  },
};

/**
 * Every server module's routes and every web feature's API calls and live streams take their
 * paths from the contracts' declarations. A test may type a path: it checks what the declaration gives.
 */
const ENDPOINTS_DECLARED = {
  files: ['apps/server/src/modules/**/*.routes.ts', 'apps/web/src/features/**'],
  ignores: ['**/*.test.{ts,tsx}'],
};

/** The folders right below `url`: a new one is fenced as soon as it exists. */
const foldersIn = (url) =>
  readdirSync(url, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** The web app's features: each may use the shared layers (ui, lib, config, i18n) and itself only. */
const WEB_FEATURES = foldersIn(new URL('apps/web/src/features', import.meta.url));
const RELATIVE_ESCAPE = {
  regex: '^\\.\\./\\.\\./',
  message: 'Import from another folder through "@/…"; relative paths stay within a folder and its neighbours.',
};
/**
 * The web app's shared layers and what each must not import. ui and lib both sit under the
 * features but apart: ui shows but fetches nothing, lib fetches but shows nothing; the app joins them.
 */
const WEB_SHARED_LAYERS = [
  {
    folders: ['config', 'i18n'],
    forbidden: ['features', 'app'],
    message: 'Shared code (ui, lib, config, i18n) never depends on features or the app.',
  },
  {
    folders: ['ui'],
    forbidden: ['lib', 'features', 'app'],
    message: 'ui never depends on lib, features or the app: it shows what it is given, and the app wires it to lib.',
  },
  {
    folders: ['lib'],
    forbidden: ['ui', 'features', 'app'],
    message: 'lib shows nothing and never depends on ui, features or the app: it reports, and the app shows.',
  },
];

/** The server's domain modules: each meets the others only through their front doors (index.ts). */
const SERVER_MODULES = foldersIn(new URL('apps/server/src/modules', import.meta.url));
const otherModuleInternals = (module, allowed) => ({
  regex: `^\\.\\./(?!${module}/|\\.\\./)[^/]+/`,
  message: `Another module is used only through ${allowed}: its repository, tables, routes and helpers are its own.`,
});
const MODULE_LEAVES_APP = {
  regex: '^(\\.\\./)+(app|demo|main)$|^\\.\\./\\.\\./modules/',
  message: 'A module reaches other modules through "../<module>", and never the app that composes them.',
};

/**
 * A module's door (its index.ts) hands out services, functions, subqueries and types, never a
 * table: a table has one owner module, and the others ask it for what they need. A door has
 * no use for a table's value at all, so importing one is refused as well as re-exporting it.
 */
const TABLE_FILE = '[source.value=/\\.table$/]';
const DOOR_WITHOUT_TABLES = [
  `ExportNamedDeclaration[exportKind='value']${TABLE_FILE} > ExportSpecifier[exportKind='value']`,
  `ExportAllDeclaration[exportKind='value']${TABLE_FILE}`,
  `ImportDeclaration[importKind='value']${TABLE_FILE} > :matches(ImportSpecifier[importKind='value'], ImportDefaultSpecifier, ImportNamespaceSpecifier)`,
].map((selector) => ({
  selector,
  message: "A module's door never hands out a table: offer the query another module needs (a function, a subquery).",
}));

/**
 * Libraries that only rare calls use load with the first such call (`await import(…)`), not with
 * every start of the server (docs/decisions/0008: the start's time and memory on a farm's box).
 */
const LOADED_WHEN_FIRST_CALLED = ['@simplewebauthn/server', 'pg', 'proj4', 'shpjs', 'web-push', 'nodemailer', 'isoxml'];
const RARE_CALLS_LIBRARIES = {
  selector: `ImportDeclaration[importKind='value'][source.value=/^(${LOADED_WHEN_FIRST_CALLED.join('|').replaceAll('/', '\\/')})(\\/|$)/]`,
  message: 'Only rare calls use this library: load it where it is used, `await import(…)`, not with the server.',
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
    plugins: { unicorn },
    rules: {
      // Import cycles, type-only imports included, are refused by scripts/check-import-cycles.ts
      // (a static check), which reads every import once where a lint rule took half of lint's time.
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
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
      // Names come from users, machines and files: they reach the page as text, never as HTML
      // (a sector named `<img onerror=…>` must not become an element).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setTooltipContent|setPopupContent)$/]:not([arguments.0.callee.name='textTooltip'])",
          message: 'Leaflet takes a string as HTML: pass textTooltip(text) (ui/map/text-tooltip.ts).',
        },
        {
          selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
          message: 'Set textContent, or build the elements: HTML from a string can carry markup.',
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(insertAdjacentHTML|divIcon)$/], CallExpression[callee.name='divIcon']",
          message: 'HTML from a string can carry markup: build the elements and set their textContent.',
        },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render text as React children: HTML from a string can carry markup.',
        },
        // TanStack Query reads server state; its mutations' code would come with every signed-in
        // page's first code for what a plain call does (docs/web-app.md).
        {
          selector:
            "ImportDeclaration[source.value='@tanstack/react-query'] ImportSpecifier[imported.name='useMutation']",
          message: 'Call the action with useAction (lib/use-action.ts) or a state of its own, not a TanStack mutation.',
        },
      ],
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
    // The web project's files share a document and the app's modules (apps/web/vitest.config.ts):
    // modules loaded anew there would go on listening to the document beside the new ones.
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.fresh-modules.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'resetModules',
          message: 'Load modules anew only in a *.fresh-modules.test file: it gets a document and modules of its own.',
        },
      ],
    },
  },
  {
    // The server's core (database, gateway, HTTP helpers, plugins) is what the modules build on.
    files: [
      'apps/server/src/{db,gateway,http,plugins,geo,time,i18n,backup}/**',
      'apps/server/src/{config,errors,secrets,paths}.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(modules|demo)(/|$)|/app$',
              message: 'The server core never depends on the modules, the demo or the app: they build on it.',
            },
          ],
        },
      ],
    },
  },
  ...SERVER_MODULES.flatMap((module) => [
    {
      files: [`apps/server/src/modules/${module}/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [otherModuleInternals(module, 'its front door, "../<module>"'), MODULE_LEAVES_APP] },
        ],
      },
    },
    {
      // A table may point a foreign key at another module's table, and nothing more of it.
      files: [`apps/server/src/modules/${module}/*.table.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                ...otherModuleInternals(module, 'its table file'),
                regex: `^\\.\\./(?!${module}/|\\.\\./)[^/]+/(?![^/]+\\.table$)`,
              },
              MODULE_LEAVES_APP,
            ],
          },
        ],
      },
    },
  ]),
  {
    ...ENDPOINTS_DECLARED,
    plugins: { endpoints: { rules: { 'no-hand-typed-path': noHandTypedPath } } },
    rules: { 'endpoints/no-hand-typed-path': 'error' },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', RARE_CALLS_LIBRARIES] },
  },
  {
    files: ['apps/server/src/modules/*/index.ts'],
    rules: { 'no-restricted-syntax': ['error', RARE_CALLS_LIBRARIES, ...DOOR_WITHOUT_TABLES] },
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
  ...WEB_SHARED_LAYERS.map(({ folders, forbidden, message }) => ({
    files: folders.map((folder) => `apps/web/src/${folder}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // By "@/…", or by "../…" from a folder right below src (two levels up is RELATIVE_ESCAPE).
            { regex: `^(@|\\.\\.)/(${forbidden.join('|')})(/|$)`, message },
            RELATIVE_ESCAPE,
          ],
        },
      ],
    },
  })),
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
