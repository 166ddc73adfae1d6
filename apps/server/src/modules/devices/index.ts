import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { BrokerAccountRestoration } from './broker-account-restoration';
import { brokerQuestionsRoutes } from './broker-questions.routes';
import { SecretBox, sealingKey } from '../../secret-box';
import { devicesRoutes } from './devices.routes';
import { DevicesService } from './devices.service';

declare module 'fastify' {
  interface FastifyInstance {
    devices: DevicesService;
  }
}

export type { DevicesService } from './devices.service';
export { BrokerAccountRestoration } from './broker-account-restoration';

/**
 * Machine controllers' credentials for the broker: administrators register a controller and get
 * its secret once; the broker policy asks here who may connect, and only registered
 * controllers' reports are taken (docs/protocol.md, "Security").
 */
export const devicesModule = fp(
  async (
    app: FastifyInstance,
    config: Pick<Config, 'mqttDeviceAuth' | 'mqttAuthHttpSecret' | 'deviceSecretKey' | 'dataDir'>,
  ) => {
    const secretBox = new SecretBox(await sealingKey(config.deviceSecretKey, config.dataDir), 'device');
    const accounts = app.brokerAccounts;
    const devices = new DevicesService({
      db: app.database.db,
      logs: app.logs,
      policy: app.brokerPolicy,
      gateway: app.gateway,
      accounts,
      restoration:
        accounts &&
        new BrokerAccountRestoration({
          db: app.database.db,
          databaseKind: app.database.kind,
          accounts,
          box: secretBox,
          logger: app.log,
        }),
      disconnect: app.disconnectDevice,
      secretBox,
      logger: app.log,
    });
    app.decorate('devices', devices);
    // Read now, before the gateway subscribes on ready: the retained reports that arrive first are judged by the table.
    await devices.start();
    app.brokerPolicy.trust(devices);
    app.health.check(() => devices.accountProblems());
    app.addHook('onClose', () => devices.stop());
    await app.register(devicesRoutes, { prefix: '/api', devices });
    if (config.mqttDeviceAuth === 'http' && config.mqttAuthHttpSecret) {
      await app.register(brokerQuestionsRoutes, {
        prefix: '/api',
        policy: app.brokerPolicy,
        secret: config.mqttAuthHttpSecret,
      });
    }
  },
  { name: 'devices', dependencies: ['database', 'machine-gateway', 'authentication', 'logs', 'health'] },
);
