import { type SprinklerDetail, programsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';

/**
 * Uploads a stored program to its machine. The server answers once the machine has received it
 * (a 504 when the machine does not answer, a 502 when it refuses: both shown as toasts, false);
 * the machine then processes it and reports it as its current program a little later.
 */
export async function sendProgram(sprinklerId: number, programId: number): Promise<SprinklerDetail | false> {
  const detail = await callEndpoint(programsEndpoints.send, { params: { id: sprinklerId, programId } });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}
