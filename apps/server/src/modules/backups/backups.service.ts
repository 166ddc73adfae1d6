import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BackupStatus } from '@pivot/contracts';
import type { BackupManifest } from '../../backup/backup-file';
import { takeBackup } from '../../backup/backups';
import type { DatabaseHandle, Queryable } from '../../db/client';
import type { LogsService } from '../logs';
import { type BackupWarnings, describeMoment } from './backup-warnings';
import {
  type NewBackupRecord,
  findNewestBackup,
  findUnloggedRestores,
  insertBackupRecord,
  markLogged,
} from './backups.repository';

export type BackupOrigin = NewBackupRecord['origin'];

/** The file name a backup is offered under: the moment it was taken, sortable. */
export function backupFileName(takenAt: Date): string {
  return `pivot-backup-${takenAt
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z')}.pivotbackup`;
}

const versionOf = (manifest: BackupManifest) => `${manifest.productVersion} (${manifest.migration.tag})`;

/** Records a backup taken or restored in the history the admin panel and the log read. */
export async function recordBackup(
  db: Queryable,
  kind: NewBackupRecord['kind'],
  origin: BackupOrigin,
  manifest: BackupManifest,
  sizeBytes: number,
): Promise<void> {
  await insertBackupRecord(db, {
    kind,
    origin,
    sizeBytes,
    backupTakenAt: new Date(manifest.takenAt),
    backupVersion: versionOf(manifest),
  });
}

/** Backups of the running server: on demand (admin panel, a command) and the restore's log entry. */
export class BackupsService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      logs: LogsService;
      dataDir: string;
      passphrase: string | undefined;
      /** The scheduled backups' warnings; undefined without BACKUP_DIR (nothing is scheduled to fail). */
      warnings: BackupWarnings | undefined;
    },
  ) {}

  /** Writes a backup to `target` and records it. */
  async take(target: string, origin: BackupOrigin): Promise<BackupManifest> {
    const { database, dataDir, passphrase } = this.deps;
    const manifest = await takeBackup(database, target, { dataDir, passphrase });
    const { size } = await stat(target);
    await recordBackup(database.db, 'taken', origin, manifest, size);
    return manifest;
  }

  /** Removes the downloads' files a stopped server left behind (one killed while sending). */
  async removeLeftDownloads(): Promise<void> {
    await rm(this.downloadsFolder(), { recursive: true, force: true });
  }

  private downloadsFolder(): string {
    return path.join(this.deps.dataDir, 'backup-downloads');
  }

  /** A backup in a file of its own for one download; `remove` deletes it once sent. */
  async takeForDownload(origin: BackupOrigin): Promise<{ file: string; name: string; remove: () => Promise<void> }> {
    const file = path.join(this.downloadsFolder(), `${randomBytes(8).toString('hex')}.pivotbackup`);
    const manifest = await this.take(file, origin);
    return { file, name: backupFileName(new Date(manifest.takenAt)), remove: () => rm(file, { force: true }) };
  }

  async status(now = Date.now()): Promise<BackupStatus> {
    const latest = await findNewestBackup(this.deps.database.db);
    return {
      lastBackup: latest ? { takenAt: latest.backupTakenAt.getTime(), sizeBytes: latest.sizeBytes } : null,
      warning: (await this.deps.warnings?.current(now)) ?? null,
      encrypted: this.deps.passphrase !== undefined,
    };
  }

  /** Writes each restore not logged yet to the activity log (a restore runs while the server is stopped). */
  async logRestores(): Promise<void> {
    const { database, logs } = this.deps;
    for (const restore of await findUnloggedRestores(database.db)) {
      await database.db.transaction(async (tx) => {
        await logs.record(tx, {
          eventType: 'backup_restored',
          actorUserId: null,
          event: describeMoment(restore.backupTakenAt),
          details: restore.backupVersion,
          ip: '',
        });
        await markLogged(tx, restore.id);
      });
    }
  }
}
