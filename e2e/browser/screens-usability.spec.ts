import type { Browser, Locator, Page } from '@playwright/test';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn, test } from './support/fixtures';

/**
 * The screens as a new user first tries them (issue 12): the history's calendar, toasts beside
 * the page's own controls and over dialogs, sorting the machines on a phone, the sector
 * editor's hint on a touch screen. The demo fleet's first machine, program and sector serve,
 * and nothing is saved: a save is answered with a server error where a toast is wanted.
 */
const DESKTOP = { width: 1366, height: 768 } as const;
const PHONE = { width: 360, height: 740 } as const;
const SECTOR = '/sprinklers/1/1/Północ';

async function openAs(browser: Browser, baseURL: string | undefined, viewport: typeof DESKTOP | typeof PHONE) {
  const phone = viewport.width < 640;
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'pl-PL',
    timezoneId: 'Europe/Warsaw',
    hasTouch: phone,
    isMobile: phone,
    serviceWorkers: 'block',
  });
  return { context, page: await context.newPage() };
}

/** The element a click at the middle of the locator would land on is the locator's own (nothing covers it). */
async function expectUncovered(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  const viewport = locator.page().viewportSize()!;
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  const hit = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return top !== null && (element === top || element.contains(top));
  });
  expect(hit, `${what}: not covered`).toBe(true);
}

/**
 * Checks the locator uncovered once the alerts other tests' machines raise meanwhile (a machine of
 * theirs going offline, shown to every administrator) are closed, as the user would close them:
 * an alert toast sits above the page by design; what this test looks at is the page's own layout.
 */
async function expectUncoveredBesideAlerts(locator: Locator, what: string) {
  const alerts = locator.page().getByRole('region', { name: 'Powiadomienia' }).getByRole('alert');
  await expect(async () => {
    for (const close of await alerts.getByRole('button', { name: 'Zamknij' }).all()) {
      // A click event alone: a press outside the open calendar would close it.
      await close.dispatchEvent('click').catch(() => undefined);
    }
    await expectUncovered(locator, what);
  }).toPass({ timeout: 15_000 });
}

/** The toast of a failure (not an alert of the demo fleet's, which may come meanwhile). */
const errorToast = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Powiadomienia' }).getByRole('alert').filter({ hasText: title });

/** Makes the next save of a program fail with a server error, so the app shows an error toast. */
async function failProgramSaves(page: Page) {
  await page.route(/\/api\/sprinkler\/\d+\/program\//, (route) =>
    route.request().method() === 'GET'
      ? route.fallback()
      : route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Internal Server Error"}' }),
  );
}

/** Opens the demo sector and makes its save fail: an error toast shows, and the page stays as it was. */
async function showErrorToast(page: Page): Promise<Locator> {
  await failProgramSaves(page);
  await page.getByRole('button', { name: 'Zapisz sektor' }).click();
  const shown = errorToast(page, 'Błąd serwera');
  await expect(shown).toBeVisible();
  return shown;
}

for (const [device, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
  test(`the history's calendar opens inside the screen and above the map, and sets the watermap's dates (${device})`, async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await openAs(browser, baseURL, viewport);
    await signIn(page, ADMIN, '/sprinklers/1');
    // The layer's state lives in the address, which the router updates a moment after the click.
    const history = page.getByRole('checkbox', { name: 'Historia nawadniania' });
    await history.click();
    await expect(history).toBeChecked();
    const open = page.getByRole('button', { name: 'Wybierz daty', exact: true });
    await open.scrollIntoViewIfNeeded();
    await open.click();
    const calendar = page.getByRole('dialog', { name: 'Wybierz daty', exact: true });
    await expect(calendar).toBeVisible();
    await expectUncoveredBesideAlerts(calendar, 'the calendar');

    // A range in the month before this one: its 3rd to its 12th.
    // The arrow beside the month's name (a quick pick has the same name).
    await calendar.locator('button[aria-label="Poprzedni miesiąc"]').click();
    const month = new Date();
    month.setDate(1);
    month.setMonth(month.getMonth() - 1);
    // The days are marked with their local midnight, as the browser (in Warsaw's time) counts it.
    const midnight = (date: number) =>
      page.evaluate(
        ([year, monthIndex, day]) => new Date(year!, monthIndex!, day).getTime(),
        [month.getFullYear(), month.getMonth(), date],
      );
    const day = async (date: number) => calendar.locator(`button[data-date="${await midnight(date)}"]`);
    for (const date of [3, 12]) {
      await expectUncoveredBesideAlerts(await day(date), `day ${date}`);
      await (await day(date)).click();
    }
    const apply = calendar.getByRole('button', { name: 'Zastosuj' });
    await expectUncoveredBesideAlerts(apply, 'Apply');
    const two = (value: number) => String(value).padStart(2, '0');
    const dates = (date: number) => `${two(date)}.${two(month.getMonth() + 1)}.${month.getFullYear()}`;
    const watermapCall = page.waitForRequest(
      (request) =>
        request.url().includes('/watermap/') && new URL(request.url()).searchParams.get('start') === dates(3),
    );
    await apply.click();
    expect(new URL((await watermapCall).url()).searchParams.get('stop')).toBe(dates(12));
    await expect(calendar).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`history=${dates(3)}-${dates(12)}`.replaceAll('.', '\\.')));
    await expect(page.getByText(`${dates(3)} - ${dates(12)}`)).toBeVisible();
    await context.close();
  });
}

