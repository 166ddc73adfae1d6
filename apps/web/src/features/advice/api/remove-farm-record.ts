import { adviceEndpoints } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { farmRecordsKey } from './get-farm-records';
import { waterBalanceKey } from './get-water-balance';

/** Removes a record; the balance is asked again, without it. */
export async function removeFarmRecord(sprinklerId: number, recordId: number): Promise<boolean> {
  const removed = await requestEndpoint(adviceEndpoints.removeFarmRecord, { params: { id: sprinklerId, recordId } });
  if (!removed.ok) return false;
  void readAgain({ queryKey: farmRecordsKey(sprinklerId) });
  void readAgain({ queryKey: waterBalanceKey(sprinklerId) });
  return true;
}

export function useRemoveFarmRecord() {
  return useAction(removeFarmRecord);
}
