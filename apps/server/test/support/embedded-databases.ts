import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { inject } from 'vitest';
import { type DatabaseHandle, openPglite } from '../../src/db/client';

/**
 * The embedded databases of one test worker. A file's database, once closed, goes back to the
 * state of the migrated template and serves the next file of the worker (the files of a worker
 * share its modules: apps/server/vitest.config.ts). A new PGlite from the template's image costs
 * about 1.8 s of processor; putting a used one back 0.1–0.2 s (docs/benchmarks.md,
 * "2 December, evening").
 */

/**
 * What a new database holds: its relations by name, its tables (all empty), where its sequences
 * stand, and its journal of migrations (the only rows it has).
 */
type TemplateState = {
  relations: Set<string>;
  tables: string[];
  sequences: { name: string; value: string; called: boolean }[];
  journal: { lastId: number; digest: string };
};

/** Every table, partition, view and sequence outside PostgreSQL's own schemas and drizzle's journal. */
const RELATIONS = `
  select format('%I.%I', n.nspname, c.relname) as name, c.relkind as kind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'S')
    and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle')
    and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'`;

const DROP_KIND: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  S: 'sequence',
};

let template: Promise<TemplateState> | undefined;
/** Closed by their files, to be put back before they serve the next. */
const closed: PGlite[] = [];

/** A migrated embedded database as the template left it, for one test file. */
export async function takeEmbeddedDatabase(): Promise<DatabaseHandle> {
  const state = await (template ??= newDatabase().then(async (client) => {
    const captured = await captureState(client);
    closed.push(client);
    return captured;
  }));
  let client = closed.pop();
  if (client && !(await backToTemplate(client, state))) {
    await client.close().catch(() => undefined);
    client = undefined;
  }
  return handleFor(client ?? (await newDatabase()));
}

/** An embedded database before any migration, for a test of the migrations. */
export function unmigratedPglite(): PGlite {
  return new PGlite({ loadDataDir: new Blob([readFileSync(inject('pgliteEmptyImagePath'))]) });
}

async function newDatabase(): Promise<PGlite> {
  const image = await readFile(inject('pgliteTemplatePath'));
  const client = new PGlite({ loadDataDir: new Blob([image]) });
  // The image is migrated: this only checks it, as a server's start does.
  await openPglite(client);
  return client;
}

async function captureState(client: PGlite): Promise<TemplateState> {
  const relations = await client.query<{ name: string; kind: string }>(RELATIONS);
  const sequences = await client.query<{ name: string; value: string; called: boolean }>(`
    select format('%I.%I', schemaname, sequencename) as name,
      coalesce(last_value, start_value)::text as value, last_value is not null as called
    from pg_sequences where schemaname not in ('pg_catalog', 'information_schema')`);
  const tables = relations.rows.filter((row) => row.kind === 'r' || row.kind === 'p').map((row) => row.name);
  const withRows = await client.query<{ name: string }>(
    tables.map((table) => `select '${table}' as name from ${table} having count(*) > 0`).join(' union all '),
  );
  if (withRows.rows.length > 0) {
    // Emptying the tables would then lose what the migrations put there.
    throw new Error(`the template's tables hold rows (${withRows.rows.map((row) => row.name).join(', ')})`);
  }
  const journal = await journalOf(client);
  return { relations: new Set(relations.rows.map((row) => row.name)), tables, sequences: sequences.rows, journal };
}

/** The migrations' journal, which a test may write to (a migration of a newer version). */
async function journalOf(client: PGlite | Transaction): Promise<{ lastId: number; digest: string }> {
  const { rows } = await client.query<{ lastId: number; digest: string }>(`
    select coalesce(max(id), 0)::int as "lastId", md5(coalesce(string_agg(j::text, ',' order by id), '')) as digest
    from drizzle.__drizzle_migrations j`);
  return rows[0]!;
}

/**
 * Empties a used database and drops what its file made (day partitions): false when it lost
 * something of the template's, or would not be put back, and a new one is needed instead.
 */
async function backToTemplate(client: PGlite, state: TemplateState): Promise<boolean> {
  try {
    const present = await client.query<{ name: string; kind: string }>(RELATIONS);
    if (present.rows.filter((row) => state.relations.has(row.name)).length !== state.relations.size) return false;
    const made = present.rows.filter((row) => !state.relations.has(row.name));
    return await client.transaction(async (tx) => {
      await tx.query('delete from drizzle.__drizzle_migrations where id > $1', [state.journal.lastId]);
      if ((await journalOf(tx)).digest !== state.journal.digest) return false;
      for (const relation of made) await tx.exec(`drop ${DROP_KIND[relation.kind]} if exists ${relation.name} cascade`);
      await tx.exec(`truncate ${state.tables.join(', ')} cascade`);
      await tx.query(
        'select setval(name::regclass, value, called) from unnest($1::text[], $2::bigint[], $3::bool[]) as s(name, value, called)',
        [
          state.sequences.map((sequence) => sequence.name),
          state.sequences.map((sequence) => sequence.value),
          state.sequences.map((sequence) => sequence.called),
        ],
      );
      return true;
    });
  } catch {
    return false;
  }
}

/**
 * The file's handle on a worker's database. Once the file closed it, its queries fail as on a
 * closed PGlite: whatever of the file still runs must not write into the next file's database.
 */
function handleFor(client: PGlite): DatabaseHandle {
  let open = true;
  const guarded = new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (!open && (key === 'query' || key === 'exec' || key === 'transaction' || key === 'sql')) {
        return () => Promise.reject(new Error('PGlite is closed'));
      }
      return value.bind(target);
    },
  });
  const db = drizzle(guarded, { casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }).then(() => undefined),
    close: async () => {
      if (!open) return;
      open = false;
      closed.push(client);
    },
  };
}
