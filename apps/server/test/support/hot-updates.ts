import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../src/db/client';

/**
 * How many of a table's rows `work` updated, and how many of them in place (HOT: the new version
 * beside the old one on its page, no new index entry): this backend's counts not yet sent to the
 * statistics, read before and after within one transaction.
 */
export function countUpdates(
  db: Database,
  table: string,
  work: (tx: Transaction) => Promise<void>,
): Promise<{ updated: number; hot: number }> {
  return db.transaction(async (tx) => {
    const count = async () => {
      const result = await tx.execute(sql`
        select pg_stat_get_xact_tuples_updated(${table}::regclass)::int as updated,
               pg_stat_get_xact_tuples_hot_updated(${table}::regclass)::int as hot`);
      return (result as unknown as { rows: { updated: number; hot: number }[] }).rows[0]!;
    };
    const before = await count();
    await work(tx);
    const after = await count();
    return { updated: after.updated - before.updated, hot: after.hot - before.hot };
  });
}
