import { devicesEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { DevicesService } from './devices.service';

/**
 * The administrators' calls: list controllers, register one, give it a new secret, remove it;
 * give the broker back the accounts it lost, and watch that.
 */
export const devicesRoutes: FastifyPluginAsync<{ devices: DevicesService }> = async (app, { devices }) => {
  const admin = { access: 'admin' as const };

  endpointRoute(app, devicesEndpoints.list, admin, async () => devices.list());

  endpointRoute(app, devicesEndpoints.register, admin, async (request) => {
    const { machineId, adoptBrokerAccount } = request.body;
    return devices.register(signedIn(request).user, machineId, clientInfo(request), { adoptBrokerAccount });
  });

  endpointRoute(app, devicesEndpoints.accounts, admin, async () => devices.accountsStatus());

  endpointRoute(app, devicesEndpoints.restoreAccounts, admin, async () => devices.startRestoringAccounts());

  endpointRoute(app, devicesEndpoints.replaceSecret, admin, async (request) =>
    devices.replaceSecret(signedIn(request).user, request.params.machineId, clientInfo(request)),
  );

  endpointRoute(app, devicesEndpoints.remove, admin, async (request) =>
    devices.remove(signedIn(request).user, request.params.machineId, clientInfo(request)),
  );
};
