import { type ServerProcess, startServer } from '../support/server-process';
import { expect, test } from './support/fixtures';
import { ADMIN, webAppFromEnvironment } from './support/environment';

const ACCESS_TOKEN_TTL_SECONDS = 5;

/**
 * A server of its own whose access tokens expire almost at once. Without the demo fleet: storing
 * and packing its history takes 45 s of processor time, which the session has no use for.
 */
let server: ServerProcess;
test.beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_FLEET: 'false',
    ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS),
    WEB_DIST_DIR: webAppFromEnvironment(),
  });
});
test.afterAll(() => server?.stop());

const isRefresh = (url: string) => url.endsWith('/api/user/refresh-token/');

test('the session goes on through refreshes when the access token expires, in two tabs at once', async ({
  context,
}) => {
  const first = await context.newPage();
  await first.goto(`${server.baseUrl}/login?redirect=%2Fdashboard%2Faccount`);
  await first.getByLabel('Email').fill(ADMIN.email);
  await first.getByLabel('Hasło', { exact: true }).fill(ADMIN.password);
  await first.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(first.getByRole('heading', { level: 1, name: 'Konto' })).toBeVisible();
  const second = await context.newPage();
  await second.goto(`${server.baseUrl}/dashboard/account`);
  await expect(second.getByRole('heading', { level: 1, name: 'Konto' })).toBeVisible();

  const refreshes: string[] = [];
  // Every refused call, told should a tab lose its session: which call, and which refresh failed.
  const refused: string[] = [];
  context.on('response', (response) => {
    if (isRefresh(response.url())) refreshes.push(`${response.status()}`);
    if (response.status() === 401 || isRefresh(response.url()))
      refused.push(`${new Date().toISOString()} ${response.status()} ${new URL(response.url()).pathname}`);
  });
  context.on('requestfailed', (request) => {
    refused.push(
      `${new Date().toISOString()} no answer ${new URL(request.url()).pathname}: ${request.failure()?.errorText}`,
    );
  });
  await first.waitForTimeout((ACCESS_TOKEN_TTL_SECONDS + 1.5) * 1000);

  // Both tabs call the API with expired tokens together; the Web Locks API lets them renew one at a time.
  await Promise.all([first, second].map((page) => page.getByRole('link', { name: 'Pivot – strona główna' }).click()));
  for (const page of [first, second]) {
    await page.getByRole('link', { name: /Aktywność/ }).click();
    // Its answer, not the row that says it is loading or failed: it comes only after the refresh
    // (an administrator's sign-ins are not entries: the row says there are none yet). Polled with
    // the address, so that a failure tells a lost session (the login page) from a slow one; a
    // loaded host (CI's two cores beside the other worker's screens) may take past the default wait.
    const table = page.getByRole('table', { name: 'Aktywność konta' });
    const shown = async () => ({
      url: page.url(),
      answered:
        (await table.getByRole('row').count()) > 1 &&
        (await table.getByText(/^(Ładowanie…|Nie udało się wczytać danych)$/).count()) === 0,
    });
    await expect
      .poll(shown, { timeout: 20_000 })
      .toEqual({ url: `${server.baseUrl}/dashboard/activity`, answered: true })
      .catch((error: unknown) => {
        throw new Error(`refreshes: ${refreshes.join()}; refused: ${refused.join(', ')}`, { cause: error });
      });
  }
  // Renewed, and never refused: a refused refresh would mean two tabs had sent the same token.
  // The test hears of answers a moment after the pages have used them.
  await expect.poll(() => refreshes.length).toBeGreaterThan(0);
  expect(
    refreshes.every((status) => status === '200'),
    refreshes.join(),
  ).toBe(true);
  await expect(first.getByRole('alert')).toHaveCount(0);
});
