import {
  type AutopilotSettings,
  type AutopilotSettingsBody,
  type ValidationIssue,
  autopilotEndpoints,
} from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';
import { queryClient, readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { issuesOrMessage } from '@/lib/validation-issues';
import { autopilotPlansKey } from './get-autopilot-plan';
import { autopilotSettingsKey } from './get-autopilot-settings';

/** Stored, or refused for its values: the server's issues, each shown on its field. */
export type SaveAutopilotResult = { ok: true; settings: AutopilotSettings } | { ok: false; issues: ValidationIssue[] };

/**
 * Stores the machine's autopilot mode and rules. A refusal of the values (400) is shown on the
 * form's fields; any other failure is the app's toast, and answers false.
 */
export async function saveAutopilotSettings(
  sprinklerId: number,
  body: AutopilotSettingsBody,
): Promise<SaveAutopilotResult | false> {
  const handlesFailure = (failure: ApiFailure) => failure.error?.code === 'validation_error';
  const result = await requestEndpoint(autopilotEndpoints.saveSettings, {
    params: { id: sprinklerId },
    body,
    handlesFailure,
  });
  if (result.ok) {
    queryClient.setQueryData(autopilotSettingsKey(sprinklerId), result.data);
    // The plan follows the mode and rules just stored.
    void readAgain({ queryKey: autopilotPlansKey(sprinklerId) });
    return { ok: true, settings: result.data };
  }
  if (result.failure.error?.code !== 'validation_error') return false;
  return { ok: false, issues: issuesOrMessage(result.failure.body, result.failure.error.message) };
}

export function useSaveAutopilotSettings() {
  return useAction(saveAutopilotSettings);
}
