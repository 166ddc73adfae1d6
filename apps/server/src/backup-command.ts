import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { type BackupManifest, BackupFileError, checkPassphrase, verifyBackupFile } from './backup/backup-file';
import { restoreBackup, takeBackup } from './backup/backups';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { readLocalBackupEndpoint, recordBackup } from './modules/backups';

/*
 * `npm run backup -- --out <file>` and `npm run restore -- <file> [--force]` (docs/operations.md,
 * "Backups"). They read the same environment as the server (DATA_DIR, DATABASE_URL, BACKUP_PASSPHRASE).
 * On PostgreSQL they open the database themselves, beside running servers. The embedded PGlite
 * belongs to one process: while a server runs on the data folder, a backup is asked of it, and a
 * restore is refused until it stops.
 */

const USAGE = 'usage: backup --out <file>  |  restore <file> [--force]';

function describe(manifest: BackupManifest): string {
  const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
  return [
    `  taken:      ${manifest.takenAt} by version ${manifest.productVersion} (${manifest.migration.tag})`,
    `  machines:   ${manifest.machineCount}, ${rows} rows in ${Object.keys(manifest.tables).length} tables`,
    `  files:      ${manifest.files.join(', ') || 'none'}`,
    `  encrypted:  ${manifest.encryption ? 'yes (AES-256-GCM, scrypt)' : 'no: it holds password and secret hashes in the clear'}`,
  ].join('\n');
}

/** Fetches a backup from the running server into `target`, complete and on disk or not at all. */
async function backupFromRunningServer(url: string, token: string, target: string): Promise<BackupManifest> {
  const response = await fetch(`${url}/api/backup/local/`, { headers: { 'x-backup-token': token } });
  if (!response.ok || !response.body) {
    throw new BackupFileError(`The running server at ${url} refused the backup (HTTP ${response.status}).`);
  }
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(partial, { mode: 0o600 }));
    const handle = await open(partial, 'r');
    await handle.sync().finally(() => handle.close());
    const manifest = await verifyBackupFile(partial);
    await rename(partial, target);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

async function backup(config: Config, target: string): Promise<void> {
  const running = config.databaseUrl ? undefined : await readLocalBackupEndpoint(config.dataDir);
  let manifest: BackupManifest;
  if (running) {
    process.stdout.write(`The server (pid ${running.pid}) runs on ${config.dataDir}: asking it for the backup.\n`);
    manifest = await backupFromRunningServer(running.url, running.token, target);
  } else {
    const database = await openDatabase(config);
    try {
      manifest = await takeBackup(database, target, { dataDir: config.dataDir, passphrase: config.backupPassphrase });
      await recordBackup(database.db, 'taken', 'command', manifest, (await stat(target)).size);
    } finally {
      await database.close();
    }
  }
  process.stdout.write(`Backup written to ${target} (${(await stat(target)).size} bytes)\n${describe(manifest)}\n`);
}

async function restore(config: Config, file: string, force: boolean): Promise<void> {
  if (!config.databaseUrl && (await readLocalBackupEndpoint(config.dataDir))) {
    throw new BackupFileError(
      `A server is running on ${config.dataDir}: stop it before restoring into its data folder.`,
    );
  }
  // The file and the passphrase are checked before the target is even opened: a refusal changes nothing.
  const manifest = await verifyBackupFile(file);
  await checkPassphrase(manifest, config.backupPassphrase);
  const database = await openDatabase(config);
  try {
    await restoreBackup(database, file, { dataDir: config.dataDir, passphrase: config.backupPassphrase, force });
    await recordBackup(database.db, 'restored', 'command', manifest, (await stat(file)).size);
  } finally {
    await database.close();
  }
  const where = config.databaseUrl ? 'the database at DATABASE_URL' : config.dataDir;
  process.stdout.write(
    `Restored ${file} into ${where}\n${describe(manifest)}\nStart the server: the log will record the restore.\n`,
  );
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'backup') {
    const outIndex = rest.indexOf('--out');
    const target = outIndex >= 0 ? rest[outIndex + 1] : undefined;
    if (!target) throw new BackupFileError(`${USAGE}\n  --out names the file to write`);
    await backup(config, path.resolve(target));
    return;
  }
  if (command === 'restore') {
    const file = rest.find((argument) => !argument.startsWith('--'));
    if (!file) throw new BackupFileError(`${USAGE}\n  name the backup file to restore`);
    await restore(config, path.resolve(file), rest.includes('--force'));
    return;
  }
  throw new BackupFileError(USAGE);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const plain = error instanceof BackupFileError || error instanceof ConfigError;
    process.stderr.write(
      `${plain ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
