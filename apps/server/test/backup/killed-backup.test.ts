import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBackupFile } from '../../src/backup/backup-file';
import { openDatabase } from '../../src/db/client';
import { BACKUP_COMMAND } from '../support/backup-command';
import { withEmbeddedDatabase } from '../support/database';

describe('a backup killed half way', () => {
  let dataDir: string;
  beforeAll(async () => {
    // A stopped embedded server's folder, with enough reports that the backup takes a while.
    dataDir = await withEmbeddedDatabase(await mkdtemp(path.join(os.tmpdir(), 'pivot-killed-backup-')));
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    await database.db.execute(sql`insert into telemetry (machine_id, ts, status, angle, distance, speed, pressure, flow)
      select 'M' || (i % 10), now() - (i || ' seconds')::interval, 'front', random() * 360, 400, 60, 2.4, 85
      from generate_series(1, 300000) i`);
    await database.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('leaves no file that looks complete', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-killed-out-'));
    try {
      const target = path.join(outDir, 'killed.pivotbackup');
      // Node itself with tsx's loader: `tsx` would run the command in a child that a kill of it leaves running.
      const child = spawn(process.execPath, ['--import', 'tsx', BACKUP_COMMAND, 'backup', '--out', target], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Killed as soon as the payload is being written under its temporary name.
      for (let waited = 0; waited < 60_000; waited += 20) {
        if ((await readdir(outDir)).some((name) => name.includes('.partial-'))) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGKILL');
      await exited;

      const left = await readdir(outDir);
      expect(left).not.toContain('killed.pivotbackup');
      // kill -9 cleans nothing up: the half-written file stays, under a name no one mistakes for a backup.
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(/^\.killed\.pivotbackup\.partial-[0-9a-f]{8}$/);
      for (const name of left) {
        await expect(verifyBackupFile(path.join(outDir, name))).rejects.toThrow(/is not a Pivot backup/);
      }
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
