import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startServer } from '../../support/server-process';
import { ADMIN, SERVER_ENV } from './environment';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the web app and starts one real server for the whole run (as `npm start` does, on a
 * fresh data folder, with the demo fleet, its autopilot looking every 2 s); the tests find it
 * through the environment. Its embedded broker gets a known port, so tests can connect simulated
 * machines of their own.
 * The build goes to a folder of this run's own (WEB_DIST_DIR), so a build started meanwhile
 * (another run, `npm run build`) cannot pull the pages from under the tests.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const webDist = await mkdtemp(path.join(os.tmpdir(), 'pivot-e2e-web-'));
  execFileSync(
    'npm',
    ['run', 'build', '-w', '@pivot/web', '--', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'],
    { cwd: repositoryRoot, stdio: 'inherit' },
  );
  const webhookReceiverPort = await freePort();
  const server = await startServer({
    OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${webhookReceiverPort}`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    MQTT_PORT: String(await freePort()),
    WEB_DIST_DIR: webDist,
    // The autopilot looks every 2 s, not every 10 minutes, so a test sees it at work
    // (autopilot.spec.ts); it looks only at machines set to suggest or auto.
    AUTOPILOT_LOOK_SECONDS: '2',
  });
  process.env[SERVER_ENV.baseUrl] = server.baseUrl;
  process.env[SERVER_ENV.dataDir] = server.dataDir;
  process.env[SERVER_ENV.mqttUrl] = server.mqttUrl!;
  process.env[SERVER_ENV.webDistDir] = webDist;
  process.env[SERVER_ENV.webhookReceiverPort] = String(webhookReceiverPort);
  return async () => {
    await server.stop();
    await rm(webDist, { recursive: true, force: true });
  };
}
