import { copyFile, mkdtemp, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackupAccess,
  BackupFileError,
  openBackupFile,
  readBackupLines,
  verifyBackupFile,
  writeBackupFile,
} from '../../src/backup/backup-file';
import {
  DEMO_CREDENTIALS_FILE,
  RestoreTargetNotEmptyError,
  proveBackup,
  restoreBackup,
  takeBackup,
} from '../../src/backup/backups';
import { loadConfig } from '../../src/config';
import type { DatabaseHandle, Queryable } from '../../src/db/client';
import { recordBackup } from '../../src/modules/backups';
import { logEntries } from '../../src/modules/logs/logs.table';
import { insertTelemetry } from '../../src/modules/telemetry/telemetry.repository';
import { createTestDatabase } from '../support/database';
import { registerController } from '../support/devices';
import { buildSprinkler, grant } from '../support/fixtures';
import { migrationsBefore } from '../support/migrations';
import { ADMIN_PASSWORD, USER_PASSWORD, type TestApp, createTestApp } from '../support/test-app';
import { unmigratedPglite } from '../support/embedded-databases';

async function rowsOf<T>(db: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every table's row count and a checksum of its rows, as the database holds them. */
async function tableDigests(db: Queryable, except: string[] = []): Promise<Record<string, string>> {
  const tables = await rowsOf<{ name: string }>(
    db,
    // A partitioned table (telemetry) compared whole through its parent: which partitions exist differs by day.
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
        and not (select relispartition from pg_class where oid = quote_ident(table_name)::regclass) order by 1`,
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    if (except.includes(name)) continue;
    const [row] = await rowsOf<{ count: number; digest: string | null }>(
      db,
      sql`select count(*)::int as count, md5(string_agg(j, E'\n' order by j)) as digest
          from (select row_to_json(t)::text as j from ${sql.identifier(name)} t) rows`,
    );
    digests[name] = `${row?.count ?? 0}:${row?.digest ?? ''}`;
  }
  return digests;
}

/** What `npm run restore` does: proves the file, then restores it. */
async function restoreFile(
  database: DatabaseHandle,
  file: string,
  options: BackupAccess & { dataDir: string; force?: boolean },
): Promise<void> {
  await restoreBackup(database, await proveBackup(file, options), options);
}

const report = (machineId: string, ts: number, angle: number) => ({
  machineId,
  message: {
    v: 1 as const,
    ts,
    status: 'front' as const,
    angle,
    distance: 412.5,
    speed: 60,
    pressure: 2.43,
    flow: 85.2,
  },
});

// A backup, a fresh database and a restore into it: seconds alone, tens of seconds beside the
// rest of the test command on two cores.
describe('backups', { timeout: 90_000 }, () => {
  let t: TestApp;
  let folder: string;
  let deviceSecret: string;
  const sourceDir = () => t.dataDir;

  beforeAll(async () => {
    t = await createTestApp();
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-backups-'));
    const user = await t.buildUser();
    const machine = await buildSprinkler(t);
    await grant(t, machine.id, user.id);
    deviceSecret = await registerController(t.app, machine.internalId);
    const start = Date.parse('2026-06-01T06:00:00Z');
    await insertTelemetry(
      t.database.db,
      Array.from({ length: 5000 }, (_, index) =>
        report(machine.internalId, start + index * 5000, (index * 0.37) % 360),
      ),
    );
    await writeFile(path.join(t.dataDir, DEMO_CREDENTIALS_FILE), JSON.stringify({ 'DEMO-1': 'demo-secret' }));
    // The season's water on the grid, counted once; then the source holds still while it is compared.
    await t.app.waterAccounting.runOnce(new Date(start + 5000 * 5000));
    await t.app.waterAccounting.stop();
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function freshTarget(): Promise<{ database: DatabaseHandle; dataDir: string }> {
    return { database: await createTestDatabase(), dataDir: await mkdtemp(path.join(os.tmpdir(), 'pivot-restore-')) };
  }

  it('restores every table row for row, the data folder’s files, and a server that runs on it', async () => {
    const file = path.join(folder, 'round-trip.pivotbackup');
    const manifest = await takeBackup(t.database, file, { dataDir: sourceDir() });
    expect(manifest).toMatchObject({ format: 2, machineCount: 1, files: [DEMO_CREDENTIALS_FILE], encryption: null });
    expect(manifest.tables.telemetry).toBe(5000);
    expect(manifest.tables.water_cell_years).toBeGreaterThan(0);

    const target = await freshTarget();
    try {
      await restoreFile(target.database, file, { dataDir: target.dataDir });
      expect(await tableDigests(target.database.db)).toEqual(await tableDigests(t.database.db));
      expect(await readFile(path.join(target.dataDir, DEMO_CREDENTIALS_FILE), 'utf8')).toBe(
        await readFile(path.join(t.dataDir, DEMO_CREDENTIALS_FILE), 'utf8'),
      );

      // The restored server: sequences go on after the restored rows, the controller's old
      // secret opens the broker, and the log says a backup was restored.
      await recordBackup(target.database.db, 'restored', 'command', manifest, (await stat(file)).size);
      const restored = await createTestApp({}, { database: target.database });
      try {
        const [controller] = await rowsOf<{ machine_id: string }>(
          target.database.db,
          sql`select machine_id from device_credentials`,
        );
        expect(await restored.app.devices.verify(controller!.machine_id, deviceSecret)).toBe('accepted');
        await restored.buildUser();
        const admin = await restored.adminClient();
        const log = await admin.get('/api/logs/');
        const entries = (log.body as { data: { eventType: string; details: string }[] }).data;
        expect(entries.find((entry) => entry.eventType === 'backup_restored')).toMatchObject({
          details: `${manifest.productVersion} (${manifest.migration.tag})`,
        });
        // The restored data cannot hold its own backup's record: the backup it came from is the newest.
        const status = await admin.get('/api/admin/backup/status/');
        expect(status.body).toMatchObject({
          lastBackup: { takenAt: Date.parse(manifest.takenAt), sizeBytes: (await stat(file)).size },
        });
      } finally {
        await restored.close();
      }
    } finally {
      await target.database.close();
      await rm(target.dataDir, { recursive: true, force: true });
    }
  });

  it('holds hashes only: no password or device secret in plain text', async () => {
    const file = path.join(folder, 'secrets.pivotbackup');
    await takeBackup(t.database, file, { dataDir: await mkdtemp(path.join(os.tmpdir(), 'empty-')) });
    const lines: string[] = [];
    for await (const line of readBackupLines(await openBackupFile(file, {}))) lines.push(line);
    const payload = lines.join('\n');
    expect(payload).toContain('"password_hash"');
    expect(payload).toContain('"secret_hash"');
    for (const secret of [USER_PASSWORD, ADMIN_PASSWORD, deviceSecret]) expect(payload).not.toContain(secret);
    expect((await readFile(file)).includes(Buffer.from(deviceSecret))).toBe(false);
  });

  it('takes one snapshot while reports are being written', async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const index = written;
        // A report and its log entry in one transaction: a consistent backup has both or neither.
        await t.database.db.transaction(async (tx) => {
          await insertTelemetry(tx, [report('LOAD', Date.parse('2026-07-01T00:00:00Z') + index * 1000, index % 360)]);
          await tx
            .insert(logEntries)
            .values({ eventType: 'user_updated', actorUserId: null, event: `load-${index}`, ip: '' });
        });
        written += 1;
        // PGlite answers within the same turn of the event loop: let timers and the backup run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (written < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    const file = path.join(folder, 'under-load.pivotbackup');
    const manifest = await takeBackup(t.database, file, { dataDir: sourceDir() });
    const writtenDuringBackup = written;
    await new Promise((resolve) => setTimeout(resolve, 50));
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(writtenDuringBackup - 1);

    const target = await freshTarget();
    try {
      await restoreFile(target.database, file, { dataDir: target.dataDir });
      const [counts] = await rowsOf<{ reports: number; entries: number }>(
        target.database.db,
        sql`select (select count(*)::int from telemetry where machine_id = 'LOAD') as reports,
                   (select count(*)::int from log_entries where event like 'load-%') as entries`,
      );
      expect(counts!.reports).toBeGreaterThanOrEqual(20);
      expect(counts!.reports).toBe(counts!.entries);
      expect(manifest.tables.telemetry).toBe(5000 + counts!.reports);
    } finally {
      await target.database.close();
      await rm(target.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a truncated or corrupted file, or a wrong passphrase, and changes nothing', async () => {
    const file = path.join(folder, 'damaged.pivotbackup');
    await takeBackup(t.database, file, { dataDir: sourceDir() });
    const before = await tableDigests(t.database.db);

    const truncated = path.join(folder, 'truncated.pivotbackup');
    const { size } = await stat(file);
    await copyFile(file, truncated);
    const handle = await open(truncated, 'r+');
    await handle.truncate(size - 1000);
    await handle.close();
    await expect(restoreFile(t.database, truncated, { dataDir: sourceDir(), force: true })).rejects.toThrow(
      /is truncated/,
    );

    const corrupted = path.join(folder, 'corrupted.pivotbackup');
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    await writeFile(corrupted, bytes);
    await expect(restoreFile(t.database, corrupted, { dataDir: sourceDir(), force: true })).rejects.toThrow(
      /is corrupted: its checksum does not match/,
    );
    await expect(verifyBackupFile(path.join(folder, 'missing.pivotbackup'))).rejects.toThrow(BackupFileError);

    const encrypted = path.join(folder, 'encrypted.pivotbackup');
    const manifest = await takeBackup(t.database, encrypted, { dataDir: sourceDir(), passphrase: 'right horse' });
    expect(manifest.encryption).toMatchObject({ algorithm: 'aes-256-gcm', kdf: { name: 'scrypt', N: 32768, r: 8 } });
    await expect(
      restoreFile(t.database, encrypted, { dataDir: sourceDir(), force: true, passphrase: 'wrong horse' }),
    ).rejects.toThrow(/BACKUP_PASSPHRASE does not open this backup/);
    await expect(restoreFile(t.database, encrypted, { dataDir: sourceDir(), force: true })).rejects.toThrow(
      /is encrypted: set BACKUP_PASSPHRASE/,
    );

    expect(await tableDigests(t.database.db)).toEqual(before);
  });

  it('restores an encrypted backup with its passphrase', async () => {
    const file = path.join(folder, 'encrypted-round-trip.pivotbackup');
    await takeBackup(t.database, file, { dataDir: sourceDir(), passphrase: 'right horse' });
    const target = await freshTarget();
    try {
      await restoreFile(target.database, file, { dataDir: target.dataDir, passphrase: 'right horse' });
      expect(await tableDigests(target.database.db)).toEqual(await tableDigests(t.database.db));
    } finally {
      await target.database.close();
      await rm(target.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a target holding data unless forced, and replaces it when forced', async () => {
    const file = path.join(folder, 'force.pivotbackup');
    await takeBackup(t.database, file, { dataDir: sourceDir() });
    const target = await freshTarget();
    try {
      await restoreFile(target.database, file, { dataDir: target.dataDir });
      await target.database.db.execute(sql`delete from telemetry where angle < 10`);
      const changed = await tableDigests(target.database.db);
      await expect(restoreFile(target.database, file, { dataDir: target.dataDir })).rejects.toThrow(
        RestoreTargetNotEmptyError,
      );
      expect(await tableDigests(target.database.db)).toEqual(changed);
      await restoreFile(target.database, file, { dataDir: target.dataDir, force: true });
      expect(await tableDigests(target.database.db)).toEqual(await tableDigests(t.database.db));
    } finally {
      await target.database.close();
      await rm(target.dataDir, { recursive: true, force: true });
    }
    // A backup, two restores and four digests of every table: over 30 s beside the other suites.
  }, 90_000);

  it('leaves no file when a backup fails half way', async () => {
    const target = path.join(folder, 'failed.pivotbackup');
    await expect(
      writeBackupFile(target, async (sink) => {
        for (let index = 0; index < 1000; index += 1) await sink.line(`R {"n":${index}}`);
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    expect((await readdir(folder)).filter((name) => name.includes('failed'))).toEqual([]);
  });

  it('lets an administrator download a backup and see the last one', async () => {
    const admin = await t.adminClient();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/backup/',
      headers: { authorization: `Bearer ${admin.access!}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="pivot-backup-.*\.pivotbackup"$/);
    const downloaded = path.join(folder, 'downloaded.pivotbackup');
    await writeFile(downloaded, response.rawPayload);
    const manifest = await verifyBackupFile(downloaded);
    expect(manifest.machineCount).toBe(1);

    const status = await admin.get('/api/admin/backup/status/');
    expect(status.body).toEqual({
      lastBackup: { takenAt: expect.any(Number), sizeBytes: response.rawPayload.length },
      warning: null,
      encrypted: false,
    });
    expect((await readdir(path.join(t.dataDir, 'backup-downloads'))).length).toBe(0);

    const { client } = await t.signedInUser();
    expect((await client.get('/api/admin/backup/')).status).toBe(403);
    expect((await t.client().get('/api/backup/local/')).status).toBe(404);
  });
});

