import { type BrokerAccountsStatus, devicesEndpoints } from '@pivot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** While the server compares the broker's accounts with the controllers, it is asked this often how far it is. */
const PROGRESS_POLL_MS = 1000;

/** The broker's accounts as the server last found them, and a restoration under way. */
export function getBrokerAccounts(): Promise<BrokerAccountsStatus | false> {
  return callEndpoint(devicesEndpoints.accounts, {});
}

export function brokerAccountsQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.brokerAccounts,
    queryFn: getBrokerAccounts,
    refetchInterval: (query) => (query.state.data && query.state.data.running ? PROGRESS_POLL_MS : false),
  });
}
