import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { startEmbeddedBroker } from '../gateway/embedded-broker';
import { MqttGateway } from '../gateway/mqtt-gateway';

declare module 'fastify' {
  interface FastifyInstance {
    /** The machines' side: modules give it their message handlers and send commands through it. */
    gateway: MqttGateway;
    /** The broker machines connect to: MQTT_URL, or the embedded one. */
    mqttUrl: string;
  }
}

type GatewayConfig = Pick<
  Config,
  'mqttUrl' | 'mqttPort' | 'mqttHost' | 'serverId' | 'mqttSharedGroup' | 'commandTimeoutMs'
>;

/**
 * The broker and the gateway to it. Modules register their message handlers while they load;
 * the gateway subscribes once all have, when the app is ready, so no retained message arrives
 * before its handler. It stops listening before the modules close, so nothing arrives after.
 */
export const machineGatewayPlugin = fp(
  async (app: FastifyInstance, config: GatewayConfig) => {
    const broker = config.mqttUrl
      ? undefined
      : await startEmbeddedBroker({ port: config.mqttPort, host: config.mqttHost });
    const mqttUrl = config.mqttUrl ?? broker!.url;
    const gateway = new MqttGateway({
      url: mqttUrl,
      serverId: config.serverId,
      sharedGroup: config.mqttSharedGroup,
      commandTimeoutMs: config.commandTimeoutMs,
      logger: app.log,
    });
    app.decorate('gateway', gateway);
    app.decorate('mqttUrl', mqttUrl);
    app.addHook('onReady', () => gateway.start());
    app.addHook('preClose', () => gateway.close());
    app.addHook('onClose', async () => {
      await broker?.close();
    });
  },
  { name: 'machine-gateway' },
);
