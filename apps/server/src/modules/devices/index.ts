import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { brokerQuestionsRoutes } from './broker-questions.routes';
import { devicesRoutes } from './devices.routes';
import { DevicesService } from './devices.service';

declare module 'fastify' {
  interface FastifyInstance {
    devices: DevicesService;
  }
}

export type { DevicesService } from './devices.service';

/**
 * Machine controllers' credentials for the broker: administrators register a controller and get
 * its secret once; the broker policy asks here who may connect, and only registered
 * controllers' reports are taken (docs/protocol.md, "Security").
 */
export const devicesModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'mqttDeviceAuth' | 'mqttAuthHttpSecret'>) => {
    const devices = new DevicesService({
      db: app.database.db,
      logs: app.logs,
      policy: app.brokerPolicy,
      gateway: app.gateway,
      accounts: app.brokerAccounts,
      disconnect: app.disconnectDevice,
      logger: app.log,
    });
    app.decorate('devices', devices);
    // Read now, before the gateway subscribes on ready: the retained reports that arrive first are judged by the table.
    await devices.start();
    app.brokerPolicy.trust(devices);
    app.addHook('onClose', async () => devices.stop());
    await app.register(devicesRoutes, { prefix: '/api', devices });
    if (config.mqttDeviceAuth === 'http' && config.mqttAuthHttpSecret) {
      await app.register(brokerQuestionsRoutes, {
        prefix: '/api',
        policy: app.brokerPolicy,
        secret: config.mqttAuthHttpSecret,
      });
    }
  },
  { name: 'devices', dependencies: ['database', 'machine-gateway', 'authentication', 'logs'] },
);
