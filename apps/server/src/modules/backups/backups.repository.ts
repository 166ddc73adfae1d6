import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type BackupHistoryRow, backupHistory } from './backups.table';

export type NewBackupRecord = Pick<
  BackupHistoryRow,
  'kind' | 'origin' | 'sizeBytes' | 'backupTakenAt' | 'backupVersion'
>;

export async function insertBackupRecord(db: Queryable, record: NewBackupRecord): Promise<void> {
  await db.insert(backupHistory).values(record);
}

/**
 * The newest backup known to exist: the newest taken, or the one a restore came from (the
 * restored data cannot hold its own backup's record, which is written after the snapshot).
 */
export async function findNewestBackup(db: Queryable): Promise<BackupHistoryRow | undefined> {
  const [row] = await db.select().from(backupHistory).orderBy(desc(backupHistory.backupTakenAt)).limit(1);
  return row;
}

export function findUnloggedRestores(db: Queryable): Promise<BackupHistoryRow[]> {
  return db
    .select()
    .from(backupHistory)
    .where(and(eq(backupHistory.kind, 'restored'), eq(backupHistory.logged, false)))
    .orderBy(backupHistory.id);
}

export async function markLogged(db: Queryable, id: number): Promise<void> {
  await db.update(backupHistory).set({ logged: true }).where(eq(backupHistory.id, id));
}

/** The lock of the backup warnings: instances raise them one at a time, so each is raised once. */
const WARNINGS_LOCK_KEY = 7_301_846;

/** Holds the backup warnings' lock until this transaction ends (waits for another instance's). */
export async function lockWarnings(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${WARNINGS_LOCK_KEY})`);
}
