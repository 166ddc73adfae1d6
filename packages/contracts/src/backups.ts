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
});
export type BackupStatus = z.infer<typeof BackupStatusSchema>;
