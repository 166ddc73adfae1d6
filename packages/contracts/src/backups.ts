import { z } from 'zod';

/** `GET /api/admin/backup/status`: the newest backup this server took (downloaded, by command or on schedule). */
export const BackupStatusSchema = z.strictObject({
  lastBackup: z
    .strictObject({
      /** ms since the epoch */
      takenAt: z.number(),
      sizeBytes: z.number().int().min(0),
    })
    .nullable(),
  /**
   * What is wrong with the scheduled backups (BACKUP_DIR), null when nothing is: the last one
   * failed (with the error), or the newest backup is older than two days.
   */
  warning: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('failed'), error: z.string(), at: z.number() }),
      z.strictObject({ kind: z.literal('overdue'), days: z.number().int().min(0) }),
    ])
    .nullable(),
  /**
   * Whether the backups this server makes are encrypted (BACKUP_PASSPHRASE). When not, each one
   * holds the server's secrets in the clear, and the panel says so.
   */
  encrypted: z.boolean(),
});
export type BackupStatus = z.infer<typeof BackupStatusSchema>;
