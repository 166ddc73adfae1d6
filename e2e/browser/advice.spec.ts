import type { SprinklerDetail } from '@pivot/contracts';
import type { Page, TestInfo } from '@playwright/test';
import type { HttpSession } from '../support/http-session';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';
import { detail, machine, openProgram, restoreMachine, toast } from './support/programs';

/** A week ago, as the season form's field takes it: the balance describes yesterday, so the season runs. */
function weekAgo(): string {
  const now = new Date(Date.now() - 7 * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(now.getDate())}.${pad(now.getMonth() + 1)}.${now.getFullYear()}`;
}

test('a farmer sets a crop season on the machine page and reads the advice; a watcher reads both, and changes nothing', async ({
  page,
  browser,
  admin,
  server,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser();
  const agronomist = await createUser({ firstName: 'Ewa', lastName: 'Agronom' });
  const machine = await startMachine();
  const name = `Pole ${machine.id}`;
  const id = await addAndGrant(admin, machine, name, farmer.id);
  const watch = await admin.call('PATCH', `/api/sprinkler/${id}/permissions/`, {
    user: agronomist.id,
    action: 'grant',
    level: 'watch',
  });
  expect(watch.status).toBe(200);

  await signIn(page, farmer, `/sprinklers/${id}`);
  const seasons = page.getByRole('region', { name: 'Sezony upraw' });
  await expect(seasons).toContainText(`Brak sezonu uprawy w roku ${new Date().getFullYear()}.`);
  const advice = page.getByRole('region', { name: 'Porady nawadniania' });
  await expect(advice).toContainText('nie trwa żaden sezon uprawy');

  // A season for the whole circle: winter wheat from a week ago, on a loamy sand with its own efficiency.
  await seasons.getByRole('button', { name: 'Dodaj sezon' }).click();
  let form = page.getByRole('dialog', { name: 'Nowy sezon uprawy' });
  await form.getByLabel('Nazwa').fill('Pszenica ozima');
  await form.getByLabel('Uprawa').selectOption({ label: 'Pszenica ozima' });
  await form.getByLabel('Data wschodów (lub siewu)').fill(weekAgo());
  await form.getByLabel('Gleba').selectOption('loamy-sand');
  await expect(form.getByLabel('Polowa pojemność wodna θFC, % obj.')).toHaveValue('15');
  await form.getByLabel('Sprawność nawadniania, % (opcjonalnie)').fill('90');
  await expectAccessible(page, 'crop season form');
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form).toBeHidden();
  await expect(seasons).toContainText('Całe koło · Pszenica ozima');
  // The season runs; the advice now names what it lacks, or gives its numbers.
  await expect(advice).not.toContainText('nie trwa żaden sezon uprawy');
  await expect(advice).toContainText(/stacja pogodowa|Pszenica ozima/);

  // A second season for the whole circle in the same year: refused on the field, in Polish.
  await seasons.getByRole('button', { name: 'Dodaj sezon' }).click();
  form = page.getByRole('dialog', { name: 'Nowy sezon uprawy' });
  await form.getByLabel('Nazwa').fill('Soja');
  await form.getByLabel('Uprawa').selectOption({ label: 'Soja' });
  await form.getByLabel('Data wschodów (lub siewu)').fill(weekAgo());
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form.getByText('Ten obszar ma już sezon w tym roku')).toBeVisible();
  await form.getByRole('button', { name: 'Anuluj' }).click();

  const stored = await admin.call('GET', `/api/sprinkler/${id}/crop-seasons/`);
  expect(stored.body).toEqual([
    {
      name: 'Pszenica ozima',
      polygon: null,
      crop: 'winter-wheat',
      emergence: weekAgo(),
      soil: 'loamy-sand',
      efficiency: 0.9,
    },
  ]);

  // The agronomist sees the season and the advice, with nothing to press.
  const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'pl-PL', serviceWorkers: 'block' });
  const watcherPage = await context.newPage();
  await signIn(watcherPage, agronomist, `/sprinklers/${id}`);
  const watched = watcherPage.getByRole('region', { name: 'Sezony upraw' });
  await expect(watched).toContainText('Całe koło · Pszenica ozima');
  await expect(watcherPage.getByRole('region', { name: 'Porady nawadniania' })).toBeVisible();
  await expect(watched.getByRole('button', { name: /Dodaj sezon|Edytuj|Usuń/ })).toHaveCount(0);
  await context.close();
});

test('a demo machine comes with its seasons: the next irrigation in the list, the Soil water layer, a program from the advice, sent', async ({
  page,
  admin,
}, testInfo) => {
  const demo = await machine(admin, 'PIVOT-01');
  try {
    await adviceToProgramOnMachine(page, admin, demo, testInfo);
  } finally {
    // The fleet as it started, for the other specs: its own program running, the advice's gone.
    await restoreMachine(admin, demo);
  }
});

async function adviceToProgramOnMachine(
  page: Page,
  admin: HttpSession,
  demo: SprinklerDetail,
  testInfo: TestInfo,
): Promise<void> {
  // The list: a date (or "dziś") in the demo machine's row, computed from its season.
  await signIn(page, ADMIN, '/sprinklers');
  await expect(page.getByRole('columnheader', { name: 'Następne nawadnianie' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(demo.name) });
  const column = (await page.getByRole('columnheader').allTextContents()).findIndex((header) =>
    header.includes('Następne nawadnianie'),
  );
  await expect(row.getByRole('cell').nth(column)).toHaveText(/\d{2}\.\d{2}\.\d{4}|dziś/);
  await page.screenshot({ path: testInfo.outputPath('list.png') });

  // The machine page: the Soil water layer with its legend and a cell's numbers on hover.
  await page.goto(`/sprinklers/${demo.id}`);
  const advice = page.getByRole('region', { name: 'Porady nawadniania' });
  // The first balance of a fresh demo is computed while its machines start reporting.
  await expect(advice).toContainText('Kukurydza', { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Woda w glebie' }).check();
  await expect(page.getByRole('figure', { name: /Woda w glebie/ })).toContainText(/RAW przy \d+ % TAW/);
  // Down the map a little left of its middle, until the pointer is over a cell of the field.
  const box = (await page.locator('.field-map').first().boundingBox())!;
  const tooltip = page.locator('.soil-water-tooltip');
  for (let y = box.y + 10; y < box.y + box.height && (await tooltip.count()) === 0; y += 15) {
    await page.mouse.move(box.x + box.width / 2 - 40, y);
  }
  await expect(tooltip).toContainText(/Niedobór [\d,]+ mm z [\d,]+ mm TAW \(\d+ %\)/);
  await page.screenshot({ path: testInfo.outputPath('soil-water.png'), fullPage: true });

  // Two clicks: the program from the advice, opened for review.
  await advice.getByRole('button', { name: 'Program z porady' }).click();
  await expect(page.getByText(/Utworzono program Porada/)).toBeVisible();
  const advised = (await detail(admin, demo.id)).programs.find((program) => program.name.startsWith('Porada'))!;
  expect(advised).toBeDefined();

  // Sent the existing way: the simulated machine takes it and reports it as its program.
  const item = await openProgram(page, advised.name);
  await item.getByRole('button', { name: 'Wyślij do maszyny' }).click();
  await page
    .getByRole('dialog', { name: `Wysłać „${advised.name}” do maszyny?` })
    .getByRole('button', { name: 'Wyślij' })
    .click();
  await expect(toast(page, `„${advised.name}” jest teraz aktywny na maszynie`)).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText('Aktywny')).toBeVisible();
  const running = (await detail(admin, demo.id)).currentProgramData!;
  expect(running.name).toBe(advised.name);
  expect(running.features.map((sector) => sector.properties.rate)).toEqual(
    advised.programData.features.map((sector) => sector.properties.rate),
  );
}
