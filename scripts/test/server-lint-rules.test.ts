import { describe, expect, it } from 'vitest';
import { brokenRules } from './lint';

const RESTRICTED = 'no-restricted-imports';
const lintAt = (file: string, source: string) => brokenRules(file, `${source}\nexport const used = imported;\n`);

describe("the server's walls", () => {
  it('lets a module use another only through its front door', async () => {
    const file = 'apps/server/src/modules/programs/example.ts';
    expect(await lintAt(file, "import { loggedMachine as imported } from '../sprinklers';")).not.toContain(RESTRICTED);
    expect(
      await lintAt(file, "import { findSprinkler as imported } from '../sprinklers/sprinklers.repository';"),
    ).toContain(RESTRICTED);
    expect(await lintAt(file, "import { sprinklers as imported } from '../sprinklers/sprinklers.table';")).toContain(
      RESTRICTED,
    );
    expect(
      await lintAt(file, "import { sprinklersRoutes as imported } from '../sprinklers/sprinklers.routes';"),
    ).toContain(RESTRICTED);
  });

  it("lets a module use its own files and the server's core", async () => {
    const file = 'apps/server/src/modules/programs/example.ts';
    expect(await lintAt(file, "import { listPrograms as imported } from './programs.repository';")).not.toContain(
      RESTRICTED,
    );
    expect(await lintAt(file, "import { AppError as imported } from '../../errors';")).not.toContain(RESTRICTED);
  });

  it("lets a table point a foreign key at another module's table, and at nothing else of it", async () => {
    const file = 'apps/server/src/modules/programs/programs.table.ts';
    expect(
      await lintAt(file, "import { sprinklers as imported } from '../sprinklers/sprinklers.table';"),
    ).not.toContain(RESTRICTED);
    expect(
      await lintAt(file, "import { findSprinkler as imported } from '../sprinklers/sprinklers.repository';"),
    ).toContain(RESTRICTED);
  });

  it("keeps every table behind its module's door, while the door may name a row's type", async () => {
    const door = 'apps/server/src/modules/sprinklers/index.ts';
    for (const handsOutTable of [
      "export { sprinklers } from './sprinklers.table';",
      "export { type SprinklerRow, sprinklers } from './sprinklers.table';",
      "export { sprinklers as machines } from './sprinklers.table';",
      "export * from './sprinklers.table';",
      "import { sprinklers } from './sprinklers.table';\nexport { sprinklers };",
      "import * as tables from './sprinklers.table';\nexport const machines = tables.sprinklers;",
    ]) {
      expect(await brokenRules(door, handsOutTable), handsOutTable).toContain('no-restricted-syntax');
    }
    for (const typeOnly of [
      "export type { SprinklerRow } from './sprinklers.table';",
      "export { type SprinklerRow } from './sprinklers.table';",
    ]) {
      expect(await brokenRules(door, typeOnly), typeOnly).not.toContain('no-restricted-syntax');
    }
    // The same export outside a door: a module's own files use its tables.
    expect(
      await brokenRules(
        'apps/server/src/modules/sprinklers/example.ts',
        "export { sprinklers } from './sprinklers.table';",
      ),
    ).not.toContain('no-restricted-syntax');
  });

  it('keeps a module from reaching for the app that composes it', async () => {
    expect(
      await lintAt('apps/server/src/modules/logs/example.ts', "import { buildApp as imported } from '../../app';"),
    ).toContain(RESTRICTED);
  });

  it('keeps the core free of the modules', async () => {
    for (const file of [
      'apps/server/src/db/example.ts',
      'apps/server/src/plugins/example.ts',
      'apps/server/src/errors.ts',
    ]) {
      const fromCore = file.split('/').length === 4 ? './modules/users' : '../modules/users';
      expect(await lintAt(file, `import { usersModule as imported } from '${fromCore}';`), file).toContain(RESTRICTED);
    }
  });

  it('refuses an API path typed by hand where the endpoints are declared in the contracts', async () => {
    const RULE = 'endpoints/no-hand-typed-path';
    const routes = 'apps/server/src/modules/webhooks/webhooks.routes.ts';
    for (const handTyped of [
      "app.get('/account/webhooks/', async () => []);",
      'app.delete(`/admin/webhooks/${"x"}/`, async () => null);',
      "app.route({ method: 'GET', url: '/account/webhooks/', handler: async () => [] });",
    ]) {
      expect(await brokenRules(routes, `declare const app: any;\n${handTyped}\n`), handTyped).toContain(RULE);
    }
    const declared =
      "import { webhooksEndpoints } from '@pivot/contracts';\nimport { endpointRoute } from '../../http/endpoint-route';\ndeclare const app: any;\nendpointRoute(app, webhooksEndpoints.account.list, {}, async () => []);\n";
    expect(await brokenRules(routes, declared)).not.toContain(RULE);
    // Every module's routes, a new one's too.
    expect(
      await brokenRules(
        'apps/server/src/modules/programs/a-new.routes.ts',
        "declare const app: any;\napp.get('/x/', async () => []);\n",
      ),
    ).toContain(RULE);
    // The machines' own routes as well, the last to move onto declarations.
    expect(
      await brokenRules(
        'apps/server/src/modules/sprinklers/sprinklers.routes.ts',
        "declare const app: any;\napp.get('/sprinkler/', async () => []);\n",
      ),
    ).toContain(RULE);
    expect(
      await brokenRules(
        'apps/server/src/modules/sprinklers/live.routes.ts',
        "declare const app: any;\napp.get('/sprinkler/:id/events', async () => null);\n",
      ),
    ).toContain(RULE);
  });
});

describe("the libraries of the server's rare calls", () => {
  const SYNTAX = 'no-restricted-syntax';

  it.each([
    [
      'apps/server/src/modules/users/passkeys.service.ts',
      "import { verifyRegistrationResponse as imported } from '@simplewebauthn/server';",
    ],
    [
      'apps/server/src/modules/users/passkeys.service.ts',
      "import { isoBase64URL as imported } from '@simplewebauthn/server/helpers';",
    ],
    ['apps/server/src/modules/mail/mail-transport.ts', "import imported from 'nodemailer';"],
    ['apps/server/src/modules/alerts/push-sender.ts', "import imported from 'web-push';"],
    ['apps/server/src/modules/programs/prescription-file.ts', "import { parseShp as imported } from 'shpjs';"],
    ['apps/server/src/modules/programs/prescription-file.ts', "import imported from 'proj4';"],
    ['apps/server/src/db/client.ts', "import imported from 'pg';"],
    ['apps/server/src/modules/as-applied/index.ts', "import * as imported from 'isoxml';"],
  ])('are not loaded with the server: %s may not import statically: %s', async (file, source) => {
    expect(await lintAt(file, source)).toContain(SYNTAX);
  });

  it('may be named for their types, and loaded where they are used', async () => {
    const file = 'apps/server/src/modules/mail/mail-transport.ts';
    expect(await lintAt(file, "import type { Transporter as imported } from 'nodemailer';")).not.toContain(SYNTAX);
    expect(await lintAt(file, "const imported = await import('nodemailer');")).not.toContain(SYNTAX);
    expect(await lintAt(file, "import { z as imported } from 'zod';")).not.toContain(SYNTAX);
  });
});
