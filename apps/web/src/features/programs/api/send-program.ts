import { type SprinklerDetail, SprinklerDetailSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';

/**
 * Uploads a stored program to its machine. The server answers once the machine has received it
 * (a 504 when the machine does not answer, a 502 when it refuses: both shown as toasts, false);
 * the machine then processes it and reports it as its current program a little later.
 */
export async function sendProgram(sprinklerId: number, programId: number): Promise<SprinklerDetail | false> {
  const detail = await apiCall({
    method: 'POST',
    path: `/sprinkler/${sprinklerId}/program/${programId}/send/`,
    response: SprinklerDetailSchema,
  });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}
