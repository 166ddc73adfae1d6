import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { topics } from '@pivot/contracts';
import mqtt from 'mqtt';
import { ADMIN, brokerFromEnvironment } from './support/environment';
import { expect, expectAccessible, signIn, test } from './support/fixtures';
import { uniqueMachineId } from './support/machines';

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/**
 * A poison report from a registered controller appears in the administrators' rejected messages,
 * as text: one report, then each language and colour mode and the phone as a test of its own.
 */
const machineId = uniqueMachineId('POISON');
// A NUL in the alarm breaks the protocol; the markup must reach the screen as text.
const report = {
  v: 1,
  ts: Date.now(),
  status: 'alarm',
  angle: 10,
  distance: 400,
  speed: 0,
  pressure: 0,
  flow: 0,
  alarm: '<img src=x onerror=alert(1)>\u0000',
};

test.beforeAll(async ({ admin }) => {
  const registered = await admin.call('POST', '/api/device/', { machineId });
  expect(registered.status).toBe(201);
  const controller = await mqtt.connectAsync(brokerFromEnvironment(), {
    protocolVersion: 4,
    clientId: machineId,
    username: machineId,
    password: (registered.body as { secret: string }).secret,
  });
  await controller.publishAsync(topics.telemetry(machineId), JSON.stringify(report), { qos: 1 });
  await controller.endAsync();
});

for (const [locale, path, texts] of [
  [
    'pl',
    '/admin/rejected-messages',
    {
      title: 'Odrzucone wiadomości',
      tab: 'Odrzucone',
      reason: 'Nieprawidłowa treść',
      detail: 'alarm: niewłaściwy format',
    },
  ],
  [
    'en',
    '/en/admin/rejected-messages',
    { title: 'Rejected messages', tab: 'Rejected', reason: 'Invalid content', detail: 'alarm: wrong format' },
  ],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the poison report is listed as text (${locale}, ${scheme})`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({
        baseURL,
        colorScheme: scheme,
        viewport: { width: 1280, height: 800 },
      });
      const page = await context.newPage();
      await signIn(page, ADMIN, path);
      await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();
      await expect(page.getByRole('link', { name: texts.tab, exact: true })).toHaveAttribute('aria-current', 'page');
      const table = page.getByRole('table', { name: texts.title });
      const row = table.getByRole('row').filter({ hasText: machineId });
      await expect(row).toContainText(texts.reason);
      // The detail in the page's language; the server's own English words on hover.
      await expect(row.getByText(texts.detail)).toHaveAttribute('title', 'alarm: Control characters are not allowed');
      await expect(row.locator('pre')).toHaveText(JSON.stringify(report));
      await expect(table.locator('img')).toHaveCount(0);
      await page.screenshot({ path: `${SCREENSHOTS}rejected-messages-${locale}-${scheme}.png`, fullPage: true });
      await expectAccessible(page, `rejected messages (${locale}, ${scheme})`);
      await context.close();
    });
  }
}

test('on a phone each rejected message is a card, and the panel’s tabs still fit beside each other', async ({
  browser,
  baseURL,
}) => {
  const phone = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await phone.newPage();
  await signIn(page, ADMIN, '/admin/rejected-messages');
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: machineId })).toContainText(
    'Nieprawidłowa treść',
  );
  const tabs = page.getByRole('navigation', { name: 'Panel administracyjny' });
  await page.screenshot({ path: `${SCREENSHOTS}rejected-messages-pl-light-phone.png`, fullPage: true });
  expect(await tabs.evaluate((nav) => nav.scrollWidth <= nav.clientWidth)).toBe(true);
  await expectAccessible(page, 'rejected messages (phone)');
  await phone.close();
});
