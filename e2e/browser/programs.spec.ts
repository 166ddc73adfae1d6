import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ProgramData, SprinklerDetail } from '@pivot/contracts';
import type { HttpSession } from '../support/http-session';
import type { Locator, Page } from '@playwright/test';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { type MachineOptions, type PivotMachine, addAndGrant, test } from './support/machines';
import {
  createProgram,
  detail,
  machine,
  openProgram,
  programItem,
  programNamed,
  restoreMachine,
  toast,
} from './support/programs';

/**
 * Programs and sectors on the real server with its demo fleet (PIVOT-01…05, each running a
 * program stored under the same name). Each test puts back what it changed on its machine, so
 * the other specs find the fleet as it started; drawing, sending and imports use a machine of their
 * own on the field the fixture files are drawn on, PIVOT-05 the sector editor's refusal, PIVOT-04 for the mismatch, PIVOT-03 for the limit of
 * programs. PIVOT-01, which the screenshots show, is only looked at here (advice.spec.ts sends a
 * program from its advice and puts it back).
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * A machine of the test's own on the field the map files in e2e/fixtures are drawn on (52.138 N,
 * 17.415 E, an arm of 260 m): the demo farm lies elsewhere (docs/simulator.md, "Demo fleet").
 */
async function fieldOfTheFixtures(
  admin: HttpSession,
  startMachine: (options?: MachineOptions) => Promise<PivotMachine>,
): Promise<SprinklerDetail> {
  const started = await startMachine({ lat: 52.138, lng: 17.415, armLength: 260 });
  return detail(admin, await addAndGrant(admin, started, `Pole z plików ${started.id}`));
}
const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/**
 * Draws a polygon on the sector map by clicking its corners (fractions of the map's size) and
 * then the first corner again, which closes it (docs/product.md#states).
 */
async function drawPolygon(page: Page, corners: [number, number][]) {
  const map = page.getByRole('region', { name: 'Mapa pola z sektorami programu' });
  // Drawing starts once Geoman has loaded: its marker follows the pointer then.
  await expect(map.locator('.cursor-marker')).toBeAttached();
  const box = (await map.boundingBox())!;
  const at = ([x, y]: [number, number]) => [box.x + box.width * x, box.y + box.height * y] as const;
  for (const corner of corners) {
    await page.mouse.click(...at(corner));
  }
  await page.mouse.click(...at(corners[0]!));
  await expect(page.getByText(`Narożniki kształtu (${corners.length})`)).toBeVisible();
}

