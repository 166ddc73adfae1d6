import os from 'node:os';
import { type ServerProcess, startServer } from '../support/server-process';
import { ADMIN, webAppFromEnvironment } from './support/environment';
import { expect, test } from './support/fixtures';

/**
 * Issue 12: a farm runs the server on a machine of its own network and opens it at
 * http://<that machine's address>:<port>, without https. The page must load and work there: the
 * browser must not be told to fetch its scripts over https (upgrade-insecure-requests, HSTS).
 */

/** This machine's first IPv4 address that is not loopback, as a browser elsewhere on the network reaches it. */
function networkAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .find((address) => address.family === 'IPv4' && !address.internal)?.address;
}

const address = networkAddress();
let server: ServerProcess | undefined;

test.describe('the product at its network address over plain http', () => {
  test.beforeAll(async () => {
    // What this test proves needs an address other than loopback: without one it fails, never passes unseen.
    if (!address) throw new Error('this machine has no network address other than loopback to open the product at');
    // Listening on every address, as `npm start` does by default (HOST=0.0.0.0).
    server = await startServer({
      HOST: '0.0.0.0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_FLEET: 'false',
      WEB_DIST_DIR: webAppFromEnvironment(),
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('renders the login page, and signing in works', async ({ page }) => {
    const origin = `http://${address}:${new URL(server!.baseUrl).port}`;
    const httpsRequests: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`https://${address}`)) httpsRequests.push(request.url());
    });
    page.on('requestfailed', (request) => {
      const error = request.failure()?.errorText;
      // A reload ends the live streams the page had open (ERR_ABORTED); anything else is a failure.
      if (request.url().startsWith(origin) && error !== 'net::ERR_ABORTED') failures.push(`${request.url()}: ${error}`);
    });

    const answer = await page.goto(`${origin}/login`);
    expect(answer?.status()).toBe(200);
    const headers = await answer!.allHeaders();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();

    await expect(page.getByRole('heading', { level: 1, name: 'Zaloguj się' })).toBeVisible();
    // Not a secure context: the browser offers no service worker here, and the app runs without one.
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);

    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Hasło', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Zaloguj się' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dzień dobry, Admin' })).toBeVisible();
    expect(page.url()).toBe(`${origin}/`);
    // Signed in over http: the session survives a reload (the refresh cookie is not Secure).
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dzień dobry, Admin' })).toBeVisible();

    expect(httpsRequests).toEqual([]);
    expect(failures).toEqual([]);
  });
});
