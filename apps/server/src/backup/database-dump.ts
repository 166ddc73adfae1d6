import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, type Queryable, type Transaction, migrateInTransaction } from '../db/client';
import { MIGRATIONS_FOLDER } from '../paths';
import { type BackupManifest, BackupFileError, type BackupSink, type DumpSummary } from './backup-file';

/*
 * The database as a logical dump that restores on PGlite and PostgreSQL alike: each table of the
 * migrations' schema (`public`) as its rows in JSON (`row_to_json`, exact for every column type:
 * floats print their shortest exact form, timestamps to the microsecond), and the sequences'
 * values. A restore migrates an empty database to the backup's migration, loads the rows, then
 * migrates forward: a backup from an older version comes back on the current one.
 *
 * Lines of the payload:
 *   F <name> <base64>        a file of the data folder
 *   T <table>                the rows that follow belong to this table
 *   R <row as JSON>
 *   S <sequence> <value>     a sequence's last value
 */

type Journal = { entries: { idx: number; when: number; tag: string }[] };

async function readJournal(folder: string): Promise<Journal> {
  return JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** Rows fetched from the cursor at a time. */
const FETCH_ROWS = 2000;
/** Rows loaded in one statement (and at most about this many bytes of JSON). */
const LOAD_ROWS = 2000;
const LOAD_BYTES = 4 * 1024 * 1024;

async function rowsOf<T>(db: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function publicTables(db: Queryable): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    // A partitioned table (telemetry) is dumped whole through its parent, never a partition again.
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and not (select relispartition from pg_class where oid = quote_ident(table_name)::regclass)
        order by table_name`,
  );
  return rows.map((row) => row.name);
}

/** The last migration applied to this database, as the journal names it. */
async function appliedMigration(db: Queryable): Promise<BackupManifest['migration']> {
  const [latest] = await rowsOf<{ created_at: string }>(
    db,
    sql`select created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  );
  const journal = await readJournal(MIGRATIONS_FOLDER);
  const entry = journal.entries.find((candidate) => String(candidate.when) === latest?.created_at);
  if (!entry) throw new BackupFileError('backup_database_ahead');
  return { index: entry.idx, tag: entry.tag };
}

/**
 * Writes the whole database to the sink from one snapshot: a REPEATABLE READ, read-only
 * transaction sees every table as of one moment while writers go on (on PostgreSQL; PGlite
 * is one connection, so its writers wait for the dump and then catch up).
 */