test('a farmer creates a program, draws two sectors on the map, and sends it until the machine runs it', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const original = await fieldOfTheFixtures(admin, startMachine);
  const user = await createUser({ firstName: 'Anna', lastName: 'Polna' });
  const granted = await admin.call('PATCH', `/api/sprinkler/${original.id}/permissions/`, {
    user: user.id,
    action: 'grant',
  });
  expect(granted.status).toBe(200);
  const name = `Lipiec ${Date.now().toString(36)}`;
  await signIn(page, user, `/sprinklers/${original.id}`);
  await page.getByRole('button', { name: 'Nowy program' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nowy program' });
  await dialog.getByLabel('Nazwa programu').fill(name);
  await dialog.getByRole('button', { name: 'Utwórz' }).click();
  await expect(toast(page, `Utworzono program „${name}”`)).toBeVisible();
  let item = programItem(page, name);
  await expect(item.getByText('Brak sektorów.')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Wyślij do maszyny' })).toBeDisabled();

  // The first sector: the form's errors first, then a shape drawn by clicking.
  await item.getByRole('link', { name: 'Dodaj sektor' }).click();
  await expect(page).toHaveURL(new RegExp(`/sprinklers/${original.id}/\\d+/Sektor%201$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nowy sektor' })).toBeVisible();
  const nameField = page.getByLabel('Nazwa sektora');
  const rateField = page.getByLabel('Dawka (mm)');
  await expect(nameField).toHaveValue('Sektor 1');
  await nameField.fill('');
  await page.getByRole('button', { name: 'Zapisz sektor' }).click();
  await expect(nameField).toHaveAccessibleDescription('Podaj nazwę sektora');
  await expect(nameField).toBeFocused();
  await expect(rateField).toHaveAccessibleDescription(/Podaj dawkę sektora/);
  await expect(page.getByText('Narysuj sektor na mapie: co najmniej trzy narożniki')).toBeVisible();
  await rateField.fill('dużo');
  await expect(rateField).toHaveAccessibleDescription(/Dawka powinna być wartością liczbową/);

  await drawPolygon(page, [
    [0.3, 0.3],
    [0.48, 0.3],
    [0.48, 0.48],
    [0.3, 0.48],
  ]);
  await expect(page.getByText('Narysuj sektor na mapie')).toHaveCount(0);
  await nameField.fill('Północ');
  await rateField.fill('12,5');
  await page.getByRole('button', { name: 'Zapisz sektor' }).click();
  await expect(toast(page, 'Zapisano sektor „Północ”')).toBeVisible();
  await expect(page).toHaveURL(/\/P%C3%B3%C5%82noc$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sektor Północ' })).toBeVisible();

  // The second sector, a forbidden zone, drawn beside the first one (whose label the map shows).
  await page.getByRole('link', { name: 'Wróć do maszyny' }).click();
  item = await openProgram(page, name);
  await item.getByRole('link', { name: 'Dodaj sektor' }).click();
  await expect(page.getByText('Północ · 12,5 mm')).toBeVisible();
  await drawPolygon(page, [
    [0.55, 0.55],
    [0.7, 0.55],
    [0.7, 0.7],
    [0.55, 0.7],
  ]);
  await page.getByLabel('Nazwa sektora').fill('Północ');
  await page.getByLabel('Dawka (mm)').fill('-1');
  await expect(page.getByText('Strefa zakazana: maszyna nie będzie nawadniać tego sektora.')).toBeVisible();
  await page.getByRole('button', { name: 'Zapisz sektor' }).click();
  await expect(page.getByLabel('Nazwa sektora')).toHaveAccessibleDescription('Program ma już sektor o tej nazwie');
  await page.getByLabel('Nazwa sektora').fill('Rów');
  await page.getByRole('button', { name: 'Zapisz sektor' }).click();
  await expect(toast(page, 'Zapisano sektor „Rów”')).toBeVisible();

  const stored = programNamed(await detail(admin, original.id), name)!;
  expect(stored.programData.features.map((sector) => sector.properties)).toEqual([
    { name: 'Północ', rate: 12.5 },
    { name: 'Rów', rate: -1 },
  ]);
  for (const sector of stored.programData.features) {
    const ring = sector.geometry.coordinates[0]!;
    expect(ring).toHaveLength(5);
    expect(ring[4]).toEqual(ring[0]);
    // [longitude, latitude] around the machine (52.138 N, 17.415 E).
    expect(Math.abs(ring[0]![0] - 17.415)).toBeLessThan(0.05);
    expect(Math.abs(ring[0]![1] - 52.138)).toBeLessThan(0.05);
  }

  // Sending: uploaded, processed by the machine, then active with its upload date.
  await page.getByRole('link', { name: 'Wróć do maszyny' }).click();
  item = await openProgram(page, name);
  await expect(item.getByRole('list', { name: `Sektory programu „${name}”` }).getByRole('listitem')).toHaveText([
    /Północ\s*12,5 mm/,
    /Rów\s*Strefa zakazana/,
  ]);
  await item.getByRole('button', { name: 'Wyślij do maszyny' }).click();
  await page
    .getByRole('dialog', { name: `Wysłać „${name}” do maszyny?` })
    .getByRole('button', { name: 'Wyślij' })
    .click();
  await expect(item.getByText(/Wysyłanie…|Przetwarzanie…/)).toBeVisible();
  await expect(toast(page, `„${name}” jest teraz aktywny na maszynie`)).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText('Aktywny')).toBeVisible();
  const onMachine = page.getByText('Na maszynie', { exact: true }).locator('..');
  await expect(onMachine).toContainText(name);
  await expect(onMachine).toContainText(/Wgrany \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/);
  await expect(page.getByText('Program na maszynie różni się')).toHaveCount(0);
});

test("the machine's program differing from the database is shown and saved to it", async ({ page, admin }) => {
  test.setTimeout(90_000);
  const original = await machine(admin, 'PIVOT-04');
  const running = original.currentProgramData!;
  const stored = programNamed(original, running.name)!;
  try {
    // The stored copy is edited after it was sent: the machine's version no longer matches it.
    const edited = structuredClone(stored.programData);
    edited.features[0]!.properties.rate += 5;
    await admin.call('PATCH', `/api/sprinkler/${original.id}/program/${stored.id}/`, {
      name: stored.name,
      programData: edited,
    });
    await signIn(page, ADMIN, `/sprinklers/${original.id}`);
    await expect(page.getByText('Program na maszynie różni się od zapisanego w bazie danych.')).toBeVisible();
    await expect(page.getByText('z maszyny', { exact: true })).toBeVisible();
    await expect(programItem(page, running.name).getByText('Aktywny')).toHaveCount(0);
    const machineSectors = page.getByRole('list', { name: `Sektory programu „${running.name}” na maszynie` });
    await expect(machineSectors.getByRole('listitem')).toHaveCount(running.features.length);

    // Saving asks first, since a stored program has its name; cancelling keeps the database as it is.
    await page.getByRole('button', { name: 'Zapisz w bazie danych' }).click();
    const overwrite = page.getByRole('dialog', { name: `Nadpisać „${running.name}” w bazie danych?` });
    await overwrite.getByRole('button', { name: 'Anuluj' }).click();
    expect(programNamed(await detail(admin, original.id), running.name)!.programData).toEqual(edited);
    await page.getByRole('button', { name: 'Zapisz w bazie danych' }).click();
    await overwrite.getByRole('button', { name: 'Nadpisz' }).click();
    await expect(toast(page, `Zapisano „${running.name}” w bazie danych`)).toBeVisible();
    await expect(page.getByText('Program na maszynie różni się')).toHaveCount(0);
    await expect(programItem(page, running.name).getByText('Aktywny')).toBeVisible();
    const saved = programNamed(await detail(admin, original.id), running.name)!;
    expect(saved.id).toBe(stored.id);
    expect(saved.programData.features).toEqual(running.features);

    // With the stored copy deleted, the machine's program is unknown to the database: saving creates it.
    await admin.call('DELETE', `/api/sprinkler/${original.id}/program/${stored.id}/`);
    await page.reload();
    await expect(page.getByText('Programu z maszyny nie ma w bazie danych.')).toBeVisible();
    await expect(page.getByText('Maszyna nie wykonuje żadnego programu.')).toHaveCount(0);
    await page.getByRole('button', { name: 'Zapisz w bazie danych' }).click();
    await expect(toast(page, `Zapisano „${running.name}” w bazie danych`)).toBeVisible();
    await expect(page.getByText('Programu z maszyny nie ma w bazie danych.')).toHaveCount(0);
    await expect(programItem(page, running.name).getByText('Aktywny')).toBeVisible();
    expect(programNamed(await detail(admin, original.id), running.name)!.programData.features).toEqual(
      running.features,
    );
  } finally {
    await restoreMachine(admin, original);
  }
});

test('map files are imported into a program (GeoJSON, KML, shapefile), a broken one changes nothing, export downloads GeoJSON', async ({
  page,
  admin,
  startMachine,
}) => {
  test.setTimeout(90_000);
  const original = await fieldOfTheFixtures(admin, startMachine);
  const name = `Import ${Date.now().toString(36)}`;
  await createProgram(admin, original.id, name);
  await signIn(page, ADMIN, `/sprinklers/${original.id}`);
  const item = await openProgram(page, name);
  const sectors = item.getByRole('list', { name: `Sektory programu „${name}”` }).getByRole('listitem');
  const importFile = async (file: string) => {
    const chooser = page.waitForEvent('filechooser');
    await item.getByRole('button', { name: 'Importuj plik mapy' }).click();
    await (await chooser).setFiles(`${FIXTURES}${file}`);
  };
  const replace = page.getByRole('dialog', { name: `Zastąpić sektory programu „${name}”?` });

  // Into an empty program: no question.
  await importFile('sectors.geojson');
  await expect(toast(page, `Zaimportowano 4 sektory do „${name}”`)).toBeVisible();
  await expect(sectors).toHaveText([/Północ\s*12 mm/, /Południe\s*18,5 mm/, /Rów \(1\)/, /Rów \(2\)/]);

  // Into a program with sectors: it is cleared first, after a confirmation (cancelling keeps it).
  await importFile('sectors.kml');
  await expect(replace).toContainText('Najpierw zostaną usunięte 4 sektory programu');
  await replace.getByRole('button', { name: 'Anuluj' }).click();
  await expect(sectors).toHaveCount(4);
  await importFile('sectors.kml');
  await replace.getByRole('button', { name: 'Wyczyść i importuj' }).click();
  await expect(sectors).toHaveText([/Wschód\s*15 mm/, /Zachód\s*9,5 mm/]);

  await importFile('sectors.zip');
  await replace.getByRole('button', { name: 'Wyczyść i importuj' }).click();
  await expect(sectors).toHaveText([/Pas zachodni\s*10 mm/, /Pas wschodni\s*20,5 mm/, /Łąka\s*7,5 mm/]);
  const imported = programNamed(await detail(admin, original.id), name)!;

  await importFile('broken.kml');
  await expect(toast(page, 'Nieprawidłowa struktura importowanego pliku mapy')).toBeVisible();
  await expect(replace).toBeHidden();
  await expect(sectors).toHaveCount(3);
  expect(programNamed(await detail(admin, original.id), name)).toEqual(imported);

  // Export: a .geojson download of the sectors, [longitude, latitude].
  const download = page.waitForEvent('download');
  await item.getByRole('button', { name: 'Eksportuj jako GeoJSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${name}.geojson`);
  const exported = JSON.parse(await readFile(await file.path(), 'utf8')) as ProgramData & { name: string };
  expect(exported.type).toBe('FeatureCollection');
  expect(exported.name).toBe(name);
  expect(exported.features).toEqual(imported.programData.features);
  const [longitude, latitude] = exported.features[0]!.geometry.coordinates[0]![0]!;
  expect(longitude).toBeCloseTo(17.4118, 6);
  expect(latitude).toBeCloseTo(52.1365, 6);

  // Renaming and deleting, each after its dialog.
  await item.getByRole('button', { name: 'Zmień nazwę' }).click();
  const rename = page.getByRole('dialog', { name: 'Zmień nazwę programu' });
  await expect(rename.getByLabel('Nazwa programu')).toHaveValue(name);
  await rename.getByLabel('Nazwa programu').fill(`${name} bis`);
  await rename.getByRole('button', { name: 'Zmień nazwę' }).click();
  await expect(toast(page, `Zmieniono nazwę programu na „${name} bis”`)).toBeVisible();
  const renamed = programItem(page, `${name} bis`);
  await renamed.getByRole('button', { name: 'Usuń' }).click();
  await page
    .getByRole('dialog', { name: `Usunąć program „${name} bis”?` })
    .getByRole('button', { name: 'Usuń' })
    .click();
  await expect(toast(page, `Usunięto program „${name} bis”`)).toBeVisible();
  await expect(renamed).toHaveCount(0);
  expect(programNamed(await detail(admin, original.id), `${name} bis`)).toBeUndefined();
});

test('an eleventh program is refused with the reason', async ({ page, admin }) => {
  const original = await machine(admin, 'PIVOT-03');
  try {
    for (let number = original.programs.length + 1; number <= 10; number += 1) {
      await createProgram(admin, original.id, `Zapas ${number}`);
    }
    await signIn(page, ADMIN, `/sprinklers/${original.id}`);
    await page.getByRole('button', { name: 'Nowy program' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nowy program' });
    await dialog.getByLabel('Nazwa programu').fill('Jedenasty');
    await dialog.getByRole('button', { name: 'Utwórz' }).click();
    await expect(toast(page, 'Za dużo programów')).toContainText('najpierw usuń jeden');
    await expect(programItem(page, 'Jedenasty')).toHaveCount(0);
  } finally {
    await restoreMachine(admin, original);
  }
});

test('the sector page: an existing sector, a new one named by the address, accessible, map first on a phone', async ({
  page,
  admin,
}) => {
  const pivot = await machine(admin, 'PIVOT-01');
  const program = programNamed(pivot, pivot.currentProgramData!.name)!;
  const sector = program.programData.features[0]!.properties;
  await signIn(page, ADMIN, `/sprinklers/${pivot.id}/${program.id}/${encodeURIComponent(sector.name)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Sektor ${sector.name}` })).toBeVisible();
  await expect(page.getByLabel('Nazwa sektora')).toHaveValue(sector.name);
  await expect(page.getByLabel('Dawka (mm)')).toHaveValue(String(sector.rate));
  await expect(page.getByRole('button', { name: 'Usuń sektor' })).toBeVisible();
  // The other sectors are labelled on the map; this one is the editable shape.
  for (const other of program.programData.features.slice(1)) {
    await expect(page.getByText(`${other.properties.name} · `)).toBeVisible();
  }
  await page.getByText(/Narożniki kształtu/).click();
  await expect(page.getByLabel('Narożnik 1: szerokość geograficzna')).toBeVisible();
  await expectAccessible(page, 'sector page');

  await page.goto(`/sprinklers/${pivot.id}/${program.id}/north`);
  await expect(page.getByRole('heading', { level: 1, name: 'Nowy sektor' })).toBeVisible();
  await expect(page.getByLabel('Nazwa sektora')).toHaveValue('north');
  await expect(page.getByRole('button', { name: 'Usuń sektor' })).toHaveCount(0);
  await expectAccessible(page, 'new sector page');

  await page.setViewportSize({ width: 360, height: 740 });
  const map = (await page.getByRole('region', { name: 'Mapa pola z sektorami programu' }).boundingBox())!;
  const form = (await page.getByLabel('Nazwa sektora').boundingBox())!;
  expect(map.width).toBeGreaterThan(300);
  expect(form.y).toBeGreaterThan(map.y + map.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page, 'new sector page on a phone');

  await page.goto(`/en/sprinklers/${pivot.id}/999999/north`);
  await expect(page.getByRole('heading', { level: 1, name: 'Program not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the machine' })).toBeVisible();
});

test('sectors far from the field are told with their distance; swapped coordinates are swapped back, projected ones refused', async ({
  page,
  admin,
  startMachine,
}) => {
  test.setTimeout(90_000);
  const original = await fieldOfTheFixtures(admin, startMachine);
  const name = `Daleko ${Date.now().toString(36)}`;
  const fixture = await readFile(`${FIXTURES}sectors.geojson`, 'utf8');
  // The fixture as a file that writes latitude first: valid degrees, but in the Arabian Sea.
  const swapped = fixture.replace(/\[(-?[\d.]+),\s*(-?[\d.]+)(,\s*-?[\d.]+)?\]/g, '[$2, $1]');
  const projected = JSON.parse(await readFile(`${FIXTURES}sectors-puwg1992.geojson`, 'utf8')) as Record<
    string,
    unknown
  >;
  delete projected.crs;
  const file = (fileName: string, text: string) => ({
    name: fileName,
    mimeType: 'application/geo+json',
    buffer: Buffer.from(text),
  });
  const program = await createProgram(admin, original.id, name);
  const importInto = async (item: Locator, button: string, upload: ReturnType<typeof file>) => {
    const chooser = page.waitForEvent('filechooser');
    await item.getByRole('button', { name: button }).click();
    await (await chooser).setFiles(upload);
  };

  await signIn(page, ADMIN, `/sprinklers/${original.id}`);
  let item = await openProgram(page, name);
  await importInto(item, 'Importuj plik mapy', file('pole.geojson', swapped));
  const far = page.getByRole('dialog', { name: 'Sektory poza zasięgiem maszyny' });
  // PIVOT-05's arm is 260 m, and an end gun throws up to 60 m further.
  await expect(far).toContainText(
    /4 sektory z pliku leżą poza zasięgiem ramienia maszyny \(320 m\); najbliższy, „.+”, 49\d\d km od jej osi\./,
  );
  await expect(far).toContainText('Po zamianie długości i szerokości geograficznej leżą na polu');
  await page.screenshot({ path: `${SCREENSHOTS}import-far-pl.png` });
  await far.getByRole('button', { name: 'Zamień i importuj' }).click();
  await expect(toast(page, `Zaimportowano 4 sektory do „${name}”`)).toBeVisible();
  const stored = programNamed(await detail(admin, original.id), name)!;
  expect(stored.programData.features[0]!.geometry.coordinates[0]![0]).toEqual([17.4125, 52.1381]);

  // Another field's file (a degree east, about 68 km): nothing to swap, imported only when asked, then told in the panel.
  const elsewhere = fixture.replace(/\[17\.(\d+),/g, '[18.$1,');
  await importInto(item, 'Importuj plik mapy', file('inne-pole.geojson', elsewhere));
  const replace = page.getByRole('dialog', { name: `Zastąpić sektory programu „${name}”?` });
  await expect(far).toContainText(/najbliższy, „.+”, 6\d km od jej osi\. Mapa pola by ich nie pokazała\./);
  await far.getByRole('button', { name: 'Importuj mimo to' }).click();
  await replace.getByRole('button', { name: 'Wyczyść i importuj' }).click();
  await expect(item.getByText(/^4 sektory leżą poza zasięgiem maszyny, najbliższy 6\d km od jej osi/)).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}import-beyond-reach-pl.png` });
  await importInto(item, 'Importuj plik mapy', file('pole.geojson', fixture));
  await replace.getByRole('button', { name: 'Wyczyść i importuj' }).click();
  await expect(item.getByText('Widoczny na mapie')).toBeVisible();
  expect(programNamed(await detail(admin, original.id), name)).toEqual(stored);

  await importInto(item, 'Importuj plik mapy', file('pole-puwg.geojson', JSON.stringify(projected)));
  await expect(toast(page, 'Nieprawidłowa struktura importowanego pliku mapy')).toContainText(
    'Współrzędne w pliku nie są stopniami długości i szerokości geograficznej (plik ma 391337.18, 475675.86)',
  );
  await page.screenshot({ path: `${SCREENSHOTS}import-projected-pl.png` });

  // In English, cancelled: nothing changes.
  await page.goto(`/en/sprinklers/${original.id}`);
  item = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: new RegExp(`^${name}`) }) });
  await item.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await importInto(item, 'Import a map file', file('field.geojson', swapped));
  const farEn = page.getByRole('dialog', { name: "Sectors beyond the machine's reach" });
  await expect(farEn).toContainText(
    /4 sectors of the file lie beyond the reach of the machine's arm \(320 m\); the nearest, “.+”, 4,9\d\d km from its pivot\./,
  );
  await page.screenshot({ path: `${SCREENSHOTS}import-far-en.png` });
  await farEn.getByRole('button', { name: 'Cancel' }).click();
  await expect(farEn).toBeHidden();
  expect(programNamed(await detail(admin, original.id), name)).toEqual(stored);
  expect(program.id).toBe(stored.id);
});

test('the sector editor refuses an outline that crosses itself before sending it', async ({ page, admin }) => {
  const original = await machine(admin, 'PIVOT-05');
  const name = `Kształt ${Date.now().toString(36)}`;
  const [west, east, south, north] = [17.414, 17.415, 52.1375, 52.1385];
  const square: [number, number][] = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
  const programData: ProgramData = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: 'Kwadrat', rate: 10 },
        geometry: { type: 'Polygon', coordinates: [square] },
      },
    ],
  };
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/program/')) sent.push(request.url());
  });
  try {
    const program = await createProgram(admin, original.id, name, programData);
    for (const locale of ['pl', 'en'] as const) {
      const prefix = locale === 'pl' ? '' : '/en';
      if (locale === 'pl') await signIn(page, ADMIN, `/sprinklers/${original.id}/${program.id}/Kwadrat`);
      else await page.goto(`${prefix}/sprinklers/${original.id}/${program.id}/Kwadrat`);
      const words =
        locale === 'pl'
          ? { corners: /Narożniki kształtu/, latitude: 'Narożnik {n}: szerokość geograficzna', save: 'Zapisz sektor' }
          : { corners: /Corners of the shape/, latitude: 'Corner {n}: latitude', save: 'Save the sector' };
      const message =
        locale === 'pl'
          ? 'Obrys kształtu nie może przecinać się sam ze sobą'
          : 'The outline of the shape must not cross itself';
      await page.getByText(words.corners).click();
      // South-west, north-east, south-east, north-west: a bowtie.
      await page.getByLabel(words.latitude.replace('{n}', '2')).fill(String(north));
      await page.getByLabel(words.latitude.replace('{n}', '3')).fill(String(south));
      await page.getByLabel(words.latitude.replace('{n}', '3')).blur();
      await expect(page.getByText(message)).toBeVisible();
      await page.getByRole('button', { name: words.save }).click();
      await expect(page.getByText(message)).toBeVisible();
      // The map and the message under it, as the screen shows them (a full-page shot would paint the sticky header mid-page).
      await page.evaluate(() => window.scrollTo({ top: 200, behavior: 'instant' }));
      await expect(page.getByText(message)).toBeInViewport();
      // Scrolled under the sticky header, the map's zoom buttons stay beneath it.
      const zoom = (await page.locator('.leaflet-control-zoom').boundingBox())!;
      expect(zoom.y).toBeLessThan(40);
      const onTop = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('header') !== null,
        [zoom.x + zoom.width / 2, Math.max(zoom.y + 4, 4)],
      );
      expect(onTop).toBe(true);
      await page.screenshot({ path: `${SCREENSHOTS}editor-crossing-${locale}.png`, animations: 'disabled' });
    }
    expect(sent).toEqual([]);
    expect(programNamed(await detail(admin, original.id), name)!.programData).toEqual(programData);
  } finally {
    await restoreMachine(admin, original);
  }
});