describe('a backup from an older version', () => {
  it('restores and migrates forward', async () => {
    const oldMigrations = await migrationsBefore('0016_backup_history');
    const client = unmigratedPglite();
    const db = drizzle(client, { casing: 'snake_case' });
    await migrate(db, { migrationsFolder: oldMigrations });
    const old: DatabaseHandle = {
      db,
      kind: 'pglite',
      migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
      close: () => client.close(),
    };
    const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-old-backup-'));
    const target = await createTestDatabase();
    try {
      await db.execute(
        sql`insert into sprinklers (internal_id, name, lat, lng) values ('OLD-1', 'Old pivot', 52.2, 17.1)`,
      );
      const file = path.join(folder, 'old.pivotbackup');
      const manifest = await takeBackup(old, file, { dataDir: folder });
      expect(manifest.migration.tag).toBe('0015_telemetry_days');
      expect(manifest.tables).not.toHaveProperty('backup_history');

      await restoreFile(target, file, { dataDir: folder });
      const [restored] = await rowsOf<{ name: string; history: number }>(
        target.db,
        sql`select name, (select count(*)::int from backup_history) as history from sprinklers`,
      );
      expect(restored).toEqual({ name: 'Old pivot', history: 0 });
    } finally {
      await old.close();
      await target.close();
      await rm(folder, { recursive: true, force: true });
      await rm(oldMigrations, { recursive: true, force: true });
    }
    // Two databases migrated from scratch, one of them through every migration since: over half a
    // minute on two cores shared with the other suites.
  }, 120_000);
});

