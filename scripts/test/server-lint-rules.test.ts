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
});
