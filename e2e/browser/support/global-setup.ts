import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { freePort, startServer } from '../../support/server-process';
import { ADMIN, SERVER_ENV, workerServerEnv } from './environment';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the web app and starts one real server for each of the run's workers (as `npm start`
 * does, on a fresh data folder, with the demo fleet, its autopilot looking every 2 s): a worker's
 * tests meet only their own server, as they would alone, and find it through the environment
 * (environment.ts, by the worker's parallel index). Each embedded broker gets a known port, so
 * tests can connect simulated machines of their own.
 * The build goes to a folder of this run's own (WEB_DIST_DIR), so a build started meanwhile
 * (another run, `npm run build`) cannot pull the pages from under the tests.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const webDist = await mkdtemp(path.join(os.tmpdir(), 'pivot-e2e-web-'));
  execFileSync(
    'npm',
    ['run', 'build', '-w', '@pivot/web', '--', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'],
    { cwd: repositoryRoot, stdio: 'inherit' },
  );
  process.env[SERVER_ENV.webDistDir] = webDist;
  const servers = await Promise.all(
    Array.from({ length: config.workers }, async (_, slot) => {
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
      process.env[workerServerEnv(SERVER_ENV.baseUrl, slot)] = server.baseUrl;
      process.env[workerServerEnv(SERVER_ENV.dataDir, slot)] = server.dataDir;
      process.env[workerServerEnv(SERVER_ENV.mqttUrl, slot)] = server.mqttUrl!;
      process.env[workerServerEnv(SERVER_ENV.webhookReceiverPort, slot)] = String(webhookReceiverPort);
      return server;
    }),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(webDist, { recursive: true, force: true });
  };
}
