import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import serverPackage from '../../package.json' with { type: 'json' };
import type { DatabaseHandle } from '../db/client';
import {
  type BackupManifest,
  BackupFileError,
  checkPassphrase,
  readBackupLines,
  verifyBackupFile,
  writeBackupFile,
} from './backup-file';
import { countRows, dumpDatabase, restoreDatabase } from './database-dump';

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

/** The target already holds data, and the restore was not told to replace it. */
export class RestoreTargetNotEmptyError extends BackupFileError {}

/**
 * Restores a backup into the database and the data folder. The file and the passphrase are
 * checked first, and a target holding data is refused unless `force`: a refused restore changes
 * nothing.
 */
export async function restoreBackup(
  database: DatabaseHandle,
  file: string,
  options: BackupOptions & { force?: boolean },
): Promise<BackupManifest> {
  const manifest = await verifyBackupFile(file);
  await checkPassphrase(manifest, options.passphrase);
  const rows = await countRows(database.db);
  if (rows > 0 && !options.force) {
    throw new RestoreTargetNotEmptyError(
      `The target database is not empty (${rows} rows). Restore into an empty data folder or database, or add --force to replace everything in it.`,
    );
  }
  const files = await restoreDatabase(database, manifest, readBackupLines(file, manifest, options.passphrase));
  await mkdir(options.dataDir, { recursive: true });
  for (const kept of files) {
    if (!KEPT_FILES.includes(kept.name)) continue;
    const destination = path.join(options.dataDir, kept.name);
    await writeFile(`${destination}.restoring`, kept.content, { mode: 0o600 });
    await rename(`${destination}.restoring`, destination);
  }
  return manifest;
}
