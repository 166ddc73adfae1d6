import { type SprinklerListItem, SprinklerListResponseSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The machines the signed-in user may use (all of them for an administrator). */
export function getSprinklers(): Promise<SprinklerListItem[] | false> {
  return apiCall({ method: 'GET', path: '/sprinkler/', response: SprinklerListResponseSchema });
}

/**
 * The list as fresh as `maxAgeMs`: the table pages, sorts and searches it in the browser (the
 * call answers every machine at once), and asks again only when the copy is older.
 */
export async function getFreshSprinklers(maxAgeMs: number): Promise<SprinklerListItem[] | false> {
  const cached = queryClient.getQueryState<SprinklerListItem[]>(sprinklerKeys.list);
  if (cached?.data && Date.now() - cached.dataUpdatedAt < maxAgeMs) return cached.data;
  const fresh = await getSprinklers();
  if (fresh) queryClient.setQueryData(sprinklerKeys.list, fresh);
  return fresh;
}
