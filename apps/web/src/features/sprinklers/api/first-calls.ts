import type { SprinklerDetail, WatermapResponse } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { decodeMachine } from './decode-machines';

/*
 * The machine page's first reads, its detail and its watermap, without the page's libraries
 * (TanStack Query): app/routes.tsx asks for them as soon as the session's token is back, before
 * the page's code has come, and the page's queries take their answers (get-sprinkler.ts,
 * get-watermap.ts). Their answers are checked once the schemas have come (lib/checked-later.ts);
 * one refused then is taken back from the page's query as a failed call's.
 */

const detailEndpoint = laterEndpoint(
  (contracts) => contracts.sprinklersEndpoints.detail,
  'GET',
  '/sprinkler/:id/',
  decodeMachine,
);

const watermapEndpoint = laterEndpoint(
  (contracts) => contracts.machineHistoryEndpoints.watermap,
  'GET',
  '/sprinkler/:id/watermap/',
);

/**
 * A range of real days, the start not after the stop (dd.mm.yyyy): as the page's address gives it
 * (`historyWatermapRange`, through the date picker's `parseRange`), what WatermapQuerySchema takes.
 */
export type WatermapRange = { start: string; stop: string };

/** The names the early answers go by (lib/early-answers.ts). */
export const earlyDetail = (id: number) => `sprinkler/${id}`;
export const earlyWatermap = (id: number, range: WatermapRange) =>
  `sprinkler/${id}/watermap/${range.start}-${range.stop}`;

/** Sets a query's data to a failed read's, once the page's query client is there. */
async function takeBack(key: readonly unknown[]): Promise<void> {
  const { queryClient } = await import('@/lib/query-client');
  queryClient.setQueryData(key, false);
}

/** One machine with everything its screen shows; false when the call failed (its toast is shown). */
export function callSprinklerDetail(id: number): Promise<SprinklerDetail | false> {
  return callEndpoint(detailEndpoint, {
    params: { id },
    refusedLater: () => void takeBack(['sprinklers', 'detail', id]),
  });
}

/** The water the machine applied over a range (both days included). */
export function callWatermap(id: number, range: WatermapRange): Promise<WatermapResponse | false> {
  return callEndpoint(watermapEndpoint, {
    params: { id },
    query: { start: range.start, stop: range.stop },
    refusedLater: () => void takeBack(['sprinklers', 'detail', id, 'watermap', range]),
  });
}
