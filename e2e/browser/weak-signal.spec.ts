import type { Locator, Page, Route } from '@playwright/test';
import { expect, openInApp, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

/**
 * Weak signal in the field (issue 24): the network cut with Chromium's offline emulation on a
 * phone-sized page. The pages keep what they last knew, with its time, under one line saying so;
 * nothing that changes a machine can be sent; when the network is back everything is current
 * again without a reload.
 */
test.use({ viewport: { width: 360, height: 740 } });

/** Long enough for a machine reporting every second to have reported a few times. */
const A_FEW_REPORTS_MS = 3500;
const CLOCK = /\d{2}:\d{2}/;

/** Marks the page's document: the mark is gone if the page was loaded again. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { weakSignalMark: true }));
const sameDocument = (page: Page) => page.evaluate(() => 'weakSignalMark' in window);

/** What a machine page's status shows as its angle. */
const angleIn = (status: Locator) =>
  status
    .locator('div', { has: status.page().locator('dt') })
    .filter({ hasText: /^(Kąt|Angle)/ })
    .locator('dd');

test('a machine page without a network keeps its last known values and sends nothing, then is current again', async ({
  page,
  admin,
  openMovingMachine,
}) => {
  const { status } = await openMovingMachine('Pole przy stawie', {
    beforeOpening: async (id) => {
      const created = await admin.call('POST', `/api/sprinkler/${id}/program/`, {
        name: 'Program polowy',
        programData: { type: 'FeatureCollection', features: [] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    },
  });
  const motion = page.getByRole('region', { name: 'Ruch' });
  const programs = page.getByRole('region', { name: 'Programy' });
  const line = page.getByTestId('no-connection');
  await expect(status).toContainText('Do przodu');
  await expect(status.getByText('Ostatni odczyt')).toBeVisible();
  await expect(angleIn(status)).toHaveText(/°$/);
  await programs.getByRole('button', { name: /Program polowy/ }).click();
  await expect(line).toHaveCount(0);
  await markDocument(page);

  await page.context().setOffline(true);
  await expect(line).toBeVisible();
  await expect(line).toContainText('Brak połączenia – pokazuję stan z');
  expect(await line.textContent()).toMatch(new RegExp(`stan z ${CLOCK.source}`));
  await expect(line).toContainText('nic nie czeka na wysłanie później');
  // The machine was online when the connection went: that is its last known state, not a live one.
  await expect(status).toContainText(new RegExp(`Połączona o ${CLOCK.source}, ostatni znany stan`));
  // The values stay, as the last known, with the time of the report they came in.
  await expect(status.getByText('Ostatnie znane wartości')).toBeVisible();
  await expect(status.getByRole('button', { name: /(sek\. temu|teraz)$/ })).toBeVisible();
  const angleThen = await angleIn(status).textContent();
  expect(angleThen).toMatch(/°$/);
  // The machine moves on and reports every second, but nothing of it reaches the page.
  await page.waitForTimeout(A_FEW_REPORTS_MS);
  await expect(angleIn(status)).toHaveText(angleThen!);
  await expect(status).toContainText('Do przodu');

  // Nothing that changes the machine can be sent, and each control says why.
  const reason = 'Brak połączenia: do maszyny nic nie dotrze, dopóki ono nie wróci.';
  for (const name of ['Do przodu', 'Do tyłu', 'Stop']) {
    const button = motion.getByRole('button', { name });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('title', reason);
  }
  await expect(motion).toContainText(reason);
  for (const name of ['Nowy program', 'Zmień nazwę', 'Usuń']) {
    await expect(programs.getByRole('button', { name, exact: true })).toBeDisabled();
  }
  await expect(page.getByRole('button', { name: 'Dodaj sezon' })).toBeDisabled();

  await page.context().setOffline(false);
  await expect(line).toHaveCount(0);
  await expect(status).not.toContainText('ostatni znany stan');
  await expect(status).toContainText('Połączona');
  await expect(status.getByText('Ostatni odczyt')).toBeVisible();
  // The live stream is open again: the arm's angle moves on, on the same page.
  await expect(angleIn(status)).not.toHaveText(angleThen!);
  await expect(motion.getByRole('button', { name: 'Stop' })).toBeEnabled();
  await expect(programs.getByRole('button', { name: 'Nowy program' })).toBeEnabled();
  expect(await sameDocument(page)).toBe(true);
});

test("a machine page's later parts whose code had not come when the connection went say so in their place, then come without a reload", async ({
  page,
  openMovingMachine,
}) => {
  // The header's menus and the cards below the map are fetched once the page's data has been
  // shown: their code is held back here, and the connection goes before it arrives.
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/assets\/(sprinkler-cards|signed-in-controls)-[\w-]+\.js$/, (route) =>
    holding ? void held.push(route) : route.continue(),
  );
  const { status } = await openMovingMachine('Pole za lasem');
  await expect.poll(() => held.length).toBe(2);
  await expect(status).toContainText('Do przodu');
  await expect(angleIn(status)).toHaveText(/°$/);
  await markDocument(page);

  await page.context().setOffline(true);
  await expect(page.getByTestId('no-connection')).toBeVisible();
  holding = false;
  await Promise.all(held.map((route) => route.abort('internetdisconnected')));

  // Each part says, in its place, why it is not there: the programs panel, the season chart, the
  // advice with the crop seasons, the reports' download, the weather stations' days, and the
  // header's menus (an icon, with the text for screen readers and as its tooltip).
  const notes = page.getByTestId('later-part-not-loaded');
  await expect(notes).toHaveCount(6);
  const note = 'Jeszcze niewczytane: brak połączenia. Wczyta się, gdy połączenie wróci.';
  for (const one of await notes.all()) await expect(one).toHaveText(note);
  await expect(page.getByRole('banner').getByTestId('later-part-not-loaded')).toHaveAttribute('title', note);
  // The rest of the page goes on with what it knew: not the error page.
  await expect(page.getByText('Wewnętrzny błąd serwera')).toHaveCount(0);
  await expect(status.getByText('Ostatnie znane wartości')).toBeVisible();
  await expect(status).toContainText('Do przodu');
  await expect(angleIn(status)).toHaveText(/°$/);
  await expect(page.getByRole('region', { name: 'Programy' })).toHaveCount(0);

  await page.context().setOffline(false);
  await expect(page.getByRole('region', { name: 'Programy' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Porady nawadniania' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Dodaj sezon' })).toBeEnabled();
  await expect(page.getByRole('heading', { name: 'Twoje dane' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pogoda' })).toBeVisible();
  const account = page.getByRole('button', { name: /^Menu konta/ });
  await expect(account).toBeVisible();
  await expect(notes).toHaveCount(0);

  // A menu's own code comes when it is first opened: without a network it stays closed, and the
  // header with it; back online, the same button opens it.
  await page.context().setOffline(true);
  await expect(page.getByTestId('no-connection')).toBeVisible();
  await account.click();
  await expect(account).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(status).toContainText('Do przodu');
  await page.context().setOffline(false);
  await expect(page.getByTestId('no-connection')).toHaveCount(0);
  await account.click();
  await expect(page.getByRole('menu')).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
});

test('the machines list without a network keeps its rows as last known, then is current again', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser({ language: 'en' });
  const machine = await startMachine({ motion: 'front' });
  await addAndGrant(admin, machine, 'Riverside field', farmer.id);

  await signIn(page, farmer, '/en/sprinklers');
  const row = page.locator('tbody tr').filter({ hasText: 'Riverside field' });
  const angle = row.locator('td').nth(3);
  const line = page.getByTestId('no-connection');
  await expect(row).toContainText('Forward');
  await expect(angle).toContainText('°');
  await markDocument(page);

  await page.context().setOffline(true);
  await expect(line).toBeVisible();
  expect(await line.textContent()).toMatch(new RegExp(`^No connection – showing what was known at ${CLOCK.source}`));
  await expect(row).toContainText('Forward');
  await expect(row).toContainText(new RegExp(`Online at ${CLOCK.source}, last known`));
  await expect(row).toContainText(/Last known\s*(\d+ sec\. ago|now)/);
  const angleThen = await angle.textContent();
  await page.waitForTimeout(A_FEW_REPORTS_MS);
  await expect(angle).toHaveText(angleThen!);
  await expect(page.getByText('The data could not be loaded')).toHaveCount(0);

  await page.context().setOffline(false);
  await expect(line).toHaveCount(0);
  await expect(row).not.toContainText('Last known');
  await expect(row).not.toContainText('last known');
  await expect(angle).not.toHaveText(angleThen!);
  expect(await sameDocument(page)).toBe(true);
});

test('a phone that says it is online with no route to the server: failed calls tell the lost connection', async ({
  page,
  openMovingMachine,
}) => {
  await openMovingMachine('Hill field', { language: 'en' });
  const line = page.getByTestId('no-connection');
  await markDocument(page);

  // The browser still says it is online; only the calls fail.
  await page.route('**/api/**', (route) => route.abort('addressunreachable'));
  await openInApp(page, '/en/sprinklers');
  await expect(line).toBeVisible();
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  // Not a failure to pop up: the line says it.
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.unroute('**/api/**');
  // The app asks again by itself every few seconds.
  await expect(line).toHaveCount(0);
  await expect(page.locator('tbody tr').filter({ hasText: 'Hill field' })).toContainText('Forward');
  expect(await sameDocument(page)).toBe(true);
});

test('an answer with an error status is not a lost connection', async ({ page, createUser }) => {
  const farmer = await createUser({ language: 'en' });
  await page.route(/\/api\/sprinkler\/page\//, (route) => route.fulfill({ status: 503, body: 'busy' }));
  await signIn(page, farmer, '/en/sprinklers');
  await expect(page.getByText('The data could not be loaded')).toBeVisible();
  await expect(page.getByTestId('no-connection')).toHaveCount(0);
});
