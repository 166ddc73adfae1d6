/** The administrator the test server starts with. */
export const ADMIN = { email: 'admin@pivot.test', password: 'Admin-Password-1!' } as const;

/**
 * Where the global setup leaves the built web app, and each worker's server's address, data
 * folder, broker address and webhook receiver port (workerServerEnv).
 */
export const SERVER_ENV = {
  baseUrl: 'PIVOT_E2E_BASE_URL',
  dataDir: 'PIVOT_E2E_DATA_DIR',
  mqttUrl: 'PIVOT_E2E_MQTT_URL',
  webDistDir: 'PIVOT_E2E_WEB_DIST_DIR',
  webhookReceiverPort: 'PIVOT_E2E_WEBHOOK_RECEIVER_PORT',
} as const;

/**
 * The variable holding `name` for the server of the worker in parallel slot `slot` (Playwright's
 * TEST_PARALLEL_INDEX, from 0 to the number of workers less one; kept by a worker started again).
 */
export function workerServerEnv(name: string, slot: number): string {
  return `${name}_${slot}`;
}

/** The value of `name` for this worker's own server. */
const ownServer = (name: string) => process.env[workerServerEnv(name, Number(process.env.TEST_PARALLEL_INDEX ?? 0))];

export function serverFromEnvironment(): { baseUrl: string; dataDir: string } {
  const baseUrl = ownServer(SERVER_ENV.baseUrl);
  const dataDir = ownServer(SERVER_ENV.dataDir);
  if (!baseUrl || !dataDir)
    throw new Error('The browser tests run through playwright.config.ts, which starts the server');
  return { baseUrl, dataDir };
}

/** The server's embedded MQTT broker, where tests start simulated machines of their own. */
export function brokerFromEnvironment(): string {
  const mqttUrl = ownServer(SERVER_ENV.mqttUrl);
  if (!mqttUrl) throw new Error('The browser tests run through playwright.config.ts, which starts the server');
  return mqttUrl;
}

/** The web app the global setup built: a test that starts a server of its own serves it too. */
export function webAppFromEnvironment(): string {
  const webDistDir = process.env[SERVER_ENV.webDistDir];
  if (!webDistDir) throw new Error('The browser tests run through playwright.config.ts, which builds the web app');
  return webDistDir;
}

/**
 * A port on 127.0.0.1 the server may send webhooks to (its OUTBOUND_ALLOWED_HOSTS names it), for
 * a test's own receiver; every other internal address stays refused.
 */
export function webhookReceiverPortFromEnvironment(): number {
  const port = Number(ownServer(SERVER_ENV.webhookReceiverPort));
  if (!port) throw new Error('The browser tests run through playwright.config.ts, which picks the port');
  return port;
}
