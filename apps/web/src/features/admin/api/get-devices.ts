import { type Device, type DeviceListResponse, devicesEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** Every registered machine controller, with when it last connected; never a secret. */
export function getDevices(): Promise<DeviceListResponse | false> {
  return callEndpoint(devicesEndpoints.list, {});
}

export function devicesQueryOptions() {
  return queryOptions({ queryKey: adminKeys.devices, queryFn: getDevices });
}

/**
 * The registered controllers by machine ID: undefined while loading, null when the call failed
 * (it has shown its error).
 */
export function useDevicesByMachineId(): ReadonlyMap<string, Device> | null | undefined {
  const { data } = useQuery(devicesQueryOptions());
  if (data === undefined) return undefined;
  return data ? new Map(data.map((device) => [device.machineId, device])) : null;
}
