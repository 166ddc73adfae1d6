import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type Language, backupsEndpoints } from '@pivot/contracts';
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
import { commandLanguage, languageOption, withoutLanguageOption } from './i18n/command-language';
import { operatorMessage } from './i18n/messages';
import { readLocalBackupEndpoint, recordBackup } from './modules/backups';

/*
 * `npm run backup -- --out <file>` and `npm run restore -- <file> [--force] [--allow-unencrypted]`
 * (docs/operations.md, "Backups"). They read the same environment as the server (DATA_DIR,
 * DATABASE_URL, BACKUP_PASSPHRASE). On PostgreSQL they open the database themselves, beside running
 * servers. The embedded PGlite belongs to one process: while a server runs on the data folder, a
 * backup is asked of it, and a restore is refused until it stops. Every failure is one line on
 * stderr and exit code 1. They speak Polish or English as command-line programs choose (LC_ALL,
 * LC_MESSAGES, LANG), unless told `--lang pl|en`.
 */

function describe(manifest: BackupManifest, language: Language): string {
  const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
  return [
    operatorMessage('backup_taken_line', language, {
      takenAt: manifest.takenAt,
      version: manifest.productVersion,
      migration: manifest.migration.tag,
    }),
    operatorMessage('backup_machines_line', language, {
      machines: manifest.machineCount,
      rows,
      tables: Object.keys(manifest.tables).length,
    }),
    operatorMessage('backup_files_line', language, { files: manifest.files }),
    operatorMessage(manifest.encryption ? 'backup_encrypted_line' : 'backup_unencrypted_line', language),
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
      const { encryption } = manifestOfHeader(localBackupUrl(url), head);
      if (!encryption) throw new BackupFileError('running_server_unencrypted', { url });
      if (!(await passphraseOpens(localBackupUrl(url), encryption, passphrase))) {
        throw new BackupFileError('running_server_other_passphrase', { url });
      }
      yield head;
    }
    if (head.length < BACKUP_HEADER_BYTES) yield head;
  };
}

/** Where the running server at `url` hands its backup to this command. */
function localBackupUrl(url: string): string {
  return `${url}/api${backupsEndpoints.local.path}`;
}

/** Fetches a backup from the running server into `target`, complete and on disk or not at all. */
async function backupFromRunningServer(
  url: string,
  token: string,
  target: string,
  passphrase: string | undefined,
): Promise<BackupManifest> {
  const response = await fetch(localBackupUrl(url), { headers: { 'x-backup-token': token } });
  if (!response.ok || !response.body) {
    throw new BackupFileError('running_server_refused', { url, status: response.status });
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

async function backup(config: Config, target: string, language: Language): Promise<void> {
  const running = config.databaseUrl ? undefined : await readLocalBackupEndpoint(config.dataDir);
  let manifest: BackupManifest;
  if (running) {
    process.stdout.write(
      `${operatorMessage('backup_asking_running_server', language, { pid: running.pid, dataDir: config.dataDir })}\n`,
    );
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
  const written = operatorMessage('backup_written', language, { file: target, bytes: (await stat(target)).size });
  process.stdout.write(`${written}\n${describe(manifest, language)}\n`);
  if (!manifest.encryption) process.stderr.write(`${operatorMessage('backup_unencrypted_warning', language)}\n`);
}

async function restore(
  config: Config,
  file: string,
  flags: { force: boolean; allowUnencrypted: boolean },
  language: Language,
): Promise<void> {
  if (!config.databaseUrl && (await readLocalBackupEndpoint(config.dataDir))) {
    throw new BackupFileError('restore_server_running', { dataDir: config.dataDir });
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
  const where = config.databaseUrl ? operatorMessage('restored_into_database_url', language) : config.dataDir;
  process.stdout.write(
    [
      operatorMessage('restored', language, { file, where }),
      describe(backup.manifest, language),
      operatorMessage('restored_start_server', language),
      '',
    ].join('\n'),
  );
}

function usage(language: Language, problem?: string): string {
  return [operatorMessage('usage', language), problem].filter(Boolean).join(': ');
}

async function main(argv: string[], language: Language): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'backup') {
    const outIndex = rest.indexOf('--out');
    const target = outIndex >= 0 ? rest[outIndex + 1] : undefined;
    if (!target) throw new UsageError(usage(language, operatorMessage('usage_out_missing', language)));
    await backup(config, path.resolve(target), language);
    return;
  }
  if (command === 'restore') {
    const file = rest.find((argument) => !argument.startsWith('--'));
    if (!file) throw new UsageError(usage(language, operatorMessage('usage_file_missing', language)));
    await restore(
      config,
      path.resolve(file),
      { force: rest.includes('--force'), allowUnencrypted: rest.includes('--allow-unencrypted') },
      language,
    );
    return;
  }
  throw new UsageError(usage(language));
}

/** A command line this program does not take: its text is already in the operator's language. */
class UsageError extends Error {}

/** An error as the one line the operator reads: never a stack trace (a configuration's problems joined). */
function oneLine(error: unknown, language: Language): string {
  const message =
    error instanceof BackupFileError
      ? error.messageIn(language)
      : error instanceof Error
        ? error.message
        : String(error);
  const plain = error instanceof BackupFileError || error instanceof ConfigError || error instanceof UsageError;
  const line = message
    .split('\n')
    .map((part) => part.trim())
    .join(' ');
  return plain ? line : operatorMessage('command_failed', language, { reason: line });
}

const args = process.argv.slice(2);
const option = languageOption(args);
const language = commandLanguage(option, process.env);
const run =
  option && 'invalid' in option
    ? Promise.reject(
        new UsageError(usage(language, operatorMessage('usage_lang', language, { value: option.invalid }))),
      )
    : main(withoutLanguageOption(args), language);
run.then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${oneLine(error, language)}\n`);
    process.exit(1);
  },
);
