import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The embedded database (PGlite) is one process's: while the server runs, `npm run backup` asks
 * the server for the backup instead of opening the data folder. The server tells it where and
 * with which token in this file of the data folder, readable by its owner only.
 */
export const LOCAL_BACKUP_FILE = 'backup-endpoint.json';

export type LocalBackupEndpoint = { pid: number; url: string; token: string };

export class LocalBackupToken {
  private readonly token = randomBytes(32).toString('base64url');

  constructor(private readonly dataDir: string) {}

  accepts(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async publish(url: string): Promise<void> {
    const endpoint: LocalBackupEndpoint = { pid: process.pid, url, token: this.token };
    await writeFile(path.join(this.dataDir, LOCAL_BACKUP_FILE), JSON.stringify(endpoint), { mode: 0o600 });
  }

  async withdraw(): Promise<void> {
    const file = path.join(this.dataDir, LOCAL_BACKUP_FILE);
    const kept = await readLocalBackupEndpoint(this.dataDir);
    if (kept?.token === this.token) await rm(file, { force: true });
  }
}

/** The running server's endpoint named in the data folder, if a live process wrote it. */
export async function readLocalBackupEndpoint(dataDir: string): Promise<LocalBackupEndpoint | undefined> {
  try {
    const endpoint = JSON.parse(await readFile(path.join(dataDir, LOCAL_BACKUP_FILE), 'utf8')) as LocalBackupEndpoint;
    process.kill(endpoint.pid, 0);
    return endpoint;
  } catch {
    return undefined;
  }
}
