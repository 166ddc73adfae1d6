import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { BrokerAccounts } from '../gateway/broker-accounts';
import { BrokerPolicy } from '../gateway/broker-policy';
import { startEmbeddedBroker } from '../gateway/embedded-broker';
import { emqxDisconnector } from '../gateway/emqx-clients';
import { MosquittoDynamicSecurity } from '../gateway/mosquitto-dynamic-security';
import { MqttGateway } from '../gateway/mqtt-gateway';
import { ReceiptJournal } from '../gateway/receipt-journal';

declare module 'fastify' {
  interface FastifyInstance {
    /** The machines' side: modules give it their message handlers and send commands through it. */
    gateway: MqttGateway;
    /** The broker machines connect to: MQTT_URL, or the embedded one. */
    mqttUrl: string;
    /** Who may connect, publish and subscribe; the devices module tells it the controllers. */
    brokerPolicy: BrokerPolicy;
    /** Where the broker keeps controllers' accounts of its own (Mosquitto's dynamic security); undefined elsewhere. */
    brokerAccounts: BrokerAccounts | undefined;
    /** Drops a controller's live connection: on the embedded broker, or through EMQX's API; undefined elsewhere. */
    disconnectDevice: ((machineId: string) => Promise<void>) | undefined;
  }
}

type GatewayConfig = Pick<
  Config,
  | 'mqttUrl'
  | 'mqttPort'
  | 'mqttHost'
  | 'mqttTls'
  | 'mqttServerCredentials'
  | 'mqttDeviceAuth'
  | 'emqxApi'
  | 'serverId'
  | 'mqttSharedGroup'
  | 'commandTimeoutMs'
  | 'mqttSessionExpirySeconds'
  | 'dataDir'
>;

/** Mosquitto's dynamic security when the server manages it; elsewhere the broker asks the server, or the operator manages accounts. */
async function openBrokerAccounts(
  config: GatewayConfig,
  logger: FastifyBaseLogger,
): Promise<BrokerAccounts | undefined> {
  if (config.mqttDeviceAuth !== 'mosquitto-dynsec' || !config.mqttUrl) return undefined;
  return MosquittoDynamicSecurity.connect({
    url: config.mqttUrl,
    ...config.mqttServerCredentials,
    clientId: `${config.mqttServerCredentials.username}-${config.serverId}-accounts`,
    logger,
  });
}

/**
 * The broker and the gateway to it. Modules register their message handlers while they load;
 * the gateway subscribes once all have, when the app is ready, so no retained message arrives
 * before its handler. It stops listening before the modules close, so nothing arrives after.
 */
export const machineGatewayPlugin = fp(
  async (app: FastifyInstance, config: GatewayConfig) => {
    const policy = new BrokerPolicy(config.mqttServerCredentials);
    const broker = config.mqttUrl
      ? undefined
      : await startEmbeddedBroker({
          port: config.mqttPort,
          host: config.mqttHost,
          policy,
          tls: config.mqttTls,
          // Not before the server's own connection has subscribed: see admitDevices.
          admitDevicesAtOnce: false,
        });
    const mqttUrl = config.mqttUrl ?? broker!.url;
    const gateway = new MqttGateway({
      url: broker?.serverUrl ?? mqttUrl,
      credentials: config.mqttServerCredentials,
      serverId: config.serverId,
      sharedGroup: config.mqttSharedGroup,
      commandTimeoutMs: config.commandTimeoutMs,
      sessionExpirySeconds: config.mqttSessionExpirySeconds,
      // aedes, the embedded broker, speaks MQTT 3.1.1 only.
      tryMqtt5: Boolean(config.mqttUrl),
      journal: ReceiptJournal.open(path.join(config.dataDir, 'receipts', config.serverId)),
      admits: (machineId) => policy.admits(machineId),
      logger: app.log,
    });
    const accounts = await openBrokerAccounts(config, app.log);
    if (config.mqttDeviceAuth === 'broker') {
      app.log.warn(
        'MQTT_DEVICE_AUTH=broker: the broker at MQTT_URL must refuse unknown controllers itself (docs/operations.md)',
      );
    }
    if (config.mqttDeviceAuth === 'http' && !config.emqxApi) {
      app.log.warn('Without EMQX_API_URL a controller given a new secret stays connected until it reconnects');
    }
    const emqx =
      config.mqttDeviceAuth === 'http' && config.emqxApi ? emqxDisconnector(config.emqxApi, app.log) : undefined;
    app.decorate('gateway', gateway);
    app.decorate('mqttUrl', mqttUrl);
    app.decorate('brokerPolicy', policy);
    app.decorate('brokerAccounts', accounts);
    app.decorate('disconnectDevice', broker?.disconnect ?? emqx);
    app.addHook('onReady', async () => {
      await gateway.start();
      if (broker) {
        // The embedded broker starts empty: no controller is connected until it is let in.
        await gateway.noneConnected();
        broker.admitDevices();
      }
    });
    app.addHook('preClose', () => gateway.close());
    app.addHook('onClose', async () => {
      await accounts?.close();
      await broker?.close();
    });
  },
  { name: 'machine-gateway' },
);
