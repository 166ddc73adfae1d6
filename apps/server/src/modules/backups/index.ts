import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, PRODUCT_NAME } from '../../config';
import { BackupWarnings } from './backup-warnings';
import { backupsRoutes } from './backups.routes';
import { BackupsService } from './backups.service';
import { LocalBackupToken } from './local-backup-token';
import { ScheduledBackups } from './scheduled-backups';

declare module 'fastify' {
  interface FastifyInstance {
    backups: BackupsService;
    /** The backups written on a schedule to BACKUP_DIR; undefined without it. */
    scheduledBackups: ScheduledBackups | undefined;
  }
}

export type { BackupsService } from './backups.service';
export type { ScheduledBackups } from './scheduled-backups';
export { backupFileName, recordBackup } from './backups.service';
export { readLocalBackupEndpoint } from './local-backup-token';

/** Addresses the server listens on everywhere are reached locally at the loopback address. */
function localUrl(address: AddressInfo): string {
  const anyAddress = ['0.0.0.0', '::', ''].includes(address.address);
  const host = anyAddress ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Backups (docs/operations.md, "Backups"): administrators download one from the admin panel,
 * `npm run backup` asks a running embedded server for one, and a restore made while the server
 * was stopped is written to the activity log at the next start.
 */
export const backupsModule = fp(
  async (
    app: FastifyInstance,
    config: Pick<Config, 'dataDir' | 'backupPassphrase' | 'backupSchedule' | 'publicUrl'>,
  ) => {
    const schedule = config.backupSchedule;
    const warnings =
      schedule &&
      new BackupWarnings({
        db: app.database.db,
        logs: app.logs,
        mail: app.mail,
        users: app.users,
        folder: schedule.dir,
        adminLink: `${config.publicUrl}/admin/backups`,
        productName: PRODUCT_NAME,
      });
    const backups = new BackupsService({
      database: app.database,
      logs: app.logs,
      dataDir: config.dataDir,
      passphrase: config.backupPassphrase,
      warnings,
    });
    app.decorate('backups', backups);
    const scheduled =
      schedule && warnings ? new ScheduledBackups({ backups, schedule, warnings, logger: app.log }) : undefined;
    app.decorate('scheduledBackups', scheduled);
    const localToken = new LocalBackupToken(config.dataDir);
    await app.register(backupsRoutes, { prefix: '/api', backups, localToken });

    app.addHook('onReady', async () => {
      await backups.removeLeftDownloads();
      await backups.logRestores().catch((error: unknown) => app.log.error({ err: error }, 'logging a restore failed'));
      scheduled?.start();
    });
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (address && typeof address === 'object') await localToken.publish(localUrl(address));
    });
    app.addHook('onClose', async () => {
      await scheduled?.stop();
      await localToken.withdraw();
    });
  },
  { name: 'backups', dependencies: ['database', 'authentication', 'logs', 'mail', 'users'] },
);
