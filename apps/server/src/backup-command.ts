import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import {
  BACKUP_HEADER_BYTES,
  type BackupManifest,
  BackupFileError,
  manifestOfHeader,
  openBackupFile,
  passphraseOpens,
  verifyBackupFile,
} from './backup/backup-file';
import { proveBackup, restoreBackup, takeBackup } from './backup/backups';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { readLocalBackupEndpoint, recordBackup } from './modules/backups';

/*
 * `npm run backup -- --out <file>` and `npm run restore -- <file> [--force] [--allow-unencrypted]`
 * (docs/operations.md, "Backups"). They read the same environment as the server (DATA_DIR,
 * DATABASE_URL, BACKUP_PASSPHRASE). On PostgreSQL they open the database themselves, beside running
 * servers. The embedded PGlite belongs to one process: while a server runs on the data folder, a
 * backup is asked of it, and a restore is refused until it stops. Every failure is one line on
 * stderr and exit code 1.
 */

const USAGE = 'usage: backup --out <file>  |  restore <file> [--force] [--allow-unencrypted]';
/** What an unencrypted backup gives whoever reads it, beyond the farm's data. */
const CLEAR_SECRETS =
  "the server's secrets in the clear (webhook signing secrets, the Web Push private key): keep it as safe as the server, or set BACKUP_PASSPHRASE";

function describe(manifest: BackupManifest): string {
  const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
  return [
    `  taken:      ${manifest.takenAt} by version ${manifest.productVersion} (${manifest.migration.tag})`,
    `  machines:   ${manifest.machineCount}, ${rows} rows in ${Object.keys(manifest.tables).length} tables`,
    `  files:      ${manifest.files.join(', ') || 'none'}`,
    `  encrypted:  ${manifest.encryption ? 'yes (AES-256-GCM, scrypt)' : `no: it holds password hashes and ${CLEAR_SECRETS}`}`,
  ].join('\n');
}

/**
 * Refuses a running server's backup that this command's passphrase does not open, before any of it
 * is written: a command given BACKUP_PASSPHRASE never leaves an unencrypted file.
 */
function requireEncryptionWith(passphrase: string, url: string) {
  return async function* (chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let head = Buffer.alloc(0);
    for await (const chunk of chunks) {
      if (head.length >= BACKUP_HEADER_BYTES) {
        yield chunk;
        continue;
      }
      head = Buffer.concat([head, chunk]);
      if (head.length < BACKUP_HEADER_BYTES) continue;
      const { encryption } = manifestOfHeader(`The backup from ${url}`, head);
      if (!encryption) {
        throw new BackupFileError(
          `The running server at ${url} makes unencrypted backups (it has no BACKUP_PASSPHRASE), and this command was given one: nothing was written. Set the same BACKUP_PASSPHRASE for the server and restart it, or stop the server and run the backup again.`,
        );
      }
      if (!(await passphraseOpens(`The backup from ${url}`, encryption, passphrase))) {
        throw new BackupFileError(
          `The running server at ${url} encrypts its backups with another BACKUP_PASSPHRASE than this command's: nothing was written. Give both the same one.`,
        );
      }
      yield head;
    }
    if (head.length < BACKUP_HEADER_BYTES) yield head;
  };
}

/** Fetches a backup from the running server into `target`, complete and on disk or not at all. */
async function backupFromRunningServer(
  url: string,
  token: string,
  target: string,
  passphrase: string | undefined,
): Promise<BackupManifest> {
  const response = await fetch(`${url}/api/backup/local/`, { headers: { 'x-backup-token': token } });
  if (!response.ok || !response.body) {
    throw new BackupFileError(`The running server at ${url} refused the backup (HTTP ${response.status}).`);
  }
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  const body = Readable.fromWeb(response.body as WebReadableStream);
  try {
    const file = createWriteStream(partial, { mode: 0o600 });
    await (passphrase ? pipeline(body, requireEncryptionWith(passphrase, url), file) : pipeline(body, file));
    const handle = await open(partial, 'r');
    await handle.sync().finally(() => handle.close());
    const manifest = passphrase
      ? (await openBackupFile(partial, { passphrase })).manifest
      : await verifyBackupFile(partial);
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
    manifest = await backupFromRunningServer(running.url, running.token, target, config.backupPassphrase);
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
  if (!manifest.encryption) process.stderr.write(`Warning: this backup is not encrypted. It holds ${CLEAR_SECRETS}.\n`);
}

async function restore(
  config: Config,
  file: string,
  flags: { force: boolean; allowUnencrypted: boolean },
): Promise<void> {
  if (!config.databaseUrl && (await readLocalBackupEndpoint(config.dataDir))) {
    throw new BackupFileError(
      `A server is running on ${config.dataDir}: stop it before restoring into its data folder.`,
    );
  }
  // The whole file is proven before the target is even opened: a refusal changes nothing.
  const backup = await proveBackup(file, {
    passphrase: config.backupPassphrase,
    allowUnencrypted: flags.allowUnencrypted,
  });
  const database = await openDatabase(config);
  try {
    await restoreBackup(database, backup, { dataDir: config.dataDir, force: flags.force });
    await recordBackup(database.db, 'restored', 'command', backup.manifest, backup.size);
  } finally {
    await database.close();
  }
  const where = config.databaseUrl ? 'the database at DATABASE_URL' : config.dataDir;
  process.stdout.write(
    `Restored ${file} into ${where}\n${describe(backup.manifest)}\nStart the server: the log will record the restore.\n`,
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
    await restore(config, path.resolve(file), {
      force: rest.includes('--force'),
      allowUnencrypted: rest.includes('--allow-unencrypted'),
    });
    return;
  }
  throw new BackupFileError(USAGE);
}

/** An error as the one line the operator reads: never a stack trace (a configuration's problems joined). */
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const plain = error instanceof BackupFileError || error instanceof ConfigError;
  const line = message
    .split('\n')
    .map((part) => part.trim())
    .join(' ');
  return plain ? line : `The command failed: ${line}`;
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${oneLine(error)}\n`);
    process.exit(1);
  },
);
