import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from './client';

/**
 * Runs work that one process at a time may do on a database shared by several instances (and
 * the commands run beside them). On PostgreSQL a transaction holds the advisory lock `lockKey`
 * while `work` runs on other connections, so a kill releases it with the connection. PGlite is
 * one process's database, whose runs their caller keeps apart. With `wait`, the work waits for
 * its turn; without, it is not done and the answer is 'busy'.
 */
export async function oneProcessAtATime<T>(
  database: Pick<DatabaseHandle, 'db' | 'kind'>,
  lockKey: number,
  work: () => Promise<T>,
  options: { wait: true },
): Promise<T>;
export async function oneProcessAtATime<T>(
  database: Pick<DatabaseHandle, 'db' | 'kind'>,
  lockKey: number,
  work: () => Promise<T>,
): Promise<T | 'busy'>;
export async function oneProcessAtATime<T>(
  { db, kind }: { db: Database; kind: DatabaseHandle['kind'] },
  lockKey: number,
  work: () => Promise<T>,
  options?: { wait: true },
): Promise<T | 'busy'> {
  if (kind === 'pglite') return work();
  return db.transaction(async (tx) => {
    if (options?.wait) {
      await tx.execute(sql`select pg_advisory_xact_lock(${lockKey})`);
      return work();
    }
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${lockKey}) as locked`);
    // node-postgres answers with the rows under `rows`.
    const [row] = (result as { rows: { locked: boolean }[] }).rows;
    return row?.locked === true ? work() : 'busy';
  });
}
