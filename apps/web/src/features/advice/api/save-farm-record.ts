import {
  type ErrorCode,
  type FarmRecord,
  type FarmRecordBody,
  type ValidationIssue,
  adviceEndpoints,
} from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { issuesOrMessage } from '@/lib/validation-issues';
import { farmRecordsKey } from './get-farm-records';
import { waterBalanceKey } from './get-water-balance';

/** Stored, or refused with the code (its message is the page's) and the fields it concerns. */
export type SaveFarmRecordResult =
  { ok: true; record: FarmRecord } | { ok: false; code: ErrorCode; issues: ValidationIssue[] };

/** The answers the record's form shows on its fields rather than as a toast. */
const SHOWN_ON_FIELDS = new Set([
  'validation_error',
  'record_date_in_future',
  'record_area_not_found',
  'probe_not_found',
]);

/**
 * Stores a record (a new one, or `recordId`'s new values). The balance reads records at every
 * answer, so it is asked again at once: the advice card shows the record's effect.
 */
export async function saveFarmRecord(
  sprinklerId: number,
  recordId: number | null,
  body: FarmRecordBody,
): Promise<SaveFarmRecordResult | false> {
  const handlesFailure = (failure: ApiFailure) => failure.error !== null && SHOWN_ON_FIELDS.has(failure.error.code);
  const result =
    recordId === null
      ? await requestEndpoint(adviceEndpoints.addFarmRecord, { params: { id: sprinklerId }, body, handlesFailure })
      : await requestEndpoint(adviceEndpoints.updateFarmRecord, {
          params: { id: sprinklerId, recordId },
          body,
          handlesFailure,
        });
  if (result.ok) {
    void readAgain({ queryKey: farmRecordsKey(sprinklerId) });
    void readAgain({ queryKey: waterBalanceKey(sprinklerId) });
    return { ok: true, record: result.data };
  }
  const { error, body: answer } = result.failure;
  if (!error || !SHOWN_ON_FIELDS.has(error.code)) return false;
  // A refusal without a field (a day after today) is the date's.
  return { ok: false, code: error.code, issues: issuesOrMessage(answer, error.message, 'body.date') };
}

export function useSaveFarmRecord() {
  return useAction(saveFarmRecord);
}
