import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { RepeatingJob } from '../../time/repeating-job';
import type { BackupWarnings } from './backup-warnings';
import { type BackupsService, backupFileName } from './backups.service';

/** How often the schedule is looked at: a backup is due at most this late. */
const LOOK_EVERY_MS = 60_000;
/** The names scheduled backups are written under (backupFileName), and only those are pruned. */
const SCHEDULED_NAME = /^pivot-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.pivotbackup$/;

export type BackupSchedule = { dir: string; everyMs: number; keep: number };

/** When a backup file of the folder was taken, read from its name; undefined for any other file. */
function takenAtOf(name: string): number | undefined {
  const match = SCHEDULED_NAME.exec(name);
  return match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) : undefined;
}

/**
 * Backups on a schedule (BACKUP_DIR, BACKUP_SCHEDULE, BACKUP_KEEP): once a minute it looks at the
 * folder, takes a backup when the newest is older than the interval, and deletes all but the
 * newest `keep`. The folder is the record, so a restarted server goes on where it was. A failed
 * backup, or a newest backup older than two days, warns the administrators (BackupWarnings).
 */
export class ScheduledBackups {
  private readonly job: RepeatingJob<number>;

  constructor(
    private readonly deps: {
      backups: BackupsService;
      schedule: BackupSchedule;
      warnings: BackupWarnings;
      logger: FastifyBaseLogger;
    },
  ) {
    this.job = new RepeatingJob<number>((now = Date.now()) => this.look(now), {
      everyMs: LOOK_EVERY_MS,
      onError: (error) => deps.logger.error({ err: error, dir: deps.schedule.dir }, 'the scheduled backup failed'),
    });
  }

  start(): void {
    this.job.start();
    void this.job.runNow().catch(() => undefined);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Looks once (now: for tests, the moment to look at). */
  runNow(now?: number): Promise<void> {
    return this.job.runNow(now);
  }

  /**
   * Takes the backup when due, then asks whether the newest is overdue: after it, so a server
   * that was stopped for days and backs up at start raises no warning the backup already ends.
   */
  private async look(now: number): Promise<void> {
    const { warnings, logger } = this.deps;
    try {
      await this.backUpIfDue(now);
    } finally {
      await warnings
        .checkOverdue(now)
        .catch((error: unknown) => logger.error({ err: error }, 'checking whether the backup is overdue failed'));
    }
  }

  private async backUpIfDue(now: number): Promise<void> {
    const { backups, schedule, warnings, logger } = this.deps;
    const newest = Math.max(-Infinity, ...(await this.backupsInFolder()).map((backup) => backup.takenAt));
    if (now - newest < schedule.everyMs) return;
    const target = path.join(schedule.dir, backupFileName(new Date(now)));
    const manifest = await backups.take(target, 'schedule').catch(async (error: unknown) => {
      // The backup's own error is what the job logs; a failure to warn is logged beside it.
      await warnings
        .backupFailed(error)
        .catch((warnError: unknown) => logger.error({ err: warnError }, 'warning of a failed backup failed'));
      throw error;
    });
    logger.info({ file: target, machines: manifest.machineCount }, 'scheduled backup written');
    const surplus = (await this.backupsInFolder()).slice(schedule.keep);
    for (const old of surplus) await rm(path.join(schedule.dir, old.name), { force: true });
  }

  /** The scheduled backups in the folder, newest first. */
  private async backupsInFolder(): Promise<{ name: string; takenAt: number }[]> {
    const names = await readdir(this.deps.schedule.dir).catch(() => [] as string[]);
    return names
      .map((name) => ({ name, takenAt: takenAtOf(name) }))
      .filter((entry): entry is { name: string; takenAt: number } => entry.takenAt !== undefined)
      .sort((a, b) => b.takenAt - a.takenAt);
  }
}
