import type { SprinklerDetail } from '@pivot/contracts';
import { queryClient } from './query-client';

/**
 * The machine detail is read by the machine screens and changed by the programs feature (every
 * program call answers the new detail): both go through this one cache entry.
 */
export const sprinklerKeys = {
  all: ['sprinklers'] as const,
  list: ['sprinklers', 'list'] as const,
  detail: (id: number) => ['sprinklers', 'detail', id] as const,
};

/** Puts a detail the server answered into the cache, so every screen showing it updates at once. */
export function storeSprinklerDetail(detail: SprinklerDetail): void {
  queryClient.setQueryData(sprinklerKeys.detail(detail.id), detail);
}
