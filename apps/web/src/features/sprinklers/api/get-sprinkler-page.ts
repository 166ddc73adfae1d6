import { type EndpointQueryInput, type SprinklerPage, sprinklersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { keepWhileOffline } from '@/lib/connection';

export type SprinklerPageInput = EndpointQueryInput<typeof sprinklersEndpoints.page>;

/**
 * One page of the machines the signed-in user may use (all of them for an administrator), sorted,
 * searched and filtered by the server; the search also finds the states as this page words them
 * (the client sends the page's language). Without a connection, the table keeps the page it shows.
 */
export function getSprinklerPage(query: SprinklerPageInput): Promise<SprinklerPage | false> {
  return keepWhileOffline(callEndpoint(sprinklersEndpoints.page, { query }));
}
