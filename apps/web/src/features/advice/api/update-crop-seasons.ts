import { type CropSeason, CropSeasonsSchema, type ValidationIssue, adviceEndpoints } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';
import { queryClient, readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { issuesOrMessage } from '@/lib/validation-issues';
import { zodInPageLanguage } from '@/lib/zod-language';
import { cropSeasonsKey } from './get-crop-seasons';
import { waterBalanceKey } from './get-water-balance';

/** What the form shows on its fields: the seasons stored, or the issues the server found with the body. */
export type UpdateCropSeasonsResult = { ok: true; seasons: CropSeason[] } | { ok: false; issues: ValidationIssue[] };

/** The answers a season form shows on its own fields rather than as a toast. */
const SHOWN_ON_FIELDS = new Set(['validation_error', 'crop_area_not_found']);

/**
 * Replaces the seasons of `year` (and of every year the body holds) with the body's; other years
 * stay untouched (docs/advice.md, "What PUT replaces"). Validation problems come back as issues
 * with their paths (`body.0.soil.fieldCapacity`) for the form; other failures are toasts.
 */
export async function updateCropSeasons(
  sprinklerId: number,
  year: number,
  seasons: CropSeason[],
): Promise<UpdateCropSeasonsResult | false> {
  // The rules between seasons (one per area and year, names apart) are the contract's too: told as the server would.
  zodInPageLanguage();
  const checked = CropSeasonsSchema.safeParse(seasons);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => ({
      path: ['body', ...issue.path].join('.'),
      message: issue.message,
    }));
    return { ok: false, issues };
  }
  const result = await requestEndpoint(adviceEndpoints.replaceCropSeasons, {
    params: { id: sprinklerId },
    query: { year },
    body: checked.data,
    handlesFailure: (failure) => failure.error !== null && SHOWN_ON_FIELDS.has(failure.error.code),
  });
  if (result.ok) {
    queryClient.setQueryData(cropSeasonsKey(sprinklerId), result.data);
    void readAgain({ queryKey: waterBalanceKey(sprinklerId) });
    return { ok: true, seasons: result.data };
  }
  const { error, body } = result.failure;
  if (!error || !SHOWN_ON_FIELDS.has(error.code)) return false;
  return { ok: false, issues: issuesOrMessage(body, error.message) };
}

export function useUpdateCropSeasons() {
  return useAction(updateCropSeasons);
}
