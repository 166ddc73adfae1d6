import { type SprinklerDetail, programsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

/** Deletes a stored program (the machine keeps running whatever it runs). Answers the detail. */
export async function deleteProgram(sprinklerId: number, programId: number): Promise<SprinklerDetail | false> {
  const detail = await callEndpoint(programsEndpoints.remove, { params: { id: sprinklerId, programId } });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}

export function useDeleteProgram() {
  return useAction(deleteProgram);
}
