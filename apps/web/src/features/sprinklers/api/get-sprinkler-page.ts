import type { EndpointQueryInput, SprinklerPage, sprinklersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { keepWhileOffline } from '@/lib/connection';
import { queryClient } from '@/lib/query-client';
import { MACHINE_PAGES_KEY } from '../hooks/use-live-machine-list';
import { decodeMachinePage } from './decode-machines';

export type SprinklerPageInput = EndpointQueryInput<typeof sprinklersEndpoints.page>;

/** Read first on the machines list: its answer is checked once the schemas have come (lib/checked-later.ts). */
const pageEndpoint = laterEndpoint(
  (contracts) => contracts.sprinklersEndpoints.page,
  'GET',
  '/sprinkler/page/',
  decodeMachinePage,
);

/**
 * One page of the machines the signed-in user may use (all of them for an administrator), sorted,
 * searched and filtered by the server; the search also finds the states as this page words them
 * (the client sends the page's language). Without a connection, the table keeps the page it shows.
 * An answer refused once checked is taken back as a failed call's.
 */
export function getSprinklerPage(query: SprinklerPageInput): Promise<SprinklerPage | false> {
  return keepWhileOffline(
    callEndpoint(pageEndpoint, {
      query,
      refusedLater: () => queryClient.setQueriesData({ queryKey: MACHINE_PAGES_KEY }, false),
    }),
  );
}
