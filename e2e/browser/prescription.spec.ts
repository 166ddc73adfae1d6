import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { METRES_PER_DEGREE } from '@pivot/contracts';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';
import { detail, programItem, toast } from './support/programs';

/**
 * A variable-rate prescription made into a program on the machine page: the farmer's three
 * clicks (the button, the file, saving), the preview read again in another unit, and a hostile
 * file that changes nothing. The machine is the test's own, so its programs are the test's to
 * look at.
 */

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

const ARM = 300;

/**
 * A GeoJSON prescription of two halves of the machine's circle, east of its pivot at the first
 * rate and west of it at the second, each rectangle reaching well beyond the arm.
 */
function halvesFile(name: string, pivot: { lat: number; lng: number }, east: number, west: number) {
  const latSpan = (2 * ARM) / METRES_PER_DEGREE;
  const lngSpan = (2 * ARM) / (METRES_PER_DEGREE * Math.cos((pivot.lat * Math.PI) / 180));
  const half = (from: number, to: number, rate: number) => {
    const [west, east] = [pivot.lng + from * lngSpan, pivot.lng + to * lngSpan];
    const [south, north] = [pivot.lat - latSpan, pivot.lat + latSpan];
    const ring = [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ];
    return {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { DAWKA: rate, STREFA: 1 },
    };
  };
  const collection = { type: 'FeatureCollection', features: [half(0, 1, east), half(-1, 0, west)] };
  return { name, mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(collection)) };
}

async function choosePrescription(page: Page, button: string, file: ReturnType<typeof halvesFile>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

/** The rows of the preview's table of sectors, each as its cells' texts. */
const sectorRows = (page: Page) => page.getByRole('dialog').getByRole('table').locator('tbody tr');

test('a farmer makes a prescription into a program: preview, another unit, saved; a negative rate changes nothing', async ({
  page,
  admin,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const farmer = await createUser({ firstName: 'Zofia', lastName: 'Polna' });
  const machine = await startMachine({ lat: 52.31, lng: 17.21, armLength: ARM });
  const id = await addAndGrant(admin, machine, `Pole z zaleceniem ${machine.id}`, farmer.id);
  const { lat, lng } = await detail(admin, id);
  const pivot = { lat: Number(lat), lng: Number(lng) };
  const file = halvesFile('zalecenie-maj.geojson', pivot, 12, 24);

  await signIn(page, farmer, `/sprinklers/${id}`);
  await choosePrescription(page, 'Z zalecenia', file);
  const preview = page.getByRole('dialog', { name: 'Program z zalecenia' });
  await expect(preview).toContainText('zalecenie-maj.geojson: 2 strefy z dawką w kolumnie DAWKA');
  await expect(sectorRows(page)).toHaveText([
    /^0°–180°\s*12 mm\s*12 mm\s*0 mm\s*100%$/,
    /^180°–0°\s*24 mm\s*24 mm\s*0 mm\s*100%$/,
  ]);
  const map = preview.getByRole('region', { name: 'Mapa zalecenia z sektorami programu' });
  await expect(map.locator('.leaflet-tooltip')).toHaveText(['12 mm', '24 mm']);
  // The prescription is painted under the sectors: one image, coloured where the circle is prescribed.
  await expect(map.locator('img.leaflet-image-layer')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(preview.getByLabel('Kolumna dawki')).toHaveValue('DAWKA');
  await expect(preview.getByLabel('Nazwa programu')).toHaveValue('zalecenie-maj');
  await page.setViewportSize({ width: 1280, height: 1150 });
  await page.screenshot({ path: `${SCREENSHOTS}prescription-pl-light.png`, animations: 'disabled' });
  await expectAccessible(page, 'prescription preview');

  // Read in m³/ha, the same numbers are a tenth of the water.
  await preview.getByLabel('Jednostka dawki').selectOption('m3_per_ha');
  await expect(sectorRows(page)).toHaveText([/^0°–180°\s*1,2 mm\s*1,2 mm/, /^180°–0°\s*2,4 mm\s*2,4 mm/]);
  await expect(map.locator('.leaflet-tooltip')).toHaveText(['1,2 mm', '2,4 mm']);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SCREENSHOTS}prescription-pl-dark.png`, animations: 'disabled' });
  await expectAccessible(page, 'prescription preview, dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await preview.getByRole('button', { name: 'Zapisz jako program' }).click();
  await expect(toast(page, 'Utworzono program „zalecenie-maj” z zalecenia')).toBeVisible();
  await expect(preview).toBeHidden();
  const item = programItem(page, 'zalecenie-maj');
  // Saved and opened: its sectors are the ones the map shows.
  await expect(item.getByRole('button', { name: /^zalecenie-maj/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(item.getByRole('list', { name: 'Sektory programu „zalecenie-maj”' }).getByRole('listitem')).toHaveText([
    /0°–180°\s*1,2 mm/,
    /180°–0°\s*2,4 mm/,
  ]);
  const stored = (await detail(admin, id)).programs;
  expect(stored.map((program) => program.name)).toEqual(['zalecenie-maj']);
  expect(stored[0]!.programData.features.map((sector) => sector.properties)).toEqual([
    { name: '0°–180°', rate: 1.2 },
    { name: '180°–0°', rate: 2.4 },
  ]);

  // A hostile file: a rate below zero is refused with the server's reason, and nothing opens or is stored.
  await choosePrescription(page, 'Z zalecenia', halvesFile('ujemne.geojson', pivot, 12, -5));
  await expect(toast(page, 'Dawka poza zakresem')).toContainText('mniejsza od 0 lub większa niż 200 mm');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Z zalecenia' })).toBeEnabled();
  expect((await detail(admin, id)).programs).toEqual(stored);

  // In English, in the dark: the same preview, cancelled.
  await page.goto(`/en/sprinklers/${id}`);
  await choosePrescription(page, 'From a prescription', file);
  const english = page.getByRole('dialog', { name: 'Program from a prescription' });
  await expect(english).toContainText('zalecenie-maj.geojson: 2 zones with a rate in the column DAWKA');
  await expect(english.getByLabel('Program name')).toHaveAccessibleDescription(
    'A program named “zalecenie-maj” already exists',
  );
  await expect(sectorRows(page)).toHaveText([/^0°–180°\s*12 mm/, /^180°–0°\s*24 mm/]);
  await page.screenshot({ path: `${SCREENSHOTS}prescription-en-light.png`, animations: 'disabled' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SCREENSHOTS}prescription-en-dark.png`, animations: 'disabled' });
  await english.getByRole('button', { name: 'Cancel' }).click();
  await expect(english).toBeHidden();
  expect((await detail(admin, id)).programs).toEqual(stored);
});
