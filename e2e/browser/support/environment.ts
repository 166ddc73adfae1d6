/** The administrator the test server starts with. */
export const ADMIN = { email: 'admin@pivot.test', password: 'Admin-Password-1!' } as const;

/** Where the global setup leaves the address and data folder of the server it started. */
export const SERVER_ENV = { baseUrl: 'PIVOT_E2E_BASE_URL', dataDir: 'PIVOT_E2E_DATA_DIR' } as const;

export function serverFromEnvironment(): { baseUrl: string; dataDir: string } {
  const baseUrl = process.env[SERVER_ENV.baseUrl];
  const dataDir = process.env[SERVER_ENV.dataDir];
  if (!baseUrl || !dataDir)
    throw new Error('The browser tests run through playwright.config.ts, which starts the server');
  return { baseUrl, dataDir };
}
