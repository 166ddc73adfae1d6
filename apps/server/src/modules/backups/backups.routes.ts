import { createReadStream } from 'node:fs';
import { backupsEndpoints } from '@pivot/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import type { BackupOrigin, BackupsService } from './backups.service';
import type { LocalBackupToken } from './local-backup-token';

export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService; localToken: LocalBackupToken }> = async (
  app,
  { backups, localToken },
) => {
  const sendBackup = async (reply: FastifyReply, origin: BackupOrigin) => {
    const backup = await backups.takeForDownload(origin);
    const stream = createReadStream(backup.file);
    stream.once('close', () => void backup.remove());
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${backup.name}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  };

  endpointRoute(app, backupsEndpoints.download, { access: 'admin' }, async (_request, reply) =>
    sendBackup(reply, 'download'),
  );

  endpointRoute(app, backupsEndpoints.status, { access: 'admin' }, async () => backups.status());

  // `npm run backup` against this running server: whoever may read the data folder's token file
  // may read the database itself, so the token grants nothing more (docs/operations.md).
  endpointRoute(app, backupsEndpoints.local, { access: 'public' }, async (request, reply) => {
    if (!localToken.accepts(request.headers['x-backup-token'])) return reply.code(404).send();
    return sendBackup(reply, 'command');
  });
};
