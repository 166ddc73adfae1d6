import type { BackupStatus, Language } from '@pivot/contracts';
import { BackupFileError } from '../../backup/backup-file';
import type { Database, Queryable } from '../../db/client';
import type { LogsService } from '../logs';
import type { MailService } from '../mail';
import type { UsersService } from '../users';
import { type BackupWarningMail, backupWarningMail } from './backup-mail';
import { findNewestBackup, lockWarnings } from './backups.repository';

/** The newest backup older than this is overdue (the "older than two days"). */
export const BACKUP_OVERDUE_AFTER_MS = 2 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** How a log entry names a backup's moment (a restore's, an overdue one's): in UTC, as the log shows it written. */
export function describeMoment(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Tells the administrators when the scheduled backups need attention (docs/operations.md,
 * "Backups"): a scheduled backup that failed, or a newest backup older than two days. Each is
 * written to the activity log (which only administrators read: it names no machine nor user)
 * and mailed to every administrator, once per period: the log is the record, and a period ends
 * with the next backup taken. The check and the writing happen in one transaction under a lock,
 * so several instances raise each warning once.
 */
export class BackupWarnings {
  constructor(
    private readonly deps: {
      db: Database;
      logs: Pick<LogsService, 'record' | 'newestEntryAfter'>;
      mail: Pick<MailService, 'queue' | 'wake'>;
      users: Pick<UsersService, 'activeAdminIds' | 'findMany'>;
      folder: string;
      adminLink: string;
      productName: string;
    },
  ) {}

  /**
   * A scheduled backup failed: raised unless already raised since the newest backup taken. Each
   * administrator's mail gives the reason in their language when the product wrote it; the log
   * keeps it in English, as it keeps every server-written reason.
   */
  async backupFailed(error: unknown): Promise<void> {
    const reason = (language: Language) =>
      error instanceof BackupFileError
        ? error.messageIn(language)
        : error instanceof Error
          ? error.message
          : String(error);
    await this.raiseOnce('backup_failed', () => ({
      entry: { event: reason('en'), details: this.deps.folder },
      mail: { kind: 'failed', error: { en: reason('en'), pl: reason('pl') }, folder: this.deps.folder },
    }));
  }

  /** Raises the overdue warning when the newest backup is older than two days (none yet: not overdue). */
  async checkOverdue(now: number): Promise<void> {
    await this.raiseOnce('backup_overdue', (latestAt) => {
      if (!latestAt || now - latestAt.getTime() < BACKUP_OVERDUE_AFTER_MS) return undefined;
      const days = Math.floor((now - latestAt.getTime()) / DAY_MS);
      const lastBackup = describeMoment(latestAt);
      return {
        entry: { event: String(days), details: lastBackup },
        mail: { kind: 'overdue', days, lastBackup },
      };
    });
  }

  /** What the admin panel shows: the failure since the newest backup, else how overdue it is. */
  async current(now: number): Promise<BackupStatus['warning']> {
    const latest = await findNewestBackup(this.deps.db);
    const failed = await this.deps.logs.newestEntryAfter(this.deps.db, 'backup_failed', latest?.backupTakenAt);
    if (failed) return { kind: 'failed', error: failed.event, at: failed.createdAt.getTime() };
    if (latest && now - latest.backupTakenAt.getTime() >= BACKUP_OVERDUE_AFTER_MS) {
      return { kind: 'overdue', days: Math.floor((now - latest.backupTakenAt.getTime()) / DAY_MS) };
    }
    return null;
  }

  private async raiseOnce(
    eventType: 'backup_failed' | 'backup_overdue',
    warningOf: (
      latestAt: Date | undefined,
    ) => { entry: { event: string; details: string }; mail: BackupWarningMail } | undefined,
  ): Promise<void> {
    const { db, mail } = this.deps;
    const raised = await db.transaction(async (tx) => {
      await lockWarnings(tx);
      const latest = await findNewestBackup(tx);
      if (await this.deps.logs.newestEntryAfter(tx, eventType, latest?.backupTakenAt)) return false;
      const warning = warningOf(latest?.backupTakenAt);
      if (!warning) return false;
      await this.deps.logs.record(tx, { eventType, actorUserId: null, ip: '', ...warning.entry });
      await this.mailAdmins(tx, warning.mail);
      return true;
    });
    if (raised) mail.wake();
  }

  private async mailAdmins(tx: Queryable, warning: BackupWarningMail): Promise<void> {
    const { users, mail, adminLink, productName } = this.deps;
    for (const admin of await users.findMany(tx, await users.activeAdminIds(tx))) {
      await mail.queue(
        tx,
        backupWarningMail({ to: admin.email, language: admin.language, productName, link: adminLink, warning }),
      );
    }
  }
}
