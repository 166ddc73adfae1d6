import { type BrokerAccountsStatus, devicesEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { adminKeys } from './admin-keys';

/**
 * Asks the server to make again every controller's account the broker lacks; it answers at once
 * with the restoration started, whose progress the status query then follows.
 */
export async function restoreBrokerAccounts(): Promise<BrokerAccountsStatus | false> {
  const status = await callEndpoint(devicesEndpoints.restoreAccounts, {});
  if (status) queryClient.setQueryData(adminKeys.brokerAccounts, status);
  return status;
}

export function useRestoreBrokerAccounts() {
  return useAction(restoreBrokerAccounts);
}
