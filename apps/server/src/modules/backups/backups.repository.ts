import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type BackupHistoryRow, backupHistory } from './backups.table';

export type NewBackupRecord = Pick<
  BackupHistoryRow,
  'kind' | 'origin' | 'sizeBytes' | 'backupTakenAt' | 'backupVersion'
>;

export async function insertBackupRecord(db: Queryable, record: NewBackupRecord): Promise<void> {
  await db.insert(backupHistory).values(record);
}

export async function findLatestTaken(db: Queryable): Promise<BackupHistoryRow | undefined> {
  const [row] = await db
    .select()
    .from(backupHistory)
    .where(eq(backupHistory.kind, 'taken'))
    .orderBy(desc(backupHistory.at))
    .limit(1);
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