test("a toast leaves the page's own buttons usable: the sector's way back to the machine", async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await openAs(browser, baseURL, DESKTOP);
  await signIn(page, ADMIN, SECTOR);
  const toast = await showErrorToast(page);
  const back = page.getByRole('link', { name: 'Wróć do maszyny' });
  await expectUncovered(back, 'Back to the machine');
  await back.click();
  await expect(page).toHaveURL(/\/sprinklers\/1$/);
  await expect(toast).toBeVisible();
  await context.close();
});

test('on a phone a toast leaves the header usable, is compact, and a swipe closes it', async ({ browser, baseURL }) => {
  const { context, page } = await openAs(browser, baseURL, PHONE);
  await signIn(page, ADMIN, SECTOR);
  const toast = await showErrorToast(page);
  const header = page.getByRole('banner');
  const controls = header.getByRole('button').or(header.getByRole('link'));
  expect(await controls.count()).toBeGreaterThanOrEqual(4);
  for (const control of await controls.all()) {
    await expectUncovered(control, `header: ${await control.getAttribute('aria-label')}`);
    await control.click({ trial: true });
  }
  const box = (await toast.boundingBox())!;
  expect(box.height, 'a compact toast').toBeLessThanOrEqual(PHONE.height / 5);
  await expectAccessible(page, 'sector page with a toast (phone)');

  // A finger drags the toast sideways off the screen.
  const touch = await context.newCDPSession(page);
  const y = box.y + box.height / 2;
  const from = box.x + box.width / 2;
  await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
  for (let step = 1; step <= 8; step += 1) {
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + step * 20, y }] });
  }
  await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(toast).toBeHidden();
  await context.close();
});

test('a toast shows above a modal dialog, whether it came before the dialog or while it is open, and closes there', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await openAs(browser, baseURL, DESKTOP);
  await signIn(page, ADMIN, SECTOR);
  const before = await showErrorToast(page);
  await page.getByRole('button', { name: 'Usuń sektor' }).click();
  const confirm = page.getByRole('dialog', { name: /Usunąć sektor/ });
  await expect(confirm).toBeVisible();
  const close = before.getByRole('button', { name: 'Zamknij' });
  await expectUncovered(close, 'the close button of a toast shown before the dialog');
  await close.click();
  await expect(before).toBeHidden();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Anuluj' }).click();

  // A failure while a form dialog is open: its toast is above the dialog, and the form stays.
  await page.goto('/admin/sprinklers');
  await page.route(/\/api\/sprinkler\/$/, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Internal Server Error"}' })
      : route.fallback(),
  );
  await page.getByRole('button', { name: 'Dodaj maszynę' }).click();
  const form = page.getByRole('dialog', { name: 'Dodaj maszynę' });
  await form.getByLabel('ID maszyny w brokerze wiadomości').fill('PIVOT-99');
  await form.getByRole('button', { name: 'Dodaj maszynę' }).click();
  const during = errorToast(page, 'Nie dodano maszyny');
  await expect(during).toBeVisible();
  await expect(form).toBeVisible();
  await expectUncovered(during.getByRole('button', { name: 'Zamknij' }), 'the close button of a toast over a form');
  await expectAccessible(page, 'a form dialog with a toast');
  await during.getByRole('button', { name: 'Zamknij' }).click();
  await expect(during).toBeHidden();
  await expect(form).toBeVisible();
  await expect(form.getByLabel('ID maszyny w brokerze wiadomości')).toHaveValue('PIVOT-99');
  await context.close();
});

