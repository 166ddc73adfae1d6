import { bigint, boolean, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Backups taken and restored: the admin panel shows the newest taken, and a restore is written
 * to the activity log when the restored server first starts (`logged`).
 */
export const backupHistory = pgTable('backup_history', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: ['taken', 'restored'] }).notNull(),
  /** How it was taken or restored: downloaded from the admin panel, by command, on schedule. */
  origin: text('origin', { enum: ['download', 'command', 'schedule'] }).notNull(),
  at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  /** When the backup was taken (for a restore: the moment the data came back to). */
  backupTakenAt: timestamp('backup_taken_at', { withTimezone: true, precision: 3 }).notNull(),
  /** The version that made the backup, and its last migration. */
  backupVersion: text('backup_version').notNull(),
  logged: boolean('logged').notNull().default(false),
});

export type BackupHistoryRow = typeof backupHistory.$inferSelect;
