import { type SprinklerDetail, SprinklerDetailSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

/** Deletes a stored program (the machine keeps running whatever it runs). Answers the detail. */
export async function deleteProgram(sprinklerId: number, programId: number): Promise<SprinklerDetail | false> {
  const detail = await apiCall({
    method: 'DELETE',
    path: `/sprinkler/${sprinklerId}/program/${programId}/`,
    response: SprinklerDetailSchema,
  });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}

export function useDeleteProgram() {
  return useAction(deleteProgram);
}
