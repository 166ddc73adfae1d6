import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../src/gateway/embedded-broker';
import { ControllersInMemory, policyFor } from '../support/devices';

const run = promisify(execFile);

/** Controllers in the field connect over TLS, with their credentials as on the plain port. */
describe('the embedded broker’s TLS listener', () => {
  let folder: string;
  let broker: EmbeddedBroker;
  let certificate: Buffer;
  const controllers = new ControllersInMemory();
  const secret = controllers.add('FIELD-1');

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-tls-'));
    const [certFile, keyFile] = [path.join(folder, 'broker.crt'), path.join(folder, 'broker.key')];
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
    ]);
    certificate = await readFile(certFile);
    broker = await startEmbeddedBroker({
      port: 0,
      host: '127.0.0.1',
      policy: policyFor(controllers),
      tls: { port: 0, certFile, keyFile },
    });
  });
  afterAll(async () => {
    await broker.close();
    await rm(folder, { recursive: true, force: true });
  });

  const connect = (options: mqtt.IClientOptions) =>
    mqtt.connectAsync(`mqtts://127.0.0.1:${broker.tlsPort}`, { ca: certificate, reconnectPeriod: 0, ...options });

  it('lets a registered controller in over TLS, checking the broker’s certificate', async () => {
    const client = await connect({ clientId: 'FIELD-1', username: 'FIELD-1', password: secret });
    expect(client.connected).toBe(true);
    await client.endAsync();
    expect(controllers.connections).toEqual([{ machineId: 'FIELD-1', address: '127.0.0.1' }]);
  });

  it('refuses anonymous and wrong credentials there too', async () => {
    await expect(connect({ clientId: 'FIELD-1' })).rejects.toThrow(/Not authorized/);
    await expect(connect({ clientId: 'FIELD-1', username: 'FIELD-1', password: 'guess' })).rejects.toThrow(
      /Not authorized/,
    );
  });
});
