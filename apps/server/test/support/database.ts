import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase, openPostgres } from '../../src/db/client';
import { takeEmbeddedDatabase } from './embedded-databases';

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
  if (!databaseUrl) return takeEmbeddedDatabase();
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

/**
 * Puts a migrated embedded database into the data folder `dataDir` (made if missing), as a server
 * leaves it after its first start, for the tests that open one there or run a command on it: a
 * copy of one made once a run, since making it (PostgreSQL's initdb in a process of its own, then
 * the migrations) takes about 10 s of processor. A test of a first start makes its own.
 */
export async function withEmbeddedDatabase(dataDir: string): Promise<string> {
  const template = inject('pgliteFolderTemplate');
  if (!existsSync(template)) {
    // Two workers may make it at once: each in a folder of its own, and the first to be done names it.
    const making = await mkdtemp(`${template}-making-`);
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: making });
    await handle.close();
    await rename(path.join(making, 'pglite'), template).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    await rm(making, { recursive: true, force: true });
  }
  await mkdir(dataDir, { recursive: true });
  await cp(template, path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
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
