import {
  BrokerAccountsStatusSchema,
  DeviceListResponseSchema,
  DeviceParamsSchema,
  DeviceSecretResponseSchema,
  RegisterDeviceBodySchema,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientInfo, signedIn } from '../../http/request-context';
import type { DevicesService } from './devices.service';

/**
 * The administrators' calls: list controllers, register one, give it a new secret, remove it;
 * give the broker back the accounts it lost, and watch that.
 */
export const devicesRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (app, { devices }) => {
  const admin = { access: 'admin' as const };

  app.get(
    '/device/',
    { config: admin, schema: { tags: ['devices'], response: { 200: DeviceListResponseSchema } } },
    async () => devices.list(),
  );

  app.post(
    '/device/',
    {
      config: admin,
      schema: { tags: ['devices'], body: RegisterDeviceBodySchema, response: { 201: DeviceSecretResponseSchema } },
    },
    async (request, reply) => {
      const { machineId, adoptBrokerAccount } = request.body;
      const created = await devices.register(signedIn(request).user, machineId, clientInfo(request), {
        adoptBrokerAccount,
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/device/accounts/',
    { config: admin, schema: { tags: ['devices'], response: { 200: BrokerAccountsStatusSchema } } },
    async () => devices.accountsStatus(),
  );

  app.post(
    '/device/accounts/restore/',
    { config: admin, schema: { tags: ['devices'], response: { 202: BrokerAccountsStatusSchema } } },
    async (_request, reply) => reply.status(202).send(devices.startRestoringAccounts()),
  );

  app.post(
    '/device/:machineId/secret/',
    {
      config: admin,
      schema: { tags: ['devices'], params: DeviceParamsSchema, response: { 200: DeviceSecretResponseSchema } },
    },
    async (request) => devices.replaceSecret(signedIn(request).user, request.params.machineId, clientInfo(request)),
  );

  app.delete(
    '/device/:machineId/',
    { config: admin, schema: { tags: ['devices'], params: DeviceParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await devices.remove(signedIn(request).user, request.params.machineId, clientInfo(request));
      return reply.status(204).send(null);
    },
  );
};
