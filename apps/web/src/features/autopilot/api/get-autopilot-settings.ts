import { type AutopilotSettings, autopilotEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The machine's autopilot mode and rules (docs/autopilot.md); a machine never set is off, with the defaults. */
export function getAutopilotSettings(sprinklerId: number): Promise<AutopilotSettings | false> {
  return callEndpoint(autopilotEndpoints.settings, { params: { id: sprinklerId } });
}

export const autopilotSettingsKey = (sprinklerId: number) =>
  [...sprinklerKeys.detail(sprinklerId), 'autopilot'] as const;

export function useAutopilotSettings(sprinklerId: number) {
  return useQuery(
    queryOptions({
      queryKey: autopilotSettingsKey(sprinklerId),
      queryFn: () => getAutopilotSettings(sprinklerId),
      staleTime: 60_000,
    }),
  );
}
