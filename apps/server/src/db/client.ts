import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgDialect, PgQueryResultHKT, PgSession, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../paths';

/**
 * The database as every module sees it. Queries name their tables through drizzle's query builder;
 * the tables live in their modules (docs/decisions/0001), so this layer knows none of them.
 */
type NoRelations = Record<string, never>;
export type Database = PgDatabase<PgQueryResultHKT, NoRelations>;
export type Transaction = PgTransaction<PgQueryResultHKT, NoRelations, ExtractTablesWithRelations<NoRelations>>;
/** Code that reads or writes works the same inside a transaction or outside one. */
export type Queryable = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Applies the migrations of a folder not applied yet (a restore applies its own inside its
   * transaction: migrateInTransaction).
   */
  migrate: (migrationsFolder: string) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * PGlite runs PostgreSQL inside this process, so its shared buffers are this process's memory:
 * 16 MB instead of PostgreSQL's 128 MB, which filled as the data was read and kept the idle server
 * far above its 200 MB budget. The operating system's file cache still holds the data files.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
/** Any number unique to this application: instances starting together take turns migrating. */
const MIGRATION_LOCK_KEY = 7_311_020_2;

/** Opens PostgreSQL at DATABASE_URL, or the embedded PGlite in DATA_DIR, and applies migrations. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  onConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onConnectionError);
  const folder = path.join(options.dataDir, 'pglite');
  await createPgliteFolder(folder);
  return openPglite(new PGlite(folder, { startParams: PGLITE_START_PARAMS }));
}

/**
 * A node process of its own creates a new PGlite folder (PostgreSQL's initdb, then its first
 * start) and ends. Done in this process, it would leave ~500 MB of WebAssembly memory touched here
 * for the server's whole life: a WebAssembly memory never shrinks, and V8 frees a closed
 * instance's only when it collects it. The server then opens the folder as an existing one.
 */
async function createPgliteFolder(folder: string): Promise<void> {
  if (existsSync(path.join(folder, 'PG_VERSION'))) return;
  await mkdir(folder, { recursive: true });
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const create = `const { PGlite } = require(process.argv[1]);
    new PGlite(process.argv[2]).close().catch((error) => { console.error(error); process.exitCode = 1; });`;
  await promisify(execFile)(process.execPath, ['-e', create, pglite, folder]);
}

export async function openPglite(client: PGlite): Promise<DatabaseHandle> {
  const db = drizzlePglite(client, { casing: 'snake_case' });
  const migrate = (migrationsFolder: string) => migratePglite(db, { migrationsFolder });
  await migrate(MIGRATIONS_FOLDER);
  return { db, kind: 'pglite', migrate, close: () => client.close() };
}

/**
 * A connection that drops while idle (a database restart, a network cut) is reported here
 * instead of crashing the process; the pool opens a new one when next needed.
 */
export async function openPostgres(
  connectionString: string,
  onConnectionError: (error: Error) => void = (error) => process.emitWarning(error),
): Promise<DatabaseHandle> {
  // The PostgreSQL client loads only here: the embedded default never needs it.
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', onConnectionError);
  const db = drizzlePg(pool, { casing: 'snake_case' });
  const migrate = async (migrationsFolder: string) => {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(db, { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      lockClient.release();
    }
  };
  await migrate(MIGRATIONS_FOLDER);
  return { db, kind: 'postgres', migrate, close: () => pool.end() };
}

/**
 * Applies a folder's migrations not applied yet inside the caller's transaction (a restore's), so
 * that they commit or roll back with the rest of its work. It is drizzle's own migrator, given the
 * transaction as its session: its transaction becomes a savepoint.
 */
export async function migrateInTransaction(tx: Transaction, migrationsFolder: string): Promise<void> {
  const session = {
    execute: (query: SQL) => tx.execute(query),
    all: async (query: SQL) => ((await tx.execute(query)) as unknown as { rows: unknown[] }).rows,
    transaction: <T>(work: (inner: Transaction) => Promise<T>) => tx.transaction(work),
  };
  const { dialect } = tx as unknown as { dialect: PgDialect };
  await dialect.migrate(readMigrationFiles({ migrationsFolder }), session as unknown as PgSession, {
    migrationsFolder,
  });
}
