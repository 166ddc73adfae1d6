import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BackupStatus, LogEntry, LogListResponse } from '@pivot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupFileName } from '../../src/modules/backups';
import { logEntries } from '../../src/modules/logs/logs.table';
import { ADMIN_EMAIL, type TestApp, createTestApp } from '../support/test-app';

/** The To: addresses of the outbox's mails that say this. */
function recipientsOf(mails: string[], saying: string): string[] {
  return mails
    .filter((mail) => mail.includes(saying))
    .map((mail) => /^To: (.+)$/m.exec(mail)?.[1]?.trim().toLowerCase() ?? '')
    .sort();
}

describe('backup warnings', () => {
  let root: string;
  let dir: string;
  let t: TestApp;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'pivot-backup-warnings-'));
    dir = path.join(root, 'backups');
  });
  afterEach(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  const entriesOf = (eventType: 'backup_failed' | 'backup_overdue') =>
    t.database.db.select().from(logEntries).where(eq(logEntries.eventType, eventType));
  const status = async () => (await (await t.adminClient()).get('/api/admin/backup/status/')).body as BackupStatus;

  it('raises a failed scheduled backup once for the administrators, ends it on the next success, raises it again', async () => {
    await mkdir(dir);
    t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' });
    const secondAdmin = await t.buildUser({ admin: true, email: 'second-admin@pivot.test', language: 'en' });
    const farmer = await t.signedInUser({ email: 'farmer@pivot.test' });
    const scheduled = t.app.scheduledBackups!;
    // The look as the server starts takes the first backup.
    await scheduled.runNow();
    expect(await entriesOf('backup_failed')).toHaveLength(0);

    // BACKUP_DIR now names a file: no backup can be written into it.
    const breakFolder = async () => {
      await rm(dir, { recursive: true });
      await writeFile(dir, 'not a folder');
    };
    const repairFolder = async () => {
      await rm(dir);
      await mkdir(dir);
    };
    await breakFolder();
    const now = Date.now();
    await expect(scheduled.runNow(now + 7 * 3_600_000)).rejects.toThrow();
    // Looks of a failing schedule that go on failing (the job logs each).
    const lookAt = (at: number) => scheduled.runNow(at).catch(() => undefined);
    for (const minutes of [1, 2]) await lookAt(now + 7 * 3_600_000 + minutes * 60_000);

    const failed = await entriesOf('backup_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorUserId: null, subjectUserId: null, sprinklerId: null, details: dir });
    expect(failed[0]!.event).not.toBe('');
    const mails = await t.outboxMails();
    // Each administrator once, in their own language, both naming the folder; the farmer not.
    expect(recipientsOf(mails, dir)).toEqual([ADMIN_EMAIL, secondAdmin.email].sort());
    expect(recipientsOf(mails, 'Subject: Pivot: the scheduled backup failed')).toEqual([secondAdmin.email]);
    expect(mails.join('\n')).not.toContain(farmer.user.email);
    expect((await status()).warning).toMatchObject({ kind: 'failed', error: failed[0]!.event });
    const farmerLog = (await farmer.client.get('/api/logs/')).body as LogListResponse;
    expect(farmerLog.data.map((entry: LogEntry) => entry.eventType)).not.toContain('backup_failed');

    // The folder becomes writable: the next look takes a backup and the warning ends.
    await repairFolder();
    await scheduled.runNow(now + 8 * 3_600_000);
    expect((await status()).warning).toBeNull();
    expect(await entriesOf('backup_failed')).toHaveLength(1);

    // A later failure is a new period: raised again, once.
    await breakFolder();
    await lookAt(now + 15 * 3_600_000);
    await lookAt(now + 16 * 3_600_000);
    expect(await entriesOf('backup_failed')).toHaveLength(2);
    expect(recipientsOf(await t.outboxMails(), dir)).toHaveLength(4);
  });

  it('mails each administrator why a scheduled backup was refused in their own language, and logs it in English', async () => {
    await mkdir(dir);
    t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' });
    const englishAdmin = await t.buildUser({ admin: true, email: 'english-admin@pivot.test', language: 'en' });
    const scheduled = t.app.scheduledBackups!;
    // A migration this version does not know, as a newer version's upgrade leaves it: no backup is taken.
    await t.database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from a newer version', 99999999999999)`,
    );
    // The start's look took a backup already: the next one is due six hours on.
    await expect(scheduled.runNow(Date.now() + 7 * 3_600_000)).rejects.toThrow();

    const english = 'The database has a migration this version does not know';
    // The first administrator reads Polish; the outbox keeps its non-ASCII letters encoded.
    const polish = 'Baza ma migracj';
    const mails = await t.outboxMails();
    expect(recipientsOf(mails, english)).toEqual([englishAdmin.email]);
    expect(recipientsOf(mails, polish)).toEqual([ADMIN_EMAIL]);
    expect((await entriesOf('backup_failed'))[0]!.event).toMatch(new RegExp(`^${english}`));
  });

  it('raises an overdue newest backup once, and not again until a backup is taken and is overdue in turn', async () => {
    await mkdir(dir);
    t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' });
    const farmer = await t.signedInUser({ email: 'farmer@pivot.test' });
    const scheduled = t.app.scheduledBackups!;
    await scheduled.runNow();
    expect((await status()).warning).toBeNull();
    expect(await entriesOf('backup_overdue')).toHaveLength(0);

    // Days pass for the history and the log (the folder's file still looks recent to the schedule).
    const daysPass = async (days: number) => {
      await t.database.db.execute(
        sql`update backup_history set at = at - make_interval(days => ${days}), backup_taken_at = backup_taken_at - make_interval(days => ${days})`,
      );
      await t.database.db.execute(sql`update log_entries set created_at = created_at - make_interval(days => ${days})`);
    };
    await daysPass(3);
    const now = Date.now();
    for (const minutes of [0, 1, 2]) await scheduled.runNow(now + minutes * 60_000);
    const overdue = await entriesOf('backup_overdue');
    expect(overdue).toHaveLength(1);
    expect(overdue[0]).toMatchObject({ event: '3', sprinklerId: null, actorUserId: null });
    expect((await status()).warning).toEqual({ kind: 'overdue', days: 3 });
    const mails = await t.outboxMails();
    expect(recipientsOf(mails, 'Subject: Pivot: brak aktualnej kopii zapasowej')).toEqual([ADMIN_EMAIL]);
    expect(mails.join('\n')).not.toContain(farmer.user.email);
    const farmerLog = (await farmer.client.get('/api/logs/')).body as LogListResponse;
    expect(farmerLog.data.map((entry: LogEntry) => entry.eventType)).not.toContain('backup_overdue');

    // A backup downloaded from the admin panel ends it; overdue again later, it is raised again.
    expect((await (await t.adminClient()).get('/api/admin/backup/')).status).toBe(200);
    expect((await status()).warning).toBeNull();
    await daysPass(5);
    await scheduled.runNow(now + 3 * 60_000);
    expect(await entriesOf('backup_overdue')).toHaveLength(2);
    expect((await status()).warning).toEqual({ kind: 'overdue', days: 5 });
  });

  it('raises no overdue warning when the look that finds the backup late takes one', async () => {
    await mkdir(dir);
    t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' });
    const scheduled = t.app.scheduledBackups!;
    await scheduled.runNow();
    // A server stopped for three days: at its first look the schedule is due, and backs up first.
    const threeDaysAgo = Date.now() - 3 * 24 * 3_600_000;
    const [file] = await readdir(dir);
    await rename(path.join(dir, file!), path.join(dir, backupFileName(new Date(threeDaysAgo))));
    await t.database.db.execute(
      sql`update backup_history set at = at - interval '3 days', backup_taken_at = backup_taken_at - interval '3 days'`,
    );
    await scheduled.runNow();
    expect(await readdir(dir)).toHaveLength(2);
    expect(await entriesOf('backup_overdue')).toHaveLength(0);
    expect((await status()).warning).toBeNull();
  });

  it('is raised once when two instances see the same failure at once', async () => {
    await writeFile(dir, 'not a folder');
    t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' });
    const other = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h' }, { database: t.database });
    try {
      const now = Date.now();
      await Promise.allSettled(
        [t, other].flatMap((app) => [1, 2].map((minutes) => app.app.scheduledBackups!.runNow(now + minutes * 60_000))),
      );
      expect(await entriesOf('backup_failed')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('says nothing without BACKUP_DIR', async () => {
    t = await createTestApp();
    expect(t.app.scheduledBackups).toBeUndefined();
    await t.database.db
      .execute(sql`insert into backup_history (kind, origin, at, size_bytes, backup_taken_at, backup_version)
      values ('taken', 'download', now() - interval '10 days', 1, now() - interval '10 days', 'x')`);
    expect((await status()).warning).toBeNull();
  });
});