test('on a phone the machines are sorted with the "Sort by" control', async ({ browser, baseURL }) => {
  const { context, page } = await openAs(browser, baseURL, PHONE);
  await signIn(page, ADMIN, '/sprinklers');
  const table = page.getByRole('table', { name: 'Maszyny' });
  const names = () => table.getByRole('row').locator('td:first-child a').allInnerTexts();
  // The list sorts as people read: "PIVOT-10" after "PIVOT-9".
  const collator = new Intl.Collator('pl', { numeric: true, sensitivity: 'base' });
  await expect.poll(async () => (await names()).length).toBeGreaterThan(1);
  const ascending = await names();
  expect(ascending).toEqual([...ascending].sort((a, b) => collator.compare(a, b)));
  const sortBy = page.getByLabel('Sortuj według');
  await expect(sortBy).toBeVisible();
  await expect(sortBy).toHaveValue('name');
  await page.getByLabel('Kolejność sortowania').selectOption('desc');
  // Other tests' machines may fill more than the first page: the page shown is in the other order.
  const descending = (list: string[]) => [...list].sort((a, b) => collator.compare(b, a));
  await expect.poll(async () => (await names())[0]).not.toBe(ascending[0]);
  const reversed = await names();
  expect(reversed).toEqual(descending(reversed));
  await sortBy.selectOption({ label: 'ID' });
  // The ID's cell by its label, not its place: a person in several farms sees the farm's column too.
  const ids = async () =>
    (await table.getByRole('row').locator('td').filter({ hasText: /^ID/ }).allInnerTexts()).map((text) =>
      text.replace(/^ID\s*/, ''),
    );
  await expect
    .poll(async () => {
      const shown = await ids();
      return shown.join() === descending(shown).join();
    })
    .toBe(true);
  await expectAccessible(page, 'machines list with the sort control (phone)');
  await context.close();
});

test('on a touch screen the sector editor says how to remove a corner by touch, and a tap in removal mode does', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await openAs(browser, baseURL, PHONE);
  await signIn(page, ADMIN, SECTOR);
  const hint = page.locator('#sector-shape-hint');
  await expect(hint).toContainText('naciśnij „Usuń narożniki” i stuknij je');
  await expect(hint).not.toContainText('prawym');
  const counted = page.getByText(/^Narożniki kształtu \(\d+\)$/);
  const count = async () => Number((await counted.innerText()).match(/\d+/)![0]);
  const corners = await count();
  expect(corners).toBeGreaterThan(3);

  const remove = page.getByRole('button', { name: 'Usuń narożniki' });
  await remove.click();
  await expect(remove).toHaveAttribute('aria-pressed', 'true');
  await expect(hint).toContainText('Stuknij lub kliknij narożnik, aby go usunąć');
  // A finger's tap, once the marker stands still (the map may still be settling on its view).
  await page.locator('.leaflet-marker-pane .marker-icon:not(.marker-icon-middle)').first().tap();
  await expect.poll(count).toBe(corners - 1);
  await context.close();
});

test("the machine map's first view takes in every weather station and soil probe of the demo fleet", async ({
  browser,
  baseURL,
  admin,
}) => {
  const { context, page } = await openAs(browser, baseURL, DESKTOP);
  await signIn(page, ADMIN, '/sprinklers');
  const machines = (await admin.call('GET', '/api/sprinkler/')).body as { id: number }[];
  for (const { id } of machines) {
    // The stations' and probes' readings come every few seconds: the map shows those the page got.
    const detail = (await admin.call('GET', `/api/sprinkler/${id}/`)).body as {
      weather_stations: unknown[];
      humidity_sensors: unknown[];
    };
    const expected = detail.weather_stations.length + detail.humidity_sensors.length;
    await page.goto(`/sprinklers/${id}`);
    const map = page.locator('.leaflet-container');
    await expect(map).toBeVisible();
    // Stations are yellow, probes white-edged (their readings in colour); Leaflet leaves out what lies off the view.
    const markers = map.locator(
      '.leaflet-overlay-pane path[fill="#fde047"], .leaflet-overlay-pane path[stroke="#ffffff"]',
    );
    await expect.poll(() => markers.count(), { message: `machine ${id}` }).toBeGreaterThanOrEqual(expected);
    const frame = (await map.boundingBox())!;
    for (const marker of await markers.all()) {
      const box = (await marker.boundingBox())!;
      expect(box.width, `machine ${id}: a marker drawn`).toBeGreaterThan(0);
      expect(box.x, `machine ${id}: marker left`).toBeGreaterThanOrEqual(frame.x);
      expect(box.y, `machine ${id}: marker top`).toBeGreaterThanOrEqual(frame.y);
      expect(box.x + box.width, `machine ${id}: marker right`).toBeLessThanOrEqual(frame.x + frame.width);
      expect(box.y + box.height, `machine ${id}: marker bottom`).toBeLessThanOrEqual(frame.y + frame.height);
    }
  }
  await context.close();
});
