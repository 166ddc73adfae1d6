import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openPglite, openPostgres } from '../../src/db/client';

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database for one test file: PostgreSQL at DATABASE_URL when it is set
 * (a copy of the template database), the embedded PGlite otherwise.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const image = await readFile(inject('pgliteTemplatePath'));
    return openPglite(new PGlite({ loadDataDir: new Blob([image]) }));
  }
  const name = `pivot_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('postgresTemplateDatabase')}`);
  await admin.end();
  const handle = await openPostgres(withDatabaseName(databaseUrl, name));
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropDatabaseOnceClosed(databaseUrl, name);
    },
  };
}

/** pool.end() returns before the server has seen every connection go; drop only once it has. */
async function dropDatabaseOnceClosed(databaseUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const { rows } = await admin.query<{ open: number }>(
        'select count(*)::int as open from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]?.open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
