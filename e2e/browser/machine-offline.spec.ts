import type { Locator } from '@playwright/test';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

/** The colour a value in the machines table is written in. */
const colourOf = (value: Locator) => value.evaluate((element) => getComputedStyle(element).color);

test('a controller that falls silent goes offline on the open page, and the list shows its values as the last known', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser();
  const reporting = await startMachine({ motion: 'front' });
  await addAndGrant(admin, reporting, 'Pole przy drodze', farmer.id);
  const frozen = await startMachine({ motion: 'front' });
  const frozenId = await addAndGrant(admin, frozen, 'Pole za lasem', farmer.id);

  await signIn(page, farmer, `/sprinklers/${frozenId}`);
  const status = page.getByRole('region', { name: 'Stan' });
  await expect(status).toContainText('Połączona');
  await expect(status).toContainText('Do przodu');
  await expect(status.getByText('Ostatni odczyt')).toBeVisible();

  // The controller hangs with its connection open: the broker still has it connected, so no
  // event ever says it is gone. Three of its 5 s report intervals after its last report, the
  // page itself says so.
  frozen.freeze();
  await expect(status).toContainText('Bez łączności', { timeout: 20_000 });
  await expect(status).toContainText('jechała do przodu');
  await expect(status).not.toContainText('Połączona');
  await expect(status.getByText('Ostatnie znane wartości')).toBeVisible();
  await expect(status.getByRole('button', { name: /^\d+ sek\. temu$/ })).toBeVisible();
  await expect(page.locator('.leaflet-overlay-pane path[stroke="#f59e0b"]')).toHaveAttribute(
    'stroke-dasharray',
    '10 8',
  );
  await expectAccessible(page, 'machine page of a silent machine');

  await page.goto('/sprinklers');
  const table = page.getByRole('table', { name: 'Maszyny' });
  const frozenRow = table.getByRole('row').filter({ hasText: 'Pole za lasem' });
  const reportingRow = table.getByRole('row').filter({ hasText: 'Pole przy drodze' });
  await expect(frozenRow).toContainText('Bez łączności');
  await expect(frozenRow).toContainText('jechała do przodu');
  await expect(frozenRow).toContainText(/Ostatnie znane\s*\d+ sek\. temu/);
  await expect(reportingRow).toContainText('Do przodu');
  await expect(reportingRow).not.toContainText('Ostatnie znane');
  // Its values are still there, dimmed: written in another colour than a live machine's.
  const frozenPressure = frozenRow.getByText(/bar$/);
  await expect(frozenPressure).toBeVisible();
  expect(await colourOf(frozenPressure)).not.toBe(await colourOf(reportingRow.getByText(/bar$/)));
  await expectAccessible(page, 'machines list with a silent machine');

  // The exact time of its last report: on hover (title), and on a tap.
  const lastReport = frozenRow.getByRole('button', { name: /sek\. temu$/ });
  const exact = await lastReport.getAttribute('title');
  expect(exact).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
  await lastReport.click();
  await expect(lastReport).toHaveAttribute('aria-expanded', 'true');
  await expect(frozenRow.getByText(exact!)).toBeVisible();

  // It comes back to life: live again with its next report.
  frozen.unfreeze();
  await expect(frozenRow).toContainText('Do przodu');
  await expect(frozenRow).not.toContainText('Ostatnie znane');
});

test('a controller that drops off shows offline at once, with what it was last doing', async ({
  page,
  openMovingMachine,
}) => {
  const { machine, status } = await openMovingMachine('Riverside field', { language: 'en' });
  await expect(status).toContainText('Forward');

  // Its link fails: the broker publishes the controller's last will, and the page hears it.
  await machine.dropOff();
  await expect(status).toContainText('Offline', { timeout: 10_000 });
  await expect(status).toContainText('was moving forward');
  await expect(status.getByText('Last known values')).toBeVisible();
  await expect(status.getByRole('button', { name: /(sec\. ago|now)$/ })).toBeVisible();
  await expect(status).not.toContainText('Online');
  // No command can reach it: the motion buttons wait for it, and say why.
  const motion = page.getByRole('region', { name: 'Motion' });
  await expect(motion).toContainText('The machine is offline: no command can reach it.');
  for (const button of ['Forward', 'Reverse', 'Stop']) {
    await expect(motion.getByRole('button', { name: button })).toBeDisabled();
  }

  await page.goto('/en/sprinklers');
  const row = page.getByRole('table', { name: 'Machines' }).getByRole('row').filter({ hasText: 'Riverside field' });
  await expect(row).toContainText(/Offline\s*was moving forward/);
  await expect(row).toContainText(/Last known\s*(\d+ sec\. ago|now)/);

  // Back on the air: its presence and its first report make it live again on its page.
  await page.goBack();
  await expect(status).toContainText('Offline');
  await machine.comeBack();
  await expect(status).toContainText('Online');
  await expect(status).toContainText('Forward');
  await expect(status.getByText('Last report')).toBeVisible();
  await expect(motion.getByRole('button', { name: 'Forward' })).toBeEnabled();
  await expect(motion).not.toContainText('offline');
});
