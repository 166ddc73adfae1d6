/** The administrator the test server starts with. */
export const ADMIN = { email: 'admin@pivot.test', password: 'Admin-Password-1!' } as const;

/** Where the global setup leaves the address, data folder and broker address of the server it started. */
export const SERVER_ENV = {
  baseUrl: 'PIVOT_E2E_BASE_URL',
  dataDir: 'PIVOT_E2E_DATA_DIR',
  mqttUrl: 'PIVOT_E2E_MQTT_URL',
} as const;

export function serverFromEnvironment(): { baseUrl: string; dataDir: string } {
  const baseUrl = process.env[SERVER_ENV.baseUrl];
  const dataDir = process.env[SERVER_ENV.dataDir];
  if (!baseUrl || !dataDir)
    throw new Error('The browser tests run through playwright.config.ts, which starts the server');
  return { baseUrl, dataDir };
}

/** The server's embedded MQTT broker, where tests start simulated machines of their own. */
export function brokerFromEnvironment(): string {
  const mqttUrl = process.env[SERVER_ENV.mqttUrl];
  if (!mqttUrl) throw new Error('The browser tests run through playwright.config.ts, which starts the server');
  return mqttUrl;
}