describe('scheduled backups', () => {
  it('writes one when the newest in BACKUP_DIR is older than the schedule, and keeps the newest BACKUP_KEEP', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pivot-scheduled-'));
    const t = await createTestApp({ BACKUP_DIR: dir, BACKUP_SCHEDULE: '6h', BACKUP_KEEP: '2' });
    try {
      const scheduled = t.app.scheduledBackups!;
      // The first look, as the server starts: no backup yet, so one now.
      await scheduled.runNow();
      const names = async () => (await readdir(dir)).filter((name) => name.endsWith('.pivotbackup')).sort();
      expect(await names()).toHaveLength(1);

      const start = Date.now();
      await scheduled.runNow(start + 5 * 3_600_000);
      expect(await names()).toHaveLength(1);
      await scheduled.runNow(start + 7 * 3_600_000);
      await scheduled.runNow(start + 14 * 3_600_000);
      const kept = await names();
      expect(kept).toHaveLength(2);
      expect(kept[1]).toContain(new Date(start + 14 * 3_600_000).toISOString().slice(0, 13));
      for (const name of kept) await verifyBackupFile(path.join(dir, name));
      await writeFile(path.join(dir, 'notes.txt'), 'not a backup');
      await scheduled.runNow(start + 21 * 3_600_000);
      expect(await readdir(dir)).toContain('notes.txt');
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a schedule shorter than five minutes', () => {
    expect(() => loadConfig({ BACKUP_DIR: '/tmp/x', BACKUP_SCHEDULE: '1m', DATA_DIR: os.tmpdir() })).toThrow(
      /BACKUP_SCHEDULE: expected daily/,
    );
    expect(loadConfig({ BACKUP_DIR: '/tmp/x', DATA_DIR: os.tmpdir() }).backupSchedule).toMatchObject({
      everyMs: 86_400_000,
      keep: 7,
    });
  });
});
