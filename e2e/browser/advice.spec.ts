import {
  CropSeasonListSchema,
  NextIrrigationListSchema,
  ProgramFromAdviceSchema,
  type SprinklerDetail,
} from '@pivot/contracts';
import type { Page, TestInfo } from '@playwright/test';
import type { HttpSession } from '../support/http-session';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { machineWithADueHalf } from './support/due-field';
import { addAndGrant, test } from './support/machines';
import { detail, machine, openProgram, toast } from './support/programs';

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

test('a demo machine comes with its seasons: the next irrigation in the list, the Soil water layer, the program from the advice', async ({
  page,
  admin,
}, testInfo) => {
  const demo = await demoMachineInSeason(admin);
  await adviceOnDemoMachine(page, admin, demo, testInfo);
});

test("the season at a glance: a demo machine's chart and a day's numbers, on a desktop and on a phone", async ({
  page,
  browser,
  admin,
  server,
}, testInfo) => {
  // Two sign-ins, each page's season computed from emergence on a loaded machine.
  test.setTimeout(120_000);
  const demo = await demoMachineInSeason(admin);
  await signIn(page, ADMIN, `/sprinklers/${demo.id}`);
  const card = page.getByRole('region', { name: 'Przebieg sezonu' });
  const chart = card.getByRole('img', { name: /^Deficyt wody / });
  await expect(chart).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole('combobox', { name: 'Strefa uprawy lub sektor' })).toBeVisible();
  // A day in the chart's middle: its numbers beside it.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  await chart.hover({ position: { x: box.width / 2, y: box.height / 2 } });
  const tooltip = card.getByRole('tooltip');
  await expect(tooltip).toContainText(/\d{2}\.\d{2}\.\d{4}/);
  await expect(tooltip).toContainText(/ET₀[\d,]+ mm/);
  await expect(tooltip).toContainText(/Deficyt wody[\d,]+ mm/);
  await expect(tooltip).toContainText(/Ks[\d,]+/);
  await expectAccessible(page, 'the season chart');
  await card.screenshot({ path: testInfo.outputPath('season-desktop.png') });

  // A phone: the chart within the screen's width, a tap tells a day.
  const phone = await browser.newContext({
    baseURL: server.baseUrl,
    locale: 'pl-PL',
    serviceWorkers: 'block',
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  const phonePage = await phone.newPage();
  await signIn(phonePage, ADMIN, `/sprinklers/${demo.id}`);
  const phoneCard = phonePage.getByRole('region', { name: 'Przebieg sezonu' });
  const phoneChart = phoneCard.getByRole('img', { name: /^Deficyt wody / });
  await expect(phoneChart).toBeVisible({ timeout: 30_000 });
  await phoneChart.scrollIntoViewIfNeeded();
  const phoneBox = (await phoneChart.boundingBox())!;
  expect(phoneBox.x).toBeGreaterThanOrEqual(0);
  expect(phoneBox.x + phoneBox.width).toBeLessThanOrEqual(390);
  await phoneChart.tap({ position: { x: phoneBox.width * 0.3, y: phoneBox.height / 2 } });
  await expect(phoneCard.getByRole('tooltip')).toContainText(/ETc[\d,]+ mm/);
  await phoneCard.screenshot({ path: testInfo.outputPath('season-phone.png') });
  await phone.close();
});

/**
 * A demo machine with a crop in the field today: the demo farm's calendar decides which have one
 * (docs/simulator.md, "Demo fleet"), and some has on every day of the year.
 */
async function demoMachineInSeason(admin: HttpSession): Promise<SprinklerDetail> {
  const withSeasons = NextIrrigationListSchema.parse((await admin.call('GET', '/api/sprinkler/next-irrigation/')).body);
  for (const { id } of withSeasons) {
    const found = await detail(admin, id);
    if (found.internalId.startsWith('PIVOT-')) return found;
  }
  throw new Error('No demo machine has a crop season running');
}

async function adviceOnDemoMachine(
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
  const [season] = CropSeasonListSchema.parse(
    (await admin.call('GET', `/api/sprinkler/${demo.id}/crop-seasons/`)).body,
  );
  await expect(advice).toContainText(season!.name, { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Woda w glebie' }).check();
  await expect(page.getByRole('figure', { name: /Woda w glebie/ })).toContainText(
    /RAW \(łatwo dostępna woda\) przy \d+ % TAW/,
  );
  // Down the map a little left of its middle, until the pointer is over a cell of the field.
  const box = (await page.locator('.field-map').first().boundingBox())!;
  const tooltip = page.locator('.soil-water-tooltip');
  for (let y = box.y + 10; y < box.y + box.height && (await tooltip.count()) === 0; y += 15) {
    await page.mouse.move(box.x + box.width / 2 - 40, y);
  }
  await expect(tooltip).toContainText(/Deficyt wody [\d,]+ mm z [\d,]+ mm TAW \(\d+ %\)/);
  await page.screenshot({ path: testInfo.outputPath('soil-water.png'), fullPage: true });

  // The program from the advice for the arm's coming revolution (its sectors' rates: the next test).
  await expect(advice.getByRole('region', { name: 'Program z porady: najbliższy obrót' })).toBeVisible();
}

test('the program from the advice waters the sector due when the arm gets there, passes dry over the one not due, and is sent', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser();
  // Moving, the machine pumps: its time round follows from its flow and the depth set.
  const { id } = await machineWithADueHalf(admin, startMachine, farmer.id, { motion: 'front' });

  await signIn(page, farmer, `/sprinklers/${id}`);
  const preview = page.getByRole('region', { name: 'Program z porady: najbliższy obrót' });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  const due = preview.getByRole('listitem', { name: 'Wschód' });
  const notDue = preview.getByRole('listitem', { name: 'Zachód' });
  await expect(due).toContainText('Z porady: uzupełnia niedobór spodziewany, gdy dojdzie ramię');
  await expect(due).toContainText(/Termin \d{2}\.\d{2}\.\d{4} · ramię jest nad nim teraz/);
  await expect(notDue).toContainText('Jeszcze niepotrzebne: przejazd na sucho z pełną prędkością');
  await expect(notDue).toContainText('0 mm');
  await expectAccessible(page, 'program from the advice');

  // What the server decided is what is stored: the due half its dose, the other 0 (a dry pass).
  const advice = ProgramFromAdviceSchema.parse(
    (await admin.call('GET', `/api/sprinkler/${id}/program-from-advice/`)).body,
  );
  const [eastRate, westRate] = advice.programData!.features.map((feature) => feature.properties.rate);
  expect(eastRate).toBeGreaterThan(0);
  expect(westRate).toBe(0);
  await page
    .getByRole('region', { name: 'Porady nawadniania' })
    .getByRole('button', { name: 'Program z porady' })
    .click();
  await expect(page.getByText(/Utworzono program Porada/)).toBeVisible();
  const advised = (await detail(admin, id)).programs.find((program) => program.name.startsWith('Porada'))!;
  expect(advised.programData.features.map((feature) => [feature.properties.name, feature.properties.rate])).toEqual([
    ['Wschód', eastRate],
    ['Zachód', 0],
  ]);

  // Sent the existing way: the simulated machine takes it and reports it as its program.
  const item = await openProgram(page, advised.name);
  await item.getByRole('button', { name: 'Wyślij do maszyny' }).click();
  await page
    .getByRole('dialog', { name: `Wysłać „${advised.name}” do maszyny?` })
    .getByRole('button', { name: 'Wyślij' })
    .click();
  await expect(toast(page, `„${advised.name}” jest teraz aktywny na maszynie`)).toBeVisible({ timeout: 30_000 });
  expect((await detail(admin, id)).currentProgramData!.features.map((feature) => feature.properties.rate)).toEqual([
    eastRate,
    0,
  ]);
});

test("a demo machine's page shows each nearby station's last complete days as the advice takes them", async ({
  page,
  admin,
}) => {
  const demo = await machine(admin, 'PIVOT-01');
  await signIn(page, ADMIN, `/sprinklers/${demo.id}`);
  const weather = page.getByRole('region', { name: 'Pogoda' });
  // The demo's stations come with their past (docs/advice.md, "The demo"): a week of days to show.
  const days = weather.getByRole('table', { name: 'Ostatnie dni, tak jak liczy je doradztwo nawadniania' }).first();
  await expect(days).toBeVisible({ timeout: 30_000 });
  await expect(days.getByRole('row')).toHaveCount(1 + 7);
  await expect(days.getByRole('columnheader', { name: 'ET₀ (mm)' })).toBeVisible();
  // Yesterday's ET₀ as the API answers it for the first station, to 0.1 mm in Polish.
  const station = (await detail(admin, demo.id)).weather_stations[0]!;
  const yesterday = (await days.getByRole('rowheader').last().textContent())!;
  const answer = await admin.call(
    'GET',
    `/api/weather-station/${station.id}/days/?start=${yesterday}&stop=${yesterday}`,
  );
  expect(answer.status).toBe(200);
  const [day] = (answer.body as { days: { et0: number }[] }).days;
  const firstRow = weather.getByRole('table').first().getByRole('row').last();
  await expect(firstRow.getByRole('cell').first()).toHaveText(
    new Intl.NumberFormat('pl-PL', { maximumFractionDigits: 1 }).format(day!.et0),
  );
  await expectAccessible(page, "the weather stations' days");
});
