import { type AutopilotPlan, autopilotEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callEndpoint } from '@/lib/api-client';
import { autopilotSettingsKey } from './get-autopilot-settings';

/** How often the plan is asked again while the page is open: the watcher looks every 10 minutes. */
export const PLAN_REFRESH_MS = 3 * 60_000;

/**
 * What the machine's autopilot decides now and the passes it would start over the coming days
 * (docs/autopilot.md, "The plan"), its texts in the page's language.
 */
export function getAutopilotPlan(sprinklerId: number): Promise<AutopilotPlan | false> {
  return callEndpoint(autopilotEndpoints.plan, { params: { id: sprinklerId } });
}

/** The plans of a machine, in every language: a save of the settings asks them again. */
export const autopilotPlansKey = (sprinklerId: number) => [...autopilotSettingsKey(sprinklerId), 'plan'] as const;

/** The plan in one language: the server tells its texts in the page's language. */
export const autopilotPlanKey = (sprinklerId: number, language: string) =>
  [...autopilotPlansKey(sprinklerId), language] as const;

export function useAutopilotPlan(sprinklerId: number) {
  const { i18n } = useTranslation();
  return useQuery(
    queryOptions({
      queryKey: autopilotPlanKey(sprinklerId, i18n.language),
      queryFn: () => getAutopilotPlan(sprinklerId),
      staleTime: 60_000,
      refetchInterval: PLAN_REFRESH_MS,
    }),
  );
}
