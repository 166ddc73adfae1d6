import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBackupFile, readBackupLines } from '../../src/backup/backup-file';
import { type TestApp, createTestApp } from '../support/test-app';
import { runBackupCommand } from '../support/backup-command';
import { withEmbeddedDatabase } from '../support/database';

const PASSPHRASE = 'correct horse battery';

const runBackup = (dataDir: string, target: string, passphrase: string) =>
  runBackupCommand(['backup', '--out', target], { dataDir, passphrase });

/** The server's own secrets, as its tables hold them: what would let a reader act as the server. */
async function serverSecrets(t: TestApp): Promise<string[]> {
  const result = await t.database.db.execute(sql`select private_key as value from push_keys`);
  return (result as unknown as { rows: { value: string }[] }).rows.map((row) => row.value);
}

/** A backup's payload as text, opened with the passphrase. */
async function payloadOf(file: string): Promise<string> {
  const lines: string[] = [];
  for await (const line of readBackupLines(await openBackupFile(file, { passphrase: PASSPHRASE }))) lines.push(line);
  return lines.join('\n');
}

// Each test runs `npm run backup` as a process of its own (tsx compiling the command): a few
// seconds alone, more than the default 30 s under the test command's load.
describe('with BACKUP_PASSPHRASE set', { timeout: 90_000 }, () => {
  let t: TestApp;
  let folder: string;
  let scheduledDir: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-encrypted-'));
    scheduledDir = path.join(folder, 'scheduled');
    t = await createTestApp({ BACKUP_PASSPHRASE: PASSPHRASE, BACKUP_DIR: scheduledDir });
    // The command opens the embedded database of the server's data folder.
    await withEmbeddedDatabase(t.dataDir);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('encrypts every way a backup is made: on schedule, downloaded, by command beside the server', async () => {
    const secrets = await serverSecrets(t);
    expect(secrets.length).toBeGreaterThan(0);

    await t.app.scheduledBackups!.runNow();
    const [scheduled] = await readdir(scheduledDir);
    const admin = await t.adminClient();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/backup/',
      headers: { authorization: `Bearer ${admin.access!}` },
    });
    expect((await admin.get('/api/admin/backup/status/')).body).toMatchObject({ encrypted: true });
    const downloaded = path.join(folder, 'downloaded.pivotbackup');
    await writeFile(downloaded, response.rawPayload);
    const byCommand = path.join(folder, 'command.pivotbackup');
    expect(await runBackup(t.dataDir, byCommand, PASSPHRASE)).toMatchObject({ code: 0 });

    for (const file of [path.join(scheduledDir, scheduled!), downloaded, byCommand]) {
      await expect(openBackupFile(file, {})).rejects.toThrow(/This backup is encrypted/);
      const payload = await payloadOf(file);
      for (const secret of secrets) expect(payload).toContain(secret);
    }
  });

  it('refuses, by command, a passphrase other than the running server’s, and writes nothing', async () => {
    const target = path.join(folder, 'other-passphrase.pivotbackup');
    const { code, stderr } = await runBackup(t.dataDir, target, 'another passphrase');
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/with another BACKUP_PASSPHRASE/)]);
    expect((await readdir(folder)).filter((name) => name.includes('other-passphrase'))).toEqual([]);
  });
});

describe('a running server without BACKUP_PASSPHRASE', { timeout: 90_000 }, () => {
  it('gives `npm run backup` with BACKUP_PASSPHRASE no unencrypted file: refused before any byte is written', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-unencrypted-'));
    const t = await createTestApp();
    await withEmbeddedDatabase(t.dataDir);
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const target = path.join(folder, 'asked-encrypted.pivotbackup');
      const { code, stderr } = await runBackup(t.dataDir, target, PASSPHRASE);
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/makes unencrypted backups/)]);
      expect(await readdir(folder)).toEqual([]);

      const unencrypted = path.join(folder, 'unencrypted.pivotbackup');
      const plain = await runBackup(t.dataDir, unencrypted, '');
      expect(plain.code).toBe(0);
      expect(plain.stderr).toMatch(
        /^Warning: this backup is not encrypted\. It holds the server's secrets in the clear/,
      );
    } finally {
      await t.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
