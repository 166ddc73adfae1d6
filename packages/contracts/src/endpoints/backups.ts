import { BackupStatusSchema } from '../backups';
import { endpoint } from '../endpoint';

/* The database's backups (docs/operations.md). */
const tag = 'backups';

export const download = endpoint({
  method: 'GET',
  path: '/admin/backup/',
  produces: 'application/octet-stream',
  errors: [],
  tag,
  summary: 'Takes a backup of the database and downloads it (administrators)',
});

export const status = endpoint({
  method: 'GET',
  path: '/admin/backup/status/',
  answer: BackupStatusSchema,
  errors: [],
  tag,
  summary: 'The newest backup this server took, and what is wrong with the scheduled ones (administrators)',
});

/** `npm run backup` against the running server, with the token in its data folder. */
export const local = endpoint({
  method: 'GET',
  path: '/backup/local/',
  produces: 'application/octet-stream',
  errors: ['not_found'],
  tag,
  summary: "Takes a backup for the operator's backup command, which sends the data folder's token",
  hidden: true,
});