export async function dumpDatabase(
  handle: DatabaseHandle,
  sink: BackupSink,
  options: { productVersion: string; files: { name: string; content: Buffer }[] },
): Promise<DumpSummary> {
  for (const file of options.files) await sink.line(`F ${file.name} ${file.content.toString('base64')}`);
  return handle.db.transaction(
    async (tx) => {
      const migration = await appliedMigration(tx);
      const tables: Record<string, number> = {};
      for (const table of await publicTables(tx)) {
        await sink.line(`T ${table}`);
        tables[table] = await dumpTable(tx, table, sink);
      }
      const sequences = await rowsOf<{ name: string; value: string | null }>(
        tx,
        sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
      );
      for (const sequence of sequences) {
        if (sequence.value !== null) await sink.line(`S ${sequence.name} ${sequence.value}`);
      }
      // The manifest names how many machines the backup holds, for whoever picks one to restore.
      const [machines] = await rowsOf<{ count: number }>(tx, sql`select count(*)::int as count from sprinklers`);
      return {
        productVersion: options.productVersion,
        migration,
        takenAt: new Date().toISOString(),
        database: handle.kind,
        machineCount: machines?.count ?? 0,
        tables,
        files: options.files.map((file) => file.name),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

async function dumpTable(tx: Transaction, table: string, sink: BackupSink): Promise<number> {
  const cursor = `backup_${table}`;
  await tx.execute(
    sql`declare ${sql.identifier(cursor)} no scroll cursor for select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
  );
  let count = 0;
  for (;;) {
    const rows = await rowsOf<{ row: string }>(tx, sql.raw(`fetch ${FETCH_ROWS} from "${cursor}"`));
    for (const { row } of rows) await sink.line(`R ${row}`);
    count += rows.length;
    if (rows.length < FETCH_ROWS) break;
  }
  await tx.execute(sql`close ${sql.identifier(cursor)}`);
  return count;
}

/** Rows in the migrations' tables: a target with any is not empty. */
export async function countRows(db: Queryable): Promise<number> {
  let total = 0;
  for (const table of await publicTables(db)) {
    const [row] = await rowsOf<{ count: number }>(db, sql`select count(*)::int as count from ${sql.identifier(table)}`);
    total += row?.count ?? 0;
  }
  return total;
}

/** A copy of the migrations up to and including `index`, as the backup's version shipped them. */
async function migrationsUpTo({ index, tag }: BackupManifest['migration']): Promise<string> {
  const journal = await readJournal(MIGRATIONS_FOLDER);
  if (journal.entries[index]?.tag !== tag) {
    throw new BackupFileError('backup_from_newer_version', { migration: tag });
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-restore-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  await writeFile(
    path.join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, index + 1) }),
  );
  return folder;
}

/** Removes every table, function and migration record, leaving an empty database to restore into. */
async function emptyDatabase(db: Queryable): Promise<void> {
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`drop schema if exists public cascade`);
  await db.execute(sql`create schema public`);
}

type DumpLine =
  | { kind: 'file'; name: string; content: Buffer }
  | { kind: 'table'; table: string }
  | { kind: 'row'; row: string }
  | { kind: 'sequence'; name: string; value: string };

const unreadableLine = () => new BackupFileError('backup_line_unreadable');

/** One line of the payload; undefined for an empty one. */
function parseDumpLine(line: string): DumpLine | undefined {
  const kind = line.slice(0, 2);
  const rest = line.slice(2);
  if (kind === 'R ') return { kind: 'row', row: rest };
  if (kind === 'T ') return { kind: 'table', table: rest };
  if (kind === 'S ') {
    const [name = '', value = ''] = rest.split(' ');
    if (!/^-?\d{1,19}$/.test(value)) throw unreadableLine();
    return { kind: 'sequence', name, value };
  }
  if (kind === 'F ') {
    const [name = '', content = ''] = rest.split(' ');
    return { kind: 'file', name, content: Buffer.from(content, 'base64') };
  }
  if (line !== '') throw unreadableLine();
  return undefined;
}

/** The columns each table's rows name, as the dump holds them (tables without rows are absent). */
export type DumpColumns = Map<string, string[]>;

/**
 * Reads a backup's whole payload before anything is restored: every line must be one this version
 * reads, every row a JSON object under a table the manifest names, with the same columns as the
 * table's other rows, and the rows of each table and the files as many as the manifest says.
 * Reading it to its end also checks GCM's tag and gzip's end. Returns each table's columns, which
 * the restore checks against the schema it migrates to.
 */
export async function checkDump(manifest: BackupManifest, lines: AsyncIterable<string>): Promise<DumpColumns> {
  const rows = new Map<string, number>();
  const columns: DumpColumns = new Map();
  const files: string[] = [];
  let table: string | undefined;
  let tableColumns: string | undefined;
  for await (const line of lines) {
    const parsed = parseDumpLine(line);
    if (parsed?.kind === 'table') {
      if (rows.has(parsed.table) || !Object.hasOwn(manifest.tables, parsed.table))
        throw new BackupFileError('backup_unexpected_table', { table: parsed.table });
      table = parsed.table;
      tableColumns = undefined;
      rows.set(table, 0);
    } else if (parsed?.kind === 'row') {
      if (!table) throw unreadableLine();
      const names = columnsOf(parsed.row).join(',');
      tableColumns ??= names;
      if (names !== tableColumns) throw unreadableLine();
      if (!columns.has(table)) columns.set(table, names.split(','));
      rows.set(table, (rows.get(table) ?? 0) + 1);
    } else if (parsed?.kind === 'file') {
      files.push(parsed.name);
    }
  }
  for (const [name, count] of Object.entries(manifest.tables)) {
    if (rows.get(name) !== count) {
      throw new BackupFileError('backup_row_count_mismatch', {
        table: name,
        rows: rows.get(name) ?? 0,
        expected: count,
      });
    }
  }
  if (files.join('\n') !== manifest.files.join('\n')) throw new BackupFileError('backup_files_mismatch');
  return columns;
}

/** A row's column names; a row that is not a JSON object is a damaged line. */
function columnsOf(row: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(row);
  } catch {
    throw unreadableLine();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unreadableLine();
  return Object.keys(value);
}

/**
 * The rows must fit the schema of the backup's migration column for column: a manifest naming
 * another migration than the rows were dumped at would otherwise load them with columns left out.
 */
async function checkColumns(tx: Transaction, columns: DumpColumns, migration: string): Promise<void> {
  for (const [table, names] of columns) {
    const schema = await rowsOf<{ name: string }>(
      tx,
      sql`select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ${table}`,
    );
    const expected = schema.map((column) => column.name).sort();
    if (expected.join(',') !== [...names].sort().join(',')) {
      throw new BackupFileError('backup_columns_mismatch', { table, migration });
    }
  }
}

/**
 * Loads a backup's lines into the database in one transaction, so a failure half way leaves the
 * database as it was: empties it, migrates it to the backup's migration, checks that the rows'
 * columns (from checkDump) are its tables' columns, loads every row and sequence (triggers and
 * foreign-key checks off meanwhile: the rows are as they were, in whatever order they come), then
 * migrates to this version. Returns the data folder's files the backup held.
 */
export async function restoreDatabase(
  handle: DatabaseHandle,
  manifest: BackupManifest,
  columns: DumpColumns,
  lines: AsyncIterable<string>,
): Promise<{ name: string; content: Buffer }[]> {
  const backupMigrations = await migrationsUpTo(manifest.migration);
  const files: { name: string; content: Buffer }[] = [];
  try {
    await handle.db.transaction(async (tx) => {
      await emptyDatabase(tx);
      await migrateInTransaction(tx, backupMigrations);
      await checkColumns(tx, columns, manifest.migration.tag);
      await tx.execute(sql`set local session_replication_role = replica`);
      let table: string | undefined;
      let batch: string[] = [];
      let batchBytes = 0;
      const flush = async () => {
        if (!table || batch.length === 0) return;
        const rows = `[${batch.join(',')}]`;
        await tx.execute(
          sql`insert into ${sql.identifier(table)} select * from json_populate_recordset(null::${sql.identifier(table)}, ${rows}::json)`,
        );
        batch = [];
        batchBytes = 0;
      };
      for await (const line of lines) {
        const parsed = parseDumpLine(line);
        if (parsed?.kind === 'row') {
          batch.push(parsed.row);
          batchBytes += parsed.row.length;
          if (batch.length >= LOAD_ROWS || batchBytes >= LOAD_BYTES) await flush();
        } else if (parsed?.kind === 'table') {
          await flush();
          table = parsed.table;
        } else if (parsed?.kind === 'sequence') {
          await flush();
          await tx.execute(
            sql`select setval(${`public.${quoteIdentifier(parsed.name)}`}::regclass, ${parsed.value}::bigint, true)`,
          );
        } else if (parsed?.kind === 'file') {
          files.push({ name: parsed.name, content: parsed.content });
        }
      }
      await flush();
      // The migrations forward run as every migration does, with triggers and checks on.
      await tx.execute(sql`set local session_replication_role = origin`);
      await migrateInTransaction(tx, MIGRATIONS_FOLDER);
    });
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError('restore_failed_and_undone', { cause: firstLine(error) });
  } finally {
    await rm(backupMigrations, { recursive: true, force: true });
  }
  return files;
}

/** The database's own words for a failure: drizzle wraps them in "Failed query: …" with the SQL. */
function firstLine(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).split('\n')[0] ?? '';
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
