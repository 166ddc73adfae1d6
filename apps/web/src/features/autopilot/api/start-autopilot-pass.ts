import { type SprinklerDetail, autopilotEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';
import { sprinklerKeys, storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';
import { autopilotPlansKey } from './get-autopilot-plan';

/**
 * "Water now as advised" (docs/autopilot.md, "One tap"): the pass the autopilot would start now,
 * its program from the advice sent and the machine started forward, answered once the machine
 * confirmed. A refusal (nothing due, offline, in alarm, already moving, a start under way) or a
 * command that failed is the app's toast, and answers false. Either way the plan is asked again,
 * and the machine's detail is the one answered, or asked again after a refusal.
 */
export async function startAutopilotPass(sprinklerId: number): Promise<SprinklerDetail | false> {
  const detail = await callEndpoint(autopilotEndpoints.start, { params: { id: sprinklerId } });
  if (detail) storeSprinklerDetail(detail);
  else void readAgain({ queryKey: sprinklerKeys.detail(sprinklerId), exact: true });
  void readAgain({ queryKey: autopilotPlansKey(sprinklerId) });
  return detail;
}

export function useStartAutopilotPass() {
  return useAction(startAutopilotPass);
}
