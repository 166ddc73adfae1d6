import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import serverPackage from '../../package.json' with { type: 'json' };
import type { DatabaseHandle } from '../db/client';
import {
  type BackupAccess,
  type BackupManifest,
  type OpenedBackup,
  BackupFileError,
  openBackupFile,
  readBackupLines,
  writeBackupFile,
} from './backup-file';
import { type DumpColumns, checkDump, countRows, dumpDatabase, restoreDatabase } from './database-dump';

/** The product version a backup names in its manifest. */
export const PRODUCT_VERSION = serverPackage.version;

/**
 * The demo controllers' secrets (demo/demo-fleet.ts keeps them here, as a farmer keeps them in
 * the controllers): a backup holds the file so that the restored demo fleet connects again.
 */
export const DEMO_CREDENTIALS_FILE = 'demo-fleet-credentials.json';
/** The data folder's files a backup holds beside the database, when they exist. */
const KEPT_FILES = [DEMO_CREDENTIALS_FILE];

export type BackupOptions = { dataDir: string; passphrase?: string | undefined };

/** Writes a backup of the database and the kept files of the data folder to `target`. */
export async function takeBackup(
  database: DatabaseHandle,
  target: string,
  options: BackupOptions,
): Promise<BackupManifest> {
  const files: { name: string; content: Buffer }[] = [];
  for (const name of KEPT_FILES) {
    const content = await readFile(path.join(options.dataDir, name)).catch(() => undefined);
    if (content) files.push({ name, content });
  }
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  return writeBackupFile(
    path.resolve(target),
    (sink) => dumpDatabase(database, sink, { productVersion: PRODUCT_VERSION, files }),
    { passphrase: options.passphrase },
  );
}

/** A backup read whole and found sound, before anything was touched: the only kind a restore takes. */
export type ProvenBackup = OpenedBackup & { readonly columns: DumpColumns };

/**
 * Proves a backup before a restore touches anything: its header, encryption settings, passphrase,
 * length, checksum and seal (openBackupFile), then its whole payload decrypted (GCM's tag),
 * decompressed (gzip's end) and every line parsed against the manifest (checkDump), whose
 * tables' columns the restore checks against the backup's migration.
 */
export async function proveBackup(file: string, access: BackupAccess): Promise<ProvenBackup> {
  const backup = await openBackupFile(file, access);
  return { ...backup, columns: await checkDump(backup.manifest, readBackupLines(backup)) };
}

/** The target already holds data, and the restore was not told to replace it. */
export class RestoreTargetNotEmptyError extends BackupFileError {}

/**
 * Restores a proven backup into the database and the data folder. A target holding data is
 * refused unless `force`; the database is replaced in one transaction, so a restore that fails
 * half way leaves it as it was.
 */
export async function restoreBackup(
  database: DatabaseHandle,
  backup: ProvenBackup,
  options: { dataDir: string; force?: boolean },
): Promise<BackupManifest> {
  const rows = await countRows(database.db);
  if (rows > 0 && !options.force) {
    throw new RestoreTargetNotEmptyError('restore_target_not_empty', { rows });
  }
  const files = await restoreDatabase(database, backup.manifest, backup.columns, readBackupLines(backup));
  await mkdir(options.dataDir, { recursive: true });
  for (const kept of files) {
    if (!KEPT_FILES.includes(kept.name)) continue;
    const destination = path.join(options.dataDir, kept.name);
    await writeFile(`${destination}.restoring`, kept.content, { mode: 0o600 });
    await rename(`${destination}.restoring`, destination);
  }
  return backup.manifest;
}
